"""`source_readings.source_reading`: work on a source's text, kept across drafts, bounded, forgotten on demand."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest

from quotebound.agent.gate import answer_text, source_readings
from quotebound.agent.gate.claims import QuoteSpan
from quotebound.agent.gate.meaning import quotes
from quotebound.agent.gate.meaning.reading import parse
from quotebound.agent.gate.source_readings import forget_sources, source_reading
from quotebound.agent.gate.tokens import TokenPool

calls: list[str] = []


@source_reading
def shout(text: str) -> str:
    calls.append(text)
    return text.upper()


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    forget_sources()
    calls.clear()
    yield
    forget_sources()


def test_a_text_is_read_once_and_another_text_anew() -> None:
    assert shout("quorum is 25%") == "QUORUM IS 25%"
    assert shout("quorum is 25%") == "QUORUM IS 25%"
    assert shout("quorum is 15%") == "QUORUM IS 15%"  # a new version of the line: new text, read anew
    assert calls == ["quorum is 25%", "quorum is 15%"]


def test_forget_sources_reads_again() -> None:
    shout("pets may be kept")
    forget_sources()
    shout("pets may be kept")
    assert calls == ["pets may be kept", "pets may be kept"]


def test_the_oldest_readings_go_first_past_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source_readings, "MAX_READINGS", 2)
    for text in ("a", "b", "c", "b"):
        shout(text)
    shout("a")  # "a" was the oldest when "c" came: read again
    assert calls == ["a", "b", "c", "a"]


def test_not_an_lru_cache_so_forgetting_the_gates_caches_keeps_it() -> None:
    assert not hasattr(shout, "cache_clear")


def test_a_quote_sentence_found_in_its_context_is_read_as_source_text() -> None:
    context = "No pet may be kept for breeding. Dogs must be leashed."
    span = QuoteSpan("rules.md", "p.1 L4-L4", "pet may be kept for breeding", context)
    read = quotes._read_span(span, ())
    assert [qs.sentence.text for qs in read] == ["No pet may be kept for breeding."]
    fresh = parse("No pet may be kept for breeding.")  # the same reading as a draft's sentence gets
    assert (read[0].sentence.toks, read[0].sentence.values) == (fresh.toks, fresh.values)
    assert [c.modality for c in read[0].sentence.clauses] == [c.modality for c in fresh.clauses]
    assert any(key[1] == ("No pet may be kept for breeding.",) for key in source_readings._readings)


def test_a_quote_not_in_its_context_is_not_kept_as_source_text() -> None:
    span = QuoteSpan("rules.md", "p.1 L4-L4", "Cats may be kept for breeding.", "No pet may be kept for breeding.")
    read = quotes._read_span(span, ())
    assert [qs.sentence.text for qs in read] == ["Cats may be kept for breeding."]
    assert not source_readings._readings


def test_a_token_pool_reads_a_quotes_keys_once_per_source_text() -> None:
    pool, again = TokenPool.empty(), TokenPool.empty()
    pool.add_quote("The monthly assessment is $325.00 per unit.")
    assert ("num", Decimal("325.00")) in pool.keys
    assert len(source_readings._readings) == 1
    again.add_quote("The monthly assessment is $325.00 per unit.")  # another draft citing the same line
    assert again.keys == pool.keys and len(source_readings._readings) == 1
    again.keys.add(("num", Decimal(7)))  # a pool's keys are its own: the kept reading is not changed
    third = TokenPool.empty()
    third.add_quote("The monthly assessment is $325.00 per unit.")
    assert ("num", Decimal(7)) not in third.keys


def test_a_quoted_sentences_values_are_read_once_per_source_text() -> None:
    line = "The annual meeting is held on March 12, 2025; twelve owners make a quorum."
    found = answer_text.keys(line)
    assert ("num", Decimal(12)) in found and ("name", "march") in found
    assert answer_text.keys(line) is found  # a later draft quoting the same sentence
    forget_sources()
    assert answer_text.keys(line) is not found and answer_text.keys(line) == found
