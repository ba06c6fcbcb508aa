"""What frames a quote around its locator (`layout.py`): the hard-wrapped lines of its paragraph, and the headings of
the table its row belongs to, composed column by column."""

from __future__ import annotations

import pytest

from quotebound.agent.gate.layout import (
    MAX_WRAP_LINES,
    Frame,
    cells,
    column_unit_cells,
    frames,
    row_label_dates,
    table_headings,
    wrapped_neighbours,
)
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


def test_frames_give_each_line_its_block_and_section() -> None:
    framed = frames(PAGE)
    assert framed[0] == Frame(0, 0, True)  # "# Pets" heads its own section
    assert [f.block for f in framed[2:5]] == [2, 2, 2]  # one hard-wrapped paragraph
    assert [f.block for f in framed[5:7]] == [5, 5]  # a list item and its continuation
    assert framed[7] == Frame(7, 7, True) and framed[8].section == 7  # "## Parking" and the line under it
    assert framed[11].block == 11 and framed[11].section == 7  # a table row starts its own block


def test_a_short_line_standing_alone_without_a_sentence_mark_is_a_heading() -> None:
    page = ["Accounting policy for dividends", "", "Dividends are recognised when declared.", "", "Note 21.", ""]
    framed = frames(page)
    assert framed[0].heading and framed[2].section == 0
    assert not framed[2].heading and not framed[4].heading  # a sentence, and a line ending in a full stop


def test_a_table_is_one_block_and_lines_between_blank_lines_are_another() -> None:
    page = ["Fees paid:", "| | 2019 |", "| --- | --- |", "| Audit | 1,092 |", "", "Text after.", "More text."]
    framed = frames(page)
    assert framed[0].block == 0 and {f.block for f in framed[1:4]} == {1}
    assert framed[5].block == framed[6].block == 5


def test_headings_keep_one_entry_per_column_so_they_line_up_with_the_cells() -> None:
    table = ["|  | Note |  | 2019 | 2018 |", "| --- | --- | --- | --- | --- |", "| Revenue | 4 | x | 5 | 6 |"]
    assert table_headings(table, 2).split(" | ") == ["Note", "Note", "2019", "2018"]  # "Note" spans the empty cell
    unheaded = ["|  |  | 2019 | 2018 |", "| --- | --- | --- | --- |", "| Revenue | 4 | 5 | 6 |"]
    assert table_headings(unheaded, 2).split(" | ") == ["", "2019", "2018"]  # nothing heads the notes column


def test_a_heading_row_of_year_phrases_below_the_rule_is_a_heading() -> None:
    table = [
        "|  | Years Ended |  |",
        "| --- | --- | --- |",
        "| (Dollars in thousands) | 2019 | 2019 over 2018 |",
        "| Revenue | 1,200 | 8% |",
    ]
    assert table_headings(table, 3).split(" | ") == [
        "(Dollars in thousands) Years Ended 2019",
        "(Dollars in thousands) Years Ended 2019 over 2018",
    ]


def test_a_cell_under_a_percent_units_row_reads_as_a_percentage() -> None:
    page = ["|  | 2019 | 2018 |", "| --- | --- | --- |", "|  | % | % |", "| Discount rate | 2.9 | 3.8 |"]
    headings = table_headings(page, 3)
    assert column_unit_cells(page[3], headings) == "2.9% 3.8%"


def test_a_row_labelled_in_percent_reads_its_bare_cells_as_percentages() -> None:
    assert column_unit_cells("| ROFE (%) | 15.2 | (1.7) | (190) bps |", "F19 | F18 | Change") == "15.2% (1.7%)"


def test_a_cell_under_another_unit_gains_no_percent() -> None:
    assert column_unit_cells("| Revenue | 2,900 | 3.8 |", "2019 $m | % change") == "3.8%"
    assert column_unit_cells("| Revenue | 2,900 | 3,100 |", "2019 $m | 2018 $m") == ""
    assert column_unit_cells("Revenue was 2,900.", "2019 %") == ""


BLOCKS = [
    "|  | Number of shares | Weighted average price |",
    "| --- | --- | --- |",
    "| 2019 |  |  |",
    "| Outstanding at 1 January | 100 | 5.0 |",
    "| Granted | 10 | 6.0 |",
    "| 2018 |  |  |",
    "| Outstanding at 1 January | 90 | 4.0 |",
]


