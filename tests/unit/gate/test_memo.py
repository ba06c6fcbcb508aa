"""`memo.per_draft`: work done once per `GateInputs`, kept on the inputs and nowhere else."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from dataclasses import replace

import pytest

from quotebound.agent.core.contracts import Fact, Support
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.memo import forget, per_draft

calls: list[tuple[str, object]] = []


@per_draft
def fact_texts(inputs: GateInputs) -> tuple[str, ...]:
    calls.append(("fact_texts", id(inputs)))
    return tuple(f.text for f in inputs.draft.evidence.facts)


@per_draft
def with_sources(inputs: GateInputs, sources: frozenset[str], *, upper: bool = False) -> tuple[str, ...]:
    calls.append(("with_sources", sources))
    found = tuple(s.quote for f in inputs.draft.evidence.facts for s in f.support if s.source_id in sources)
    return tuple(q.upper() for q in found) if upper else found


@per_draft
def failing(inputs: GateInputs) -> int:
    calls.append(("failing", None))
    raise ValueError("not now")


@pytest.fixture
def new_inputs(make_draft: Callable[..., object], make_inputs: Callable[..., GateInputs]) -> Callable[[], GateInputs]:
    """A new `GateInputs` for the same one-fact draft each call."""
    fact = Fact(
        text="The late charge is $25.",
        support=[Support(source_id="rules.md", locator="p.1 L3-L3", quote="A late charge of $25 applies.")],
    )
    return lambda: make_inputs(make_draft(fact), question="What is the late charge?")


@pytest.fixture(autouse=True)
def _no_calls() -> None:
    calls.clear()


def test_a_function_runs_once_per_draft(new_inputs: Callable[[], GateInputs]) -> None:
    inputs = new_inputs()
    assert fact_texts(inputs) == ("The late charge is $25.",)
    assert fact_texts(inputs) is fact_texts(inputs)
    assert calls == [("fact_texts", id(inputs))]


def test_each_draft_has_its_own_results(new_inputs: Callable[[], GateInputs]) -> None:
    first, second = new_inputs(), new_inputs()
    assert first == second  # equal inputs, but two drafts: nothing is shared between them
    fact_texts(first)
    fact_texts(second)
    assert len(calls) == 2


def test_arguments_are_part_of_the_key(new_inputs: Callable[[], GateInputs]) -> None:
    inputs = new_inputs()
    assert with_sources(inputs, frozenset({"rules.md"})) == ("A late charge of $25 applies.",)
    assert with_sources(inputs, frozenset({"other.md"})) == ()
    assert with_sources(inputs, frozenset({"rules.md"}), upper=True) == ("A LATE CHARGE OF $25 APPLIES.",)
    assert with_sources(inputs, frozenset({"rules.md"})) == ("A late charge of $25 applies.",)
    assert len(calls) == 3


def test_a_replaced_draft_starts_empty(new_inputs: Callable[[], GateInputs]) -> None:
    # a test (or a rule) that derives new inputs must never read what was worked out for the old ones
    inputs = new_inputs()
    fact_texts(inputs)
    changed = replace(inputs, question="When is it due?")
    assert changed.memo == {}
    fact_texts(changed)
    assert len(calls) == 2


def test_the_memo_is_no_part_of_the_inputs(new_inputs: Callable[[], GateInputs]) -> None:
    inputs, other = new_inputs(), new_inputs()
    fact_texts(inputs)
    assert inputs == other
    assert "memo" not in repr(inputs)
    with pytest.raises(TypeError):
        GateInputs(draft=inputs.draft, memo={})  # type: ignore[call-arg]


def test_a_failure_is_not_remembered(new_inputs: Callable[[], GateInputs]) -> None:
    inputs = new_inputs()
    for _ in range(2):
        with pytest.raises(ValueError):
            failing(inputs)
    assert len(calls) == 2


def test_forget_clears_what_was_remembered(new_inputs: Callable[[], GateInputs]) -> None:
    inputs = new_inputs()
    fact_texts(inputs)
    forget(inputs)
    fact_texts(inputs)
    assert len(calls) == 2


def test_nothing_outside_the_draft_keeps_it_alive(new_inputs: Callable[[], GateInputs]) -> None:
    # the hand-rolled caches this replaces held the inputs in a module-level dict; this one dies with them
    inputs = new_inputs()
    fact_texts(inputs)
    with_sources(inputs, frozenset({"rules.md"}))
    gone = weakref.ref(inputs)
    del inputs
    gc.collect()
    assert gone() is None
