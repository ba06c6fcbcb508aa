"""The conflicts-reported rule: two values the draft states for one slot that disagree are listed together.

The slot comes from each value's quote sentence, so facts without keys, or with keys worded apart, are held to the
rule; values of different subjects and calc results never compete.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from quotebound.agent.core.contracts import CalcDerivation, Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import conflicts_reported


def quote(value: str) -> str:
    return f"The monthly assessment is {value} per unit."


def fact(value: str, source_id: str, key: str | None = None) -> Fact:
    support = Support(source_id=source_id, locator="p.1 L3-L3", quote=quote(value))
    return Fact(text=quote(value), support=[support], key=key)


def side(value: str, source_id: str) -> ConflictValue:
    return ConflictValue(value=value, source_id=source_id, locator="p.1 L3-L3", quote=quote(value))


def test_facts_that_agree_pass(make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]) -> None:
    draft = make_draft(fact("$325.00", "a.md"), fact("$325", "b.md"), fact("$325.00", "c.md"))
    assert conflicts_reported.check(make_inputs(draft)) == []


def test_facts_without_keys_or_with_keys_worded_apart_that_disagree_are_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    for keys in ((None, None), ("monthly assessment", "dues"), ("x", "x")):
        draft = make_draft(fact("$325.00", "a.md", keys[0]), fact("$340.00", "b.md", keys[1]))
        findings = conflicts_reported.check(make_inputs(draft, question="What is the monthly assessment?"))
        assert [(f.code, f.fact_index, f.token) for f in findings] == [(FindingCode.CONFLICT_OMITTED, 1, "$340.00")]
        assert "'$325.00' (a.md p.1 L3-L3) and '$340.00' (b.md p.1 L3-L3)" in findings[0].message


def test_a_disagreement_listed_with_both_values_passes(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    listed = Conflict(key="monthly assessment", values=[side("$325.00", "a.md"), side("$340.00", "b.md")])
    draft = make_draft(fact("$325.00", "a.md"), fact("$340.00", "b.md"), conflicts=[listed])
    assert conflicts_reported.check(make_inputs(draft)) == []


def test_a_conflict_listing_only_one_side_does_not_count(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    half = Conflict(key="monthly assessment", values=[side("$325.00", "a.md"), side("$325.00", "c.md")])
    draft = make_draft(fact("$325.00", "a.md"), fact("$340.00", "b.md"), conflicts=[half])
    assert [f.code for f in conflicts_reported.check(make_inputs(draft))] == [FindingCode.CONFLICT_OMITTED]


def test_the_tolerance_comes_from_the_inputs(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    draft = make_draft(fact("$325.00", "a.md"), fact("$340.00", "b.md"))
    assert conflicts_reported.check(make_inputs(draft, tolerance_pct=5.0)) == []
    assert conflicts_reported.check(make_inputs(draft, tolerance_pct=1.0)) != []


def test_different_subjects_and_calc_facts_do_not_compete(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    deposit = "The pool key deposit is $150.00 per household."
    pool = Fact(text=deposit, support=[Support(source_id="b.md", locator="p.1 L3-L3", quote=deposit)])
    yearly = fact("$3,900", "a.md").model_copy(update={"calc": CalcDerivation(expr="325 * 12", value="3900")})
    draft = make_draft(fact("$325.00", "a.md"), pool, yearly)
    assert conflicts_reported.check(make_inputs(draft, question="What is the monthly assessment?")) == []


def test_many_long_values_under_one_key_are_checked_quickly(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """Values are compared pairwise by a banded edit distance: 50 values of 300 characters cost milliseconds."""
    facts = []
    for i in range(50):
        value = f"Name{i:02d} " + "x" * 290
        line = f"The contractor is {value}."
        support = Support(source_id=f"s{i}.md", locator="p.1 L3-L3", quote=line)
        facts.append(Fact(text=line, support=[support], key="contractor", value=value))
    inputs = make_inputs(make_draft(*facts), question="Who is the contractor?")
    start = time.perf_counter()
    conflicts_reported.check(inputs)
    assert time.perf_counter() - start < 0.5  # the unbanded distance took about a second here


def test_two_values_one_document_gives_are_its_own_slots(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """A release date and a reissue date from one page, stated in two facts: a document does not disagree with
    itself. From two documents, the same two figures for one slot do."""
    draft = make_draft(fact("$325.00", "a.md"), fact("$340.00", "a.md"))
    assert conflicts_reported.check(make_inputs(draft, question="What is the monthly assessment?")) == []
    draft = make_draft(fact("$325.00", "a.md"), fact("$340.00", "b.md"))
    assert conflicts_reported.check(make_inputs(draft, question="What is the monthly assessment?")) != []
