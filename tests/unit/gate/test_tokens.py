"""The gate's token extraction and normalization: what counts as the same number, date or § token."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotebound.agent.gate import tokens as tokens_module
from quotebound.agent.gate.tokens import (
    Token,
    TokenPool,
    extract_tokens,
    mask,
    operand_key,
    quote_keys,
    value_token,
)


def kinds(text: str) -> list[tuple[str, str]]:
    return [(t.text, t.kind) for t in extract_tokens(text)]


def key(text: str) -> object:
    tokens = extract_tokens(text)
    assert len(tokens) == 1, tokens
    return tokens[0].key


def test_extraction_finds_each_kind_in_reading_order() -> None:
    text = "Pay $1,200.50 (15%) by March 12, 2025 per § 4.2 for unit 5A; 3.5 percent in 2025."
    assert kinds(text) == [
        ("$1,200.50", "money"),
        ("15%", "percent"),
        ("March 12, 2025", "date"),
        ("§ 4.2", "section"),
        ("5A", "code"),
        ("3.5 percent", "percent"),
        ("2025", "number"),
    ]


@pytest.mark.parametrize("spelling", ["$1,200.00", "1,200", "1200", "1200.00", "$1200", "€1,200.0"])
def test_numbers_compare_by_value(spelling: str) -> None:
    assert key(spelling) == ("num", Decimal("1200"))


def test_percent_keeps_its_sign() -> None:
    assert key("15%") == key("15 %") == key("15.0 percent") == ("pct", Decimal("15"))
    assert key("15%") != key("15")


@pytest.mark.parametrize(
    "spelling",
    ["2025-03-12", "March 12, 2025", "March 12 2025", "Mar. 12, 2025", "12 March 2025", "12th of March, 2025",
     "03/12/2025"],
)  # fmt: skip
def test_dates_compare_by_iso_value(spelling: str) -> None:
    assert key(spelling) == ("date", "2025-03-12")


def test_date_edge_cases() -> None:
    assert key("13/03/2025") == ("date", "2025-03-13")  # a first part above 12 can only be the day
    assert key("March 2025") == ("date", "2025-03")
    assert key("2025") == ("num", Decimal("2025"))  # a year standing alone is a number
    assert [t.kind for t in extract_tokens("February 30, 2025")] == ["number", "number"]  # no such day


@pytest.mark.parametrize("spelling", ["§ 4.2", "§4.2", "Section 4.2", "section 4.2", "Sec. 4.2"])
def test_section_tokens_compare_by_normalized_text(spelling: str) -> None:
    assert key(spelling) == ("sec", "4.2")


def test_articles_compare_roman_and_arabic() -> None:
    assert key("Article IV") == key("article 4") == key("Art. IV") == ("art", 4)
    assert key("Article IX") == ("art", 9)
    assert extract_tokens("the article did not say") == []


def test_signs_ranges_and_ordinals() -> None:
    assert [t.key for t in extract_tokens("a change of -$15")] == [("num", Decimal("-15"))]
    assert [t.key[1] for t in extract_tokens("pages 10-12")] == [Decimal("10"), Decimal("12")]
    assert [t.key for t in extract_tokens("the 12th floor")] == [("num", Decimal("12"))]
    assert key("unit B-12") == key("unit b12") == ("code", "b12")


def test_quotes_are_read_leniently_but_percentages_never_support_bare_numbers() -> None:
    keys = quote_keys("The meeting is on March 12, 2025; dues rise 15% to $1,200 (a change of -$15).")
    assert ("num", Decimal("2025")) in keys and ("num", Decimal("12")) in keys and ("date", "2025-03") in keys
    assert ("num", Decimal("15")) in keys  # the magnitude of -$15
    assert ("pct", Decimal("15")) in keys
    assert ("num", Decimal("15")) not in quote_keys("dues rise 15% this year")
    assert ("num", Decimal("2025")) in quote_keys("the FY2025 budget")


def test_citations_are_masked_before_extraction() -> None:
    text = 'budget-2025.md p.1 L3-L3 states "$325.00" (doc://budget-2025.md@v1#p.1 L3).'
    assert [t.text for t in extract_tokens(mask(text, ["budget-2025.md"]))] == ["$325.00"]
    assert len(mask(text, ["budget-2025.md"])) == len(text)


def test_pool_supports_quoted_tokens_and_recomputed_values() -> None:
    pool = TokenPool.empty()
    pool.add_quote("The monthly assessment is $325.00 per unit.")
    pool.add_calc(Decimal("3900"))
    pool.add_calc(Decimal("4.5"))
    pool.add_calc(Decimal("0.25"))
    supported = [t.text for t in extract_tokens("$325; $3,900.00; 4.5%; 25%; 3901; 325%") if pool.supports(t)]
    assert supported == ["$325", "$3,900.00", "4.5%", "25%"]


def test_pool_supports_a_recomputed_value_rounded_to_its_own_places() -> None:
    pool = TokenPool.empty()
    pool.add_calc(Decimal("11.45251396648044692737430167597765"))
    pool.add_calc(Decimal("0.4"))
    said = "11.45%; 11.5%; 11%; 11.46%; 12%; 0%; 0.4; 1"
    supported = [t.text for t in extract_tokens(said) if pool.supports(t)]
    assert supported == ["11.45%", "11.5%", "11%", "0.4"]


def test_operands_and_values() -> None:
    assert operand_key("1,200.50") == ("num", Decimal("1200.50"))
    assert operand_key("15%") == ("pct", Decimal("15"))
    assert operand_key("abc") is None
    token = value_token("$325.00 per unit")
    assert isinstance(token, Token) and token.kind == "money"
    assert value_token("Acme Landscaping") is None


@given(st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False, allow_infinity=False))
def test_every_spelling_of_an_amount_has_one_key(amount: Decimal) -> None:
    spellings = [f"${amount:,.2f}", f"{amount:.2f}", f"{amount:,}", f"{amount.normalize():f}"]
    assert {key(s) for s in spellings} == {("num", amount)}


@pytest.mark.parametrize(
    "spelling", ["22:00", "10:00 pm", "10 p.m.", "10:00 PM", "10pm", "10 P.M.", "10:00 p.m", "22:00:00"]
)
def test_clock_times_compare_by_24_hour_value(spelling: str) -> None:
    assert kinds(spelling) == [(spelling, "time")]
    assert key(spelling) == ("time", "22:00")


def test_clock_time_edge_cases() -> None:
    assert key("7 pm") == key("19:00") == key("7:00 p.m.") == ("time", "19:00")
    assert key("9:00 AM") == key("9 a.m.") == key("09:00") == ("time", "09:00")
    assert key("12 am") == ("time", "00:00") and key("12:30 p.m.") == ("time", "12:30")
    assert key("10:30") == ("time", "10:30") != key("10:30 p.m.")  # no am/pm: the morning
    assert key("8:20:15 p.m.") == ("time", "20:20:15")
    assert key("10") == ("num", Decimal("10"))  # an hour needs minutes or am/pm to be a time
    for not_a_time in ("24:00", "13 pm", "12:60", "ratio 3:1", "7 amendments"):
        assert all(t.kind == "number" for t in extract_tokens(not_a_time)), not_a_time
    assert kinds("On March 12, 2025 at 7:30 p.m. (§ 4.2)") == [
        ("March 12, 2025", "date"),
        ("7:30 p.m.", "time"),
        ("§ 4.2", "section"),
    ]
    token = value_token("at 7:00 p.m.")
    assert token is not None and token.kind == "time"


def test_a_quoted_time_supports_each_of_its_spellings_and_nothing_else() -> None:
    pool = TokenPool.empty()
    pool.add_quote("Quiet hours are from 10:00 p.m. to 7 a.m. every day.")
    said = "22:00; 10 pm; 10:00 PM; 07:00; 7:00 AM; 7am; 23:00; 10:30 p.m.; 10:00; 7 pm; 19:00; 10; 7; 22"
    supported = [t.text for t in extract_tokens(said) if pool.supports(t)]
    assert supported == ["22:00", "10 pm", "10:00 PM", "07:00", "7:00 AM", "7am", "10", "7"]
    assert all(t.kind == "time" for t in extract_tokens(said)[:11])
    assert ("num", Decimal("22")) not in quote_keys("at 10:00 p.m.")  # the quote wrote 10, never 22
    assert ("time", "22:00") not in quote_keys("at 10 tonight, 22 guests")  # numbers never support a time


def pool_of(*quotes: str) -> TokenPool:
    pool = TokenPool.empty()
    for quote in quotes:
        pool.add_quote(quote)
    return pool


def supported(text: str, *quotes: str) -> bool:
    pool = pool_of(*quotes)
    return all(pool.supports(t) for t in extract_tokens(text))


@pytest.mark.parametrize("spelling", ["FY2019", "FY19", "FY 2019", "fy19", "FY'19", "CY2019"])
def test_a_fiscal_year_code_is_its_year(spelling: str) -> None:
    assert key(spelling) == ("year", 2019)
    assert supported(f"Net profit in {spelling}.", "| | 30 June 2019 | 30 June 2018 |")
    assert supported(f"The {spelling} budget.", "Annual Budget, Fiscal Year 2019")
    assert supported(f"In {spelling}.", "improved to $85.1 million in FY19.")


@pytest.mark.parametrize("heading", ["|  | FY19 | FY18 |", "|  | FY2019 | FY2018 |", "In FY'19 the margin rose."])
def test_a_year_code_in_a_quote_states_its_year_in_full(heading: str) -> None:
    # "FY19" heads the column of 2019: a claim may write the year out
    assert supported("Net profit in 2019 rose.", heading)
    assert not supported("Net profit in 2017 rose.", heading)
    assert not supported("Net profit in 1919 rose.", heading)


def test_a_fiscal_year_needs_its_own_year() -> None:
    assert not supported("Net profit in FY19.", "| | 30 June 2018 | 30 June 2017 |")
    assert not supported("In FY2019.", "The fee is 19 dollars.")  # 19 is no year
    assert key("FY99") == ("year", 1999) and key("FY49") == ("year", 2049)


def test_a_scaled_figure_needs_its_scale_stated_or_its_scaled_value_quoted() -> None:
    assert supported("Free cash flow was €4,411m.", "| Free cash flow | 4,411 | 4,044 |", "|  | €m | €m |")
    assert supported("592 thousand", "| VAT receivables | 592 | 519 |", "assets consisted of (in thousands):")
    assert supported("$5 million", "The loan is $5,000,000.")
    assert supported("EBITDA was $85.1 million.", "improved to $85.1 million in FY19.")
    # the table is in millions: billions or thousands are another amount
    assert not supported("Total sales were $1,496.5 billion.", "| Total sales | $1,496.5 |", "(in millions):")
    assert not supported("592 million", "| VAT receivables | 592 | 519 |", "(in thousands):")
    assert not supported("$5 million", "The deposit is $5.")


def test_one_letter_scales_apply_to_money_and_grouped_figures_only() -> None:
    assert [(t.text, t.scale) for t in extract_tokens("€4,411m, $10k, 1.2bn")] == [
        ("€4,411m", 6),
        ("$10k", 3),
        ("1.2bn", 9),
    ]
    assert kinds("unit 5B and a 10m pool") == [("5B", "code"), ("10m", "code")]


def test_accounting_parentheses_are_negative_figures() -> None:
    keys = quote_keys("| Net profit/(loss) | (9,819) | 6,639 | (248%) |")
    assert {("num", Decimal("-9819")), ("num", Decimal("9819")), ("pct", Decimal("-248"))} <= keys
    assert ("num", Decimal("-6639")) not in keys


def test_a_letter_spaced_table_cell_is_its_figure() -> None:
    assert ("num", Decimal("2018")) in quote_keys("|  | 2019 | 2 0 1 8 |")
    assert ("num", Decimal("2018")) not in quote_keys("Items 2 0 1 8 of the list.")  # only a table cell


def test_a_percentage_change_may_be_stated_by_its_size() -> None:
    pool = TokenPool.empty()
    pool.add_calc(Decimal("-22.22"))  # round((44.1 - 56.7) / 56.7 * 100, 2)
    assert pool.supports(extract_tokens("fell by 22.22%")[0])
    assert pool.supports(extract_tokens("-22.22%")[0])
    assert pool.supports(extract_tokens("fell by 22.2%")[0])  # rounded to its own places
    assert not pool.supports(extract_tokens("fell by 22.3%")[0])


@pytest.mark.parametrize(
    ("text", "count"),
    [("-1" * 10_000, 10_000), ("a1-" * 7_000, 1), ("(1)" * 7_000, 7_000), ("1 " * 10_000, 10_000), ("$" * 20_000, 0)],
)
def test_long_hostile_runs_read_as_expected(text: str, count: int) -> None:
    # runs like these once cost seconds to minutes (a quadratic overlap check, an unbounded lookahead); read in
    # linear time they cost milliseconds, which benchmarks/bench_gate_speed.py measures (a timing here would
    # fail on a busy machine). What they read as stays pinned down here.
    assert len(extract_tokens(text)) == count


FRAGMENTS = [
    "The fee is",
    "$1,200.50",
    "(15%)",
    "by March 12, 2025",
    "per § 4.2",
    "unit 5A;",
    "3.5 per cent",
    "in 2025.",
    "10:30 p.m.",
    "FY19",
    "€4,411m",
    "(9,819)",
    "Article IV",
    "12th of September, 2025",
    "Sec. 7",
    "B-12",
    "-3.5",
    "10-12",
    "2024-2025",
    "03/12/2025",
    "Owners may not park boats",
    "\n",
    "  ",
    "the 3rd",
    "5 million",
    # letters Python's case-insensitive matching folds to ASCII ones ("ſ" is "s"), and upper-case spellings
    "ſept 5, 2025",
    "SECTİON 5",
    "10 PM",
    "5 thouſand",
    "Jan. 3",
    "art. 12",
    "$3tn",
    "Fy 2020",
]


@given(parts=st.lists(st.sampled_from(FRAGMENTS), min_size=10, max_size=80))
def test_reading_around_digits_finds_what_reading_everything_finds(parts: list[str]) -> None:
    # the shortcuts (read only around digits, skip a kind whose marks are absent) never change what is found
    text = " ".join(parts) + " " + "word " * 50  # long enough to be read in windows
    windowed, short = tokens_module._read_tokens(text), tokens_module._read_tokens(text[:150])
    saved = tokens_module._WINDOWED, tokens_module._kinds_present
    tokens_module._WINDOWED = 10**9  # read the whole text, every kind
    tokens_module._kinds_present = lambda text: dict.fromkeys(saved[1](text), True)
    try:
        assert tokens_module._read_tokens(text) == windowed
        assert tokens_module._read_tokens(text[:150]) == short  # a short text is read whole, with the shortcuts
    finally:
        tokens_module._WINDOWED, tokens_module._kinds_present = saved


def test_a_currency_figure_may_group_thousands_with_a_space() -> None:
    assert [t.key for t in extract_tokens("You received $2 657.81 via ACH.")] == [("num", Decimal("2657.81"))]
    assert [t.text for t in extract_tokens("15 300 units")] == ["15", "300"]  # no currency: two figures


def test_a_letter_that_case_folding_makes_ascii_reads_as_that_letter() -> None:
    # "ſ" (long s) matches "s" in a case-insensitive pattern: the month and the scale it spells are read, and a
    # hostile draft writing them cannot make the reading fail (it once raised KeyError: 'ſep')
    assert key("due ſept 5, 2025") == ("date", "2025-09-05")
    assert key("the fee is 5 thouſand") == ("num", Decimal("5"))
    assert extract_tokens("the fee is 5 thouſand")[0].scale == 3
    assert ("scale", 3) in quote_keys("figures in thouſands")
    assert key("SECTİON 5") == ("sec", "5")


def _windows_reference(text: str) -> list[tuple[int, int]]:
    """The reading windows as first written: each digit run's reach widened to whitespace, merged (quadratic on a
    long text without whitespace, which is why `_windows` is written otherwise)."""
    spans: list[tuple[int, int]] = []
    for m in tokens_module._DIGIT_RUN.finditer(text):
        start = max(0, m.start() - tokens_module._REACH)
        start = 0 if start == 0 else max(text.rfind(c, 0, start) for c in " \n\t") + 1
        space = tokens_module._SPACE.search(text, m.end() + tokens_module._REACH)
        end = space.start() if space is not None else len(text)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
        else:
            spans.append((start, end))
    return spans


@given(
    parts=st.lists(
        st.sampled_from(["a", "word", "x" * 45, "1", "22", "7" * 6, " ", "\n", "\t", "\r", "-", "."]), max_size=120
    )
)
def test_the_reading_windows_are_the_reference_ones(parts: list[str]) -> None:
    text = "".join(parts)
    assert tokens_module._windows(text) == _windows_reference(text)


def test_a_date_with_its_comma_set_apart_is_that_date() -> None:
    """Text extracted with spaces around its marks ("September 19 , 1902") still gives the date, and only it."""
    assert ("date", "1902-09-19") in quote_keys("On September 19 , 1902 , it was dedicated")
    assert ("date", "1902-09-19") in quote_keys("On 19 September , 1902 , it was dedicated")
    assert ("date", "1902-09-20") not in quote_keys("On September 19 , 1902 , it was dedicated")


def test_a_month_of_a_year_is_that_month() -> None:
    assert ("date", "1850-09") in quote_keys("A crowd attended the dedication in September of 1850.")
    assert [t.key for t in extract_tokens("the cost of 2,000")] == [("num", Decimal("2000"))]


def test_a_currency_code_written_against_its_figure_is_the_figure() -> None:
    assert kinds("RMB29,423 million") == [("29,423 million", "number")]
    assert kinds("EUR4.5bn") == [("4.5bn", "number")]
    pool = TokenPool.empty()
    pool.add_quote("| Notional amount | 29,423 | 77,630 |")
    pool.add_quote("|  | RMB’Million | RMB’Million |")
    assert [t.text for t in extract_tokens("RMB29,423 million") if pool.supports(t)] == ["29,423 million"]
    assert not any(pool.supports(t) for t in extract_tokens("RMB29,432 million"))  # a figure the quote lacks
    # a code with no figure going on past it stays a code, compared whole
    assert kinds("ABC123 and xRMB29") == [("ABC123", "code"), ("xRMB29", "code")]
