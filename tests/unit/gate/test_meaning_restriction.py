"""`gate/meaning/restriction.py`: a claim that drops a quote's "only" and says "all" instead widens what the quote
restricts; keeping the restriction, or a universal the quote says too, passes."""

from __future__ import annotations

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan

IMFT = "Creditors of IMFT have recourse only to IMFT's assets and do not have recourse to any other of our assets."
POOL = "All residents may use the pool during posted hours."


def details(claim: str, line: str = IMFT) -> list[str]:
    return [p.detail for p in meaning.problems(claim, [QuoteSpan("note.md", "p.1 L1-L1", line, line)])]


def test_all_where_the_quote_says_only_is_blocked() -> None:
    assert any("only" in d for d in details("Yes, creditors of IMFT have recourse to all of the company's assets."))


def test_the_quotes_restriction_kept_passes() -> None:
    assert details("No, creditors of IMFT have recourse only to IMFT's assets.") == []


def test_a_universal_the_quote_says_itself_passes() -> None:
    assert not any("only" in d for d in details("All residents may use the pool during posted hours.", POOL))
