"""`gate/meaning/symbols.py`: a figure written with a unit symbol in capitals ("104.1 FM") keeps the symbol its
quote writes; another symbol ("104.1 AM") is another unit. A claim with no symbol, or the quote's own, passes."""

from __future__ import annotations

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.meaning.symbols import symbols_after

STATION = "KSGF-FM (104.1 FM) is a radio station broadcasting a News Talk Information format."


def codes(claim: str, line: str = STATION) -> list[str]:
    return [p.code for p in meaning.problems(claim, [QuoteSpan("station.txt", "p.1 L1-L1", line, line)])]


def test_the_symbol_after_a_figure_is_read_as_written() -> None:
    assert symbols_after(STATION, "104.1") == {"FM"}
    assert symbols_after("It broadcasts on 1104.1 FM.", "104.1") == frozenset()  # another figure
    assert symbols_after("A 220 volt line.", "220") == frozenset()  # a word, not a symbol


def test_another_symbol_for_the_same_figure_is_blocked() -> None:
    assert "unbound" in codes("KSGF-FM broadcasts on 104.1 AM.")


def test_the_quotes_symbol_or_none_passes() -> None:
    assert codes("KSGF-FM broadcasts on 104.1 FM.") == []
    assert codes("KSGF-FM broadcasts on frequency 104.1.") == []


def test_a_year_or_a_figure_the_quote_writes_bare_is_not_held_to_a_symbol() -> None:
    line = "The plant opened in 2019 with 12 turbines."
    assert "unbound" not in codes("In 2019 GE built the plant with 12 turbines.", line)
    assert "unbound" not in codes("The plant has 12 GW turbines.", line)  # no symbol quoted: other rules' to judge
