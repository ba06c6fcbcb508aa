"""The answer terminal trusts nothing it did not check: it ships a draft only if the gate's report in the state
vouches for that exact draft; anything else is a `verification_failed` abstention, with its receipt."""

from __future__ import annotations

from pathlib import Path

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import AbstainEnvelope, AnswerEnvelope, ReasonCode
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.graphs import RunState
from quotebound.graphs.context import RunContext
from quotebound.graphs.terminals import verified_answer

ASSESSMENT = "What is the monthly regular assessment per unit for 2025?"


def _final_state(agent: Agent) -> RunState:
    envelope = agent.ask(ASSESSMENT)
    assert isinstance(envelope, AnswerEnvelope)
    trace = agent.trace(envelope.meta.run_id)
    assert trace is not None
    state: RunState = agent.graph.get_state(agent._config(trace.session_id)).values
    return state


def _refused(agent: Agent, runtime: Runtime[RunContext], state: RunState) -> AbstainEnvelope:
    update = verified_answer(state, runtime)
    envelope = update.get("envelope")
    assert isinstance(envelope, AbstainEnvelope) and envelope.reason_code is ReasonCode.VERIFICATION_FAILED
    assert envelope.evidence is None and envelope.answer.level1 == "Insufficient evidence"  # nothing of the draft
    assert agent.ledger.get(envelope.audit_ref) is not None  # its receipt, like every end of a run
    assert update.get("path") == ["verified_answer"]
    return envelope


def test_the_answer_terminal_ships_only_the_draft_the_gate_passed(store_dir: Path) -> None:
    with Agent(Settings(store=store_dir, embedder="hashing"), model="extractive") as agent:
        state = _final_state(agent)
        runtime = Runtime(context=agent.context)
        draft, report = state.get("draft"), state.get("gate_report")
        assert draft is not None and report is not None and report.passed(draft)
        shipped = verified_answer(state, runtime).get("envelope")
        assert isinstance(shipped, AnswerEnvelope) and shipped.answer == draft.levels

        edited = draft.model_copy(deep=True)  # the same draft, changed after the gate checked it
        edited.levels.level1 = "The monthly regular assessment is $999.00."
        _refused(agent, runtime, {**state, "draft": edited})
        _refused(agent, runtime, {**state, "gate_report": report.model_copy(update={"ok": False})})
        _refused(agent, runtime, {**state, "gate_report": None})
