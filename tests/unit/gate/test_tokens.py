"""The gate's token extraction and normalization: what counts as the same number, date or § token."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotebound.agent.gate.tokens import Token, TokenPool, extract_tokens, mask, operand_key, quote_keys, value_token


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