def test_a_row_reads_under_the_year_labelling_its_own_block() -> None:
    assert table_headings(BLOCKS, 3) == "2019 Number of shares | 2019 Weighted average price"
    assert table_headings(BLOCKS, 4) == "2019 Number of shares | 2019 Weighted average price"
    assert table_headings(BLOCKS, 6) == "2018 Number of shares | 2018 Weighted average price"
    # a row labelled with a year that fills its cells is a data row, not a block label
    rows = ["|  | Sales | Cost |", "| --- | --- | --- |", "| 2019 | 100 | 60 |", "| 2018 | 90 | 50 |"]
    assert table_headings(rows, 3) == "Sales | Cost"


MOVEMENT = [
    "| £m | 2019 | 2018 |",
    "| --- | --- | --- |",
    "| At 1 January | 65.6 | 64.8 |",
    "| At 31 December | 53.7 | 65.6 |",
]


def test_a_row_labels_day_and_month_read_with_each_columns_year() -> None:
    headings = table_headings(MOVEMENT, 2)
    dates = row_label_dates(MOVEMENT[2], headings)
    assert ("date", "2019-01-01") in quote_keys(dates) and ("date", "2018-01-01") in quote_keys(dates)
    assert ("date", "2019-12-31") in quote_keys(row_label_dates(MOVEMENT[3], headings))
    assert row_label_dates("| As at December 31 | 1 | 2 |", "2019 | 2018") == "December 31, 2019; December 31, 2018"


def test_no_date_is_composed_without_a_day_and_month_or_under_a_dated_column() -> None:
    assert row_label_dates("| Net sales | 1 | 2 |", "2019 | 2018") == ""
    assert row_label_dates("| At 1 January 2019 | 1 | 2 |", "2019 | 2018") == ""  # the label has its year
    # a column already dated ("Year Ended March 31, 2019") composes nothing with the label
    assert row_label_dates("| At 1 January | 1 | 2 |", "Year Ended March 31, 2019 | 2018") == "1 January 2018"
    assert row_label_dates("not a row", "2019") == ""


CAPTIONED = [
    "The pro-forma results are presented for information only (in millions except per share data):",
    "",
    "|  | 2019 | 2018 |",
    "| --- | --- | --- |",
    "| Net sales | $5,563.7 | $5,875.0 |",
    "| Basic net income per common share | $2.29 | $(3.27) |",
]


def test_a_captions_scale_heads_every_column_of_its_table() -> None:
    headings = table_headings(CAPTIONED, 4)
    assert headings == "in millions 2019 | in millions 2018"
    assert ("scale", 6) in quote_keys(headings)


def test_a_row_the_caption_excepts_or_a_caption_without_a_colon_gets_no_scale() -> None:
    assert "millions" not in table_headings(CAPTIONED, 5)  # counted per share
    prose = ["Net sales rose (in millions) over the year.", "", *CAPTIONED[2:]]
    assert "millions" not in table_headings(prose, 4)  # a sentence, not the table's caption


DATED_BLOCKS = [
    "|  | Gross | Allowance | Net |",
    "| --- | --- | --- | --- |",
    "| December 31, 2019 |  |  |  |",
    "| Total | $19,731 | $(238) | $19,493 |",
    "| December 31, 2018 |  |  |  |",
    "| Total | $15,568 | $(168) | $15,400 |",
]


def test_a_row_reads_under_the_date_labelling_its_own_block() -> None:
    assert (
        table_headings(DATED_BLOCKS, 3)
        == "December 31, 2019 Gross | December 31, 2019 Allowance | December 31, 2019 Net"
    )
    assert (
        table_headings(DATED_BLOCKS, 5)
        == "December 31, 2018 Gross | December 31, 2018 Allowance | December 31, 2018 Net"
    )


def test_a_label_with_words_besides_its_date_labels_no_block() -> None:
    rows = [*DATED_BLOCKS[:4], "| Balance at December 31, 2018 |  |  |  |", DATED_BLOCKS[5]]
    assert table_headings(rows, 5).startswith("December 31, 2019")
