"""What frames a quote around its locator (`layout.py`): the hard-wrapped lines of its paragraph, and the headings of
the table its row belongs to, composed column by column."""

from __future__ import annotations

import pytest

from quotebound.agent.gate.layout import MAX_WRAP_LINES, cells, table_headings, wrapped_neighbours
from quotebound.agent.gate.tokens import quote_keys

PAGE = [
    "# Pets",  # 0
    "",  # 1
    "Owners may keep two household pets. No pet may be",  # 2
    "kept, bred or maintained for any commercial",  # 3
    "purpose.",  # 4
    "- Dogs must be leashed in common areas and",  # 5
    "  may not be left unattended.",  # 6
    "## Parking",  # 7
    "Guests may park in the visitor spaces",  # 8
    "only.",  # 9
    "",  # 10
    "| Item | Cost |",  # 11
]


@pytest.mark.parametrize(
    ("first", "last", "before", "after"),
    [
        (3, 3, "Owners may keep two household pets. No pet may be", "purpose."),  # the middle of a paragraph
        (2, 2, "", "kept, bred or maintained for any commercial\npurpose."),  # its first line
        (4, 4, "Owners may keep two household pets. No pet may be\nkept, bred or maintained for any commercial", ""),
        (6, 6, "- Dogs must be leashed in common areas and", ""),  # a list item's continuation
        (5, 5, "", "  may not be left unattended."),
        (8, 8, "", "only."),  # a heading above is not the paragraph's
        (0, 0, "", ""),  # a heading has no wrapped lines
        (11, 11, "", ""),  # neither has a table row
    ],
)
def test_wrapped_neighbours_are_the_paragraphs_other_lines(first: int, last: int, before: str, after: str) -> None:
    assert wrapped_neighbours(PAGE, first, last) == (before, after)


def test_wrapped_neighbours_are_bounded() -> None:
    page = ["word"] * 100
    before, after = wrapped_neighbours(page, 50, 50)
    assert before.count("\n") + 1 == MAX_WRAP_LINES and after.count("\n") + 1 == MAX_WRAP_LINES


def test_cells_squash_whitespace_and_drop_the_outer_pipes() -> None:
    assert cells("|  | 30 June   2019 | $’000 |") == ["", "30 June 2019", "$’000"]


TATQA_DATES = [
    "The international discount rates were determined by comparison.",
    "",
    "|  | Domestic |  | International |  |",
    "| --- | --- | --- | --- | --- |",
    "|  | September 30, |  | September 30, |  |",
    "|  | 2019 | 2018 | 2019 | 2018 |",
    "| Discount rate | 4.00% | 3.75% | 1.90% | 2.80% |",
    "| Expected return on plan assets |  |  | 3.40% | 3.70% |",
]


def test_headings_compose_merged_cells_column_by_column() -> None:
    assert table_headings(TATQA_DATES, 6) == (
        "Domestic September 30, 2019 | Domestic September 30, 2018 | "
        "International September 30, 2019 | International September 30, 2018"
    )
    keys = quote_keys(table_headings(TATQA_DATES, 7))
    assert ("date", "2019-09-30") in keys and ("date", "2018-09-30") in keys


def test_a_caption_in_the_first_column_heads_every_column() -> None:
    table = [
        "| ($ in millions) |  |  |  |",
        "| --- | --- | --- | --- |",
        "| For the year ended December 31: | 2019 | 2018 | 2017 |",
        "| Cost | $100 | $82 | $91 |",
        "| Selling, general and administrative | 453 | 361 | 384 |",
    ]
    headings = table_headings(table, 4)
    assert headings.split(" | ")[0] == "($ in millions) For the year ended December 31 2019"
    assert {("date", "2019-12-31"), ("date", "2017-12-31"), ("scale", 6)} <= quote_keys(headings)


def test_a_single_heading_spans_every_column() -> None:
    table = [
        "|  |  | Years Ended September 30, |  |",
        "| --- | --- | --- | --- |",
        "|  | 2019 | 2018 | 2017 |",
        "| Other | 44.1 | 56.7 | 70.8 |",
    ]
    assert table_headings(table, 3).split(" | ") == [
        "Years Ended September 30, 2019",
        "Years Ended September 30, 2018",
        "Years Ended September 30, 2017",
    ]


def test_headings_stop_at_the_first_data_row() -> None:
    table = [
        "| Item | FY2025 budget |",
        "|------|--------------:|",
        "| Total operating budget | $76,200.00 |",
        "| Reserve fund contribution | $17,400.00 |",
        "| **Total annual budget** | **$93,600.00** |",
    ]
    assert table_headings(table, 4) == "Item FY2025 budget"  # never "$76,200.00" or "$17,400.00"
    assert ("num", 76200) not in quote_keys(table_headings(table, 4))
    assert table_headings(table, 2) == "Item FY2025 budget"


def test_units_and_years_in_heading_rows_after_the_separator_count() -> None:
    table = [
        "|  | 30 June 2019 | 30 June 2018 | Change |",
        "| --- | --- | --- | --- |",
        "|  | $’000 | $’000 | % |",
        "| Net profit/(loss) after tax | (9,819) | 6,639 | (248%) |",
    ]
    assert table_headings(table, 3) == "30 June 2019 $’000 | 30 June 2018 $’000 | Change %"
    assert {("year", 2019), ("scale", 3)} <= quote_keys(table_headings(table, 3))


def test_no_headings_outside_a_table_or_above_its_first_row() -> None:
    assert table_headings(PAGE, 3) == ""
    assert table_headings(TATQA_DATES, 2) == ""
    assert table_headings(TATQA_DATES, 99) == ""
