"""`gate/meaning/joined.py`: a name the claim gives its figure's subject, written as a name by another quote and only
as a common word (or not at all) by the figure's own quote, is that other quote's subject: the figure is joined to
it. The honest side: a claim that keeps the figure's own subject, or whose figure's quote names the thing too."""

from __future__ import annotations

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan

LIGHT = "The manager will have the Building 5 light repaired by March 21, 2025."
RENTAL = "The Board approved up to $400.00 from the building repairs and maintenance line for dumpster rental."
QUESTION = "How much money was approved to repair the Building 5 light?"


def spans(*lines: tuple[int, str]) -> list[QuoteSpan]:
    """Quotes of far-apart lines of one document: no one passage, neither goes on from the other."""
    return [QuoteSpan("minutes.md", f"p.1 L{n}-L{n}", text, text) for n, text in lines]


def codes(claim: str, quoted: list[QuoteSpan]) -> list[str]:
    return [p.code for p in meaning.problems(claim, quoted, QUESTION)]


def test_a_figure_given_to_what_another_quote_names_stays_unbound() -> None:
    claim = "The Board approved $400.00 to repair the Building 5 light."
    assert "unbound" in codes(claim, spans((27, LIGHT), (85, RENTAL)))


def test_a_figure_kept_with_its_own_subject_is_bound() -> None:
    claim = "The Board approved $400.00 for dumpster rental."
    assert "unbound" not in codes(claim, spans((27, LIGHT), (85, RENTAL)))


def test_a_figure_whose_quote_names_the_thing_too_is_bound() -> None:
    own = "The Board approved up to $400.00 from the building repairs line for the Building 5 light."
    claim = "The Board approved $400.00 to repair the Building 5 light."
    assert "unbound" not in codes(claim, spans((27, LIGHT), (85, own)))
