"""The gate as guardrails-ai validators: same verdicts as `validate_draft`, telemetry off, a user's Guard as a stage.

guardrails-ai is imported inside a fixture (it takes seconds), so collecting this file stays cheap.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from quotebound.agent.core.contracts import AnswerLevels, AnswerObject, Draft, EvidenceBundle, Fact, Support
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.gate import FindingCode, validate_draft
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import IngestReport
from quotebound.tools.policy import Caller
from quotebound.tools.resolve_evidence import resolve_evidence

pytestmark = pytest.mark.slow  # importing guardrails-ai alone takes 3-7 s

BUDGET = "# Budget 2025\n\nThe monthly assessment is $325.00 per unit.\nReserve contribution: $48,000.\n"
NOTICE = "# Notice\n\nThe monthly assessment is $340.00 per unit.\n"
SECRET = "# Gate codes\n\nThe north gate code is 4471.\n"
ASSESSMENT = "The monthly assessment is $325.00 per unit."
LEASE = "What is the minimum lease term?"


@pytest.fixture(scope="module")
def gr() -> ModuleType:
    return importlib.import_module("quotebound.agent.gate.guardrails")


@pytest.fixture
def ctx(make_files, ingest: Callable[..., IngestReport], corpus: Corpus) -> ToolContext:
    root = make_files(
        {"budget.md": BUDGET, "notice.md": NOTICE, "gate.md": SECRET, "gate.md.meta.yaml": "policy_label: restricted\n"}
    )
    assert ingest(root).ok
    return ToolContext(corpus, caller=Caller(role="public"))


@pytest.fixture
def bundles(ctx: ToolContext) -> list[EvidenceBundle]:
    return [resolve_evidence(ctx, "doc://budget.md#p.1 L1-L4")]


def draft(level1: str, source_id: str = "budget.md", locator: str = "p.1 L3", quote: str = ASSESSMENT) -> Draft:
    fact = Fact(text=quote, support=[Support(source_id=source_id, locator=locator, quote=quote)])
    return Draft(
        levels=AnswerLevels(level1=level1, level2="As quoted.", level3=f"Citations: {source_id} {locator}"),
        evidence=AnswerObject(mode="answer", facts=[fact]),
    )


HOSTILE = {
    "fabricated quote": (draft(ASSESSMENT, quote="The monthly assessment is $300.00."), "CitationsVerified"),
    "fake locator": (draft(ASSESSMENT, locator="p.1 L3-L99"), "CitationsVerified"),
    "restricted source": (
        draft("The code is 4471.", "gate.md", quote="The north gate code is 4471."),
        "CitationsVerified",
    ),
    "invented number": (draft("The monthly assessment is $352.00 per unit."), "SpanAligned"),
}


def test_a_good_draft_passes_every_validator(gr: ModuleType, ctx: ToolContext, bundles: list[EvidenceBundle]) -> None:
    good = draft(ASSESSMENT)
    assert validate_draft(good, bundles=bundles, ctx=ctx).ok
    guard = gr.gate_guard(ctx=ctx, bundles=bundles)
    outcome = gr.guard_validate(guard, good.model_dump_json())
    assert outcome.validation_passed, outcome.validation_summaries
    assert gr.QuoteboundGate(ctx=ctx, bundles=bundles).validate(good, {}).outcome == "pass"


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_drafts_fail_the_same_rule(
    gr: ModuleType, ctx: ToolContext, bundles: list[EvidenceBundle], name: str
) -> None:
    bad, rule = HOSTILE[name]
    report = validate_draft(bad, bundles=bundles, ctx=ctx)
    assert not report.ok
    result = getattr(gr, rule)(ctx=ctx, bundles=bundles).validate(bad.model_dump_json(), {})
    assert result.outcome == "fail"
    failed = {f["code"] for f in result.metadata["findings"]}
    assert failed <= {f.code.value for f in report.findings if f.blocking}
    outcome = gr.guard_validate(gr.gate_guard(ctx=ctx, bundles=bundles), bad.model_dump_json())
    assert not outcome.validation_passed
    assert rule in {s.validator_name for s in outcome.validation_summaries or []}


def test_gate_inputs_can_come_from_metadata(gr: ModuleType, ctx: ToolContext) -> None:
    both = [resolve_evidence(ctx, "doc://budget.md#p.1 L1-L4"), resolve_evidence(ctx, "doc://notice.md#p.1 L1-L3")]
    keyed = draft(ASSESSMENT).model_copy(deep=True)
    keyed.evidence.facts[0].key = "monthly assessment"
    validator = gr.ConflictsReported()
    result = validator.validate(keyed, {"ctx": ctx, "bundles": both})
    assert result.outcome == "fail" and "$340.00" in result.error_message
    assert gr.ClarifyEnforced().validate(keyed, {"ctx": ctx, "gate": "clarify"}).outcome == "fail"
    assert gr.ClarifyEnforced().validate(keyed, {"ctx": ctx}).outcome == "pass"
    assert gr.QuoteboundGate().validate("{not json", {"ctx": ctx}).outcome == "fail"


def test_a_user_guard_runs_as_an_extra_stage_with_metrics_off(gr: ModuleType, ctx: ToolContext) -> None:
    from guardrails import Guard
    from guardrails.utils.hub_telemetry_utils import HubTelemetry

    user = Guard().use(gr.SpanAligned(ctx=ctx, on_fail="noop"))  # a fresh Guard turns hub metrics on by default
    assert gr.run_user_guard(user, draft(ASSESSMENT)) == []
    assert HubTelemetry()._enabled is False and user._allow_metrics_collection is False
    findings = gr.run_user_guard(user, draft("It is $352.00."))
    assert [f.code for f in findings] == [FindingCode.USER_GUARD] and "$352.00" in findings[0].message
    raising = Guard().use(gr.SpanAligned(ctx=ctx, on_fail="exception"))
    assert [f.code for f in gr.run_user_guard(raising, draft("It is $352.00."))] == [FindingCode.USER_GUARD]
    with pytest.raises(TypeError):
        gr.run_user_guard(object(), draft(ASSESSMENT))


def test_a_guard_leaves_no_event_loop_behind(gr: ModuleType, ctx: ToolContext, bundles: list[EvidenceBundle]) -> None:
    """guardrails makes an event loop where the thread has none and never closes it (its sockets then warn when
    collected, in whatever test runs next); through `guard_validate` nothing is left set or open."""
    asyncio.run(asyncio.sleep(0))  # as after any asyncio.run: this thread has no current loop
    outcome = gr.guard_validate(gr.gate_guard(ctx=ctx, bundles=bundles), draft(ASSESSMENT).model_dump_json())
    assert outcome.validation_passed
    with pytest.raises(RuntimeError, match="no current event loop"):
        asyncio.get_event_loop_policy().get_event_loop()


def test_a_user_guard_runs_under_a_running_event_loop(gr: ModuleType, ctx: ToolContext) -> None:
    """Called from async code (a chat app's handler), guardrails alone finds a running loop, warns and falls back;
    the gate's stage runs it on its own thread and gets the same verdicts."""
    from guardrails import Guard

    user = Guard().use(gr.SpanAligned(ctx=ctx, on_fail="noop"))

    async def both() -> tuple[list[Any], list[Any]]:
        return gr.run_user_guard(user, draft(ASSESSMENT)), gr.run_user_guard(user, draft("It is $352.00."))

    good, bad = asyncio.run(both())
    assert good == [] and [f.code for f in bad] == [FindingCode.USER_GUARD]


def test_an_agents_user_guard_is_a_stage_of_the_gate(gr: ModuleType, store_dir: Path) -> None:
    """Through the graph: a Guard that passes leaves the verified answer alone; one that rejects every draft keeps
    the run from answering, and its finding is on the validate step of the trace."""
    from guardrails import Guard
    from guardrails.validator_base import FailResult, PassResult, Validator, register_validator

    @register_validator(name="quotebound-test/house-style", data_type="string")
    class HouseStyle(Validator):
        def __init__(self, allow: bool, on_fail: str = "noop") -> None:
            super().__init__(on_fail=on_fail, allow=allow)
            self.allow = allow

        def _validate(self, value: Any, metadata: dict[str, Any]) -> Any:
            return PassResult() if self.allow else FailResult(error_message="the house style forbids this answer")

    settings = Settings(store=store_dir, embedder="hashing")
    with Agent(settings, user_guard=Guard().use(HouseStyle(allow=True))) as agent:
        assert agent.ask(LEASE).status == "answer"
    with Agent(settings, user_guard=Guard().use(HouseStyle(allow=False))) as agent:
        envelope = agent.ask(LEASE)
        trace = agent.trace(envelope.meta.run_id)
    assert envelope.status == "abstain" and envelope.reason_code == "verification_failed"
    assert trace is not None
    findings = [finding for step in trace.steps if step.node == "validate" for finding in step.findings]
    assert findings and {finding.code for finding in findings} == {"user_guard"}
    assert all("house style" in (finding.detail or "") for finding in findings)
