"""Every run is traced, whichever driver ran it: the steps of an answered run (preflight to its terminal) with the
validator's findings and the tool calls' arguments; a clarify pause and its resume in one trace; a failing node's
error code; a trace store that breaks losing neither the answer nor its receipt; concurrent async sessions; the
`pending` probe; replay from a checkpoint (and with another model); and OpenTelemetry spans of a real run."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.audit import ledger_path
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerLevels,
    AnswerObject,
    AskRequest,
    ClarifyEnvelope,
    Draft,
    ErrorEnvelope,
    Fact,
    ResumeRequest,
    Support,
)
from quotebound.agent.core.errors import CallerError, ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.agent.runs.events import EnvelopeEvent, NodeEvent
from quotebound.testing import FaultyModel, answer_message, scripted_model
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

LEASE = "What is the minimum lease term for renting out a unit?"
SQFT = "What's the square footage of my unit?"
TERMINAL_PATH = ["preflight", "retrieve", "resolve", "draft", "validate", "verified_answer"]


def open_agent(store_dir: Path, **kwargs: Any) -> Agent:
    return Agent(Settings(store=store_dir, embedder="hashing"), **kwargs)


def test_an_answered_run_is_traced_step_by_step(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        envelope = agent.ask(LEASE, principal="key:ab12cd34")
        assert isinstance(envelope, AnswerEnvelope)
        trace = agent.trace(envelope.meta.run_id)
        receipt = agent.ledger.get(envelope.audit_ref)
    assert trace is not None and receipt is not None
    assert [step.node for step in trace.steps] == TERMINAL_PATH == receipt["body"]["path"]
    assert [step.index for step in trace.steps] == list(range(1, 7))
    assert trace.status == "answer" and trace.audit_ref == envelope.audit_ref
    assert trace.principal == "key:ab12cd34" and trace.question == LEASE and trace.role == "public"
    assert trace.envelope == envelope.model_dump(mode="json")
    assert all(step.checkpoint_id and step.error is None for step in trace.steps)
    assert len({step.checkpoint_id for step in trace.steps}) == 6
    starts = [step.started_at for step in trace.steps]
    assert starts == sorted(starts) and trace.ms >= sum(step.ms for step in trace.steps) * 0.5
    draft = trace.steps[3]
    assert draft.tool_calls, "the extractive model reads through its tools"
    first = draft.tool_calls[0]
    assert first.name == "search_source" and first.args["source_id"] and first.ok and first.result
    assert first.result.startswith(("[", "{"))  # the result's JSON text (truncated), not the old "ok"
    assert draft.output["answer"] == envelope.answer.level1
    assert trace.steps[4].output == {"ok": True, "findings": 0} and trace.steps[4].findings == []
    assert trace.steps[5].output["citations"] == len(envelope.citations)
    # the receipt still keeps no tool result (nor any text): only hashes of the arguments
    assert all(
        set(call) == {"name", "node", "ok", "error", "args_sha256", "ms"} for call in receipt["body"]["tool_calls"]
    )
    assert "twelve" not in json.dumps(receipt["body"]["tool_calls"])


def forged_draft() -> Draft:
    """An answer quoting a sentence the source does not contain: the gate must refuse it."""
    level1 = "The minimum lease term is six (6) months."
    support = Support(source_id="declaration.md", locator="p.1 L51-L51", quote=level1)
    return Draft(
        levels=AnswerLevels(level1=level1, level2="See declaration.md.", level3="Citations: declaration.md"),
        evidence=AnswerObject(mode="answer", answer=level1, facts=[Fact(text=level1, support=[support])]),
    )


def test_validator_findings_are_on_the_validate_step(store_dir: Path) -> None:
    model = scripted_model([answer_message(forged_draft())] * 6)
    with open_agent(store_dir, model=model) as agent:
        envelope = agent.ask(LEASE)
        trace = agent.trace(envelope.meta.run_id)
    assert isinstance(envelope, AbstainEnvelope)
    assert trace is not None
    validates = [step for step in trace.steps if step.node == "validate"]
    assert validates and all(step.findings for step in validates)
    assert len(validates) == 3 and [s.node for s in trace.steps].count("repair") == 2  # n_repairs = 2
    assert "quote_not_verbatim" in {finding.code for step in validates for finding in step.findings}
    assert all(finding.blocking for finding in validates[0].findings if finding.code == "quote_not_verbatim")
    assert all(step.output["ok"] is False for step in validates)
    assert trace.steps[-1].node == "abstain" and trace.status == "abstain"


def test_a_clarify_pause_and_its_resume_are_one_trace(store_dir: Path) -> None:
    session = uuid.uuid4().hex
    with open_agent(store_dir) as agent:
        assert not agent.pending(session)
        paused = agent.ask(AskRequest(question=SQFT, session_id=session), principal="key:1")
        assert isinstance(paused, ClarifyEnvelope) and agent.pending(session)
        first = agent.trace(paused.meta.run_id)
        done = agent.resume(ResumeRequest(session_id=session, replies={"unit": "4B"}), principal="key:1")
        assert not agent.pending(session)
        trace = agent.trace(done.meta.run_id)
    assert first is not None and first.status == "clarify" and first.audit_ref == paused.audit_ref
    assert [s.node for s in first.steps] == ["preflight", "clarify"] and first.steps[1].output["interrupted"]
    assert trace is not None and done.meta.run_id == paused.meta.run_id
    assert trace.status == done.status and trace.audit_ref == done.audit_ref
    nodes = [s.node for s in trace.steps]
    assert nodes[:4] == ["preflight", "clarify", "clarify", "preflight"], nodes
    assert trace.steps[2].output["replies"] == ["unit"]
    assert [s.index for s in trace.steps] == list(range(1, len(nodes) + 1))
    assert trace.steps[:2] == first.steps  # appended, the first drive's steps kept as they were


def test_async_and_streamed_drivers_trace_too(store_dir: Path) -> None:
    async def run(agent: Agent) -> list[Any]:
        asked = await agent.aask(LEASE)
        events = [event async for event in agent.astream(LEASE)]
        session = uuid.uuid4().hex
        paused = await agent.aask(AskRequest(question=SQFT, session_id=session))
        assert await agent.apending(session)
        resumed = [
            event async for event in agent.astream_resume(ResumeRequest(session_id=session, replies={"unit": "4B"}))
        ]
        return [asked, events[-1].envelope, paused, resumed[-1].envelope]

    with open_agent(store_dir) as agent:
        asked, streamed, paused, resumed = asyncio.run(run(agent))
        synced = [event for event in agent.stream(LEASE)][-1].envelope
        traces = [agent.trace(envelope.meta.run_id) for envelope in (asked, streamed, synced, resumed)]
    for envelope, trace in zip((asked, streamed, synced, resumed), traces, strict=True):
        assert trace is not None and trace.status == envelope.status and trace.audit_ref == envelope.audit_ref
        assert trace.steps[-1].node in ("verified_answer", "abstain")
    assert traces[3] is not None and traces[3].run_id == paused.meta.run_id


def test_fifty_concurrent_sessions_each_get_their_own_trace(store_dir: Path) -> None:
    async def run(agent: Agent) -> list[Any]:
        return await asyncio.gather(*(agent.aask(LEASE, principal=f"key:{n}") for n in range(50)))

    with open_agent(store_dir) as agent:
        envelopes = asyncio.run(run(agent))
        traces = [agent.trace(envelope.meta.run_id) for envelope in envelopes]
    assert len({envelope.meta.run_id for envelope in envelopes}) == 50
    for n, (envelope, trace) in enumerate(zip(envelopes, traces, strict=True)):
        assert trace is not None and trace.principal == f"key:{n}" and trace.audit_ref == envelope.audit_ref
        assert [step.node for step in trace.steps] == TERMINAL_PATH


class FlakyLedger(SqliteLedger):
    def append(self, audit_ref: str, run_id: str, body: Any) -> Any:
        raise OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the ledger is down")


def test_a_failing_node_carries_its_error_code(store_dir: Path) -> None:
    ledger = FlakyLedger(ledger_path(Settings(store=store_dir)))
    with open_agent(store_dir, ledger=ledger) as agent:
        envelope = agent.ask(LEASE)
        trace = agent.trace(envelope.meta.run_id)
    assert isinstance(envelope, ErrorEnvelope) and envelope.code is ErrorCode.AUDIT_UNAVAILABLE
    assert trace is not None and trace.status == "error" and trace.envelope == envelope.model_dump(mode="json")
    last = trace.steps[-1]
    assert last.node == "verified_answer" and last.error == "audit_unavailable" and last.checkpoint_id is None
    assert all(step.error is None for step in trace.steps[:-1])


def test_a_trace_store_that_fails_loses_neither_answer_nor_receipt(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with open_agent(store_dir) as agent:
        assert agent.traces is not None
        agent.traces._db.close()  # every trace write now fails
        with caplog.at_level(logging.ERROR):
            envelope = agent.ask(LEASE)
            streamed = [event for event in agent.stream(LEASE)][-1]
        assert isinstance(envelope, AnswerEnvelope) and agent.ledger.get(envelope.audit_ref) is not None
        assert isinstance(streamed, EnvelopeEvent) and streamed.envelope.status == "answer"
    failures = [r for r in caplog.records if r.levelno == logging.ERROR and "could not be written" in r.getMessage()]
    assert len(failures) == 2 and envelope.meta.run_id in failures[0].getMessage()


def test_an_unreadable_trace_store_still_answers(store_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    (store_dir / "traces.sqlite").mkdir()  # a folder where the database should be
    with caplog.at_level(logging.ERROR), open_agent(store_dir) as agent:
        envelope = agent.ask(LEASE)
        assert agent.traces is None and agent.trace(envelope.meta.run_id) is None
    assert isinstance(envelope, AnswerEnvelope)
    assert "runs are not traced" in caplog.text


# --- replay --------------------------------------------------------------------------------------------------


def _thread_checkpoints(store_dir: Path, thread: str) -> int:
    with sqlite3.connect(store_dir / "checkpoints.sqlite") as db:
        count = db.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread,)).fetchone()[0]
    db.close()
    return int(count)


def test_replay_from_draft_reruns_in_a_new_thread_with_its_own_receipt(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        original = agent.ask(AskRequest(question=LEASE, session_id="user-session"))
        before = _thread_checkpoints(store_dir, "user-session")
        outcome = agent.replay(original.meta.run_id, "draft")
        replayed = agent.trace(outcome.run_id)
        receipt = agent.ledger.get(outcome.envelope.audit_ref)
        default = agent.replay(original.meta.run_id)
        with pytest.raises(CallerError, match="never ran 'repair'"):
            agent.replay(original.meta.run_id, "repair")
        with pytest.raises(CallerError, match="no trace"):
            agent.replay("no-such-run")
    assert _thread_checkpoints(store_dir, "user-session") == before  # the user's session is untouched
    assert outcome.run_id != original.meta.run_id and outcome.envelope.meta.run_id == outcome.run_id
    assert outcome.session_id != "user-session" and outcome.from_node == "draft"
    assert isinstance(outcome.envelope, AnswerEnvelope) and outcome.changes["changed"] is False
    assert replayed is not None and [s.node for s in replayed.steps] == ["draft", "validate", "verified_answer"]
    assert receipt is not None and receipt["body"]["run_id"] == outcome.run_id
    assert (
        default.from_node == "preflight" and [s.node for s in agent_steps(store_dir, default.run_id)] == TERMINAL_PATH
    )


def agent_steps(store_dir: Path, run_id: str) -> list[Any]:
    from quotebound.agent.runs.trace_store import TraceStore

    with TraceStore.for_store(store_dir) as traces:
        trace = traces.get(run_id)
    assert trace is not None
    return trace.steps


def test_replay_with_another_model_says_what_changed(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        original = agent.ask(LEASE)
    broken = FaultyModel(ExtractiveModel(), fault="raise")
    with open_agent(store_dir, model=broken) as other:
        outcome = other.replay(original.meta.run_id, "draft")
    assert isinstance(outcome.envelope, AbstainEnvelope) and outcome.envelope.reason_code == "model_error"
    changes = outcome.changes
    assert changes["changed"] is True
    assert changes["status"] == {"before": "answer", "after": "abstain"}
    assert changes["reason_code"] == {"before": None, "after": "model_error"}
    assert changes["citations"]["removed"] == [c.ref for c in original.citations] and not changes["citations"]["added"]
    assert changes["answer"]["before"]["level1"] == original.answer.level1


# --- OpenTelemetry -----------------------------------------------------------------------------------------------


def test_a_real_run_emits_node_and_tool_spans(store_dir: Path) -> None:
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    with open_agent(store_dir, tracer_provider=provider) as agent:
        envelope = agent.ask(LEASE)
    spans = exporter.get_finished_spans()
    runs = [s for s in spans if s.name == "quotebound.run"]
    nodes = [s for s in spans if s.name.startswith("quotebound.node.")]
    tools = [s for s in spans if s.name.startswith("quotebound.tool.")]
    assert len(runs) == 1 and runs[0].attributes["quotebound.status"] == "answer"
    assert [s.attributes["quotebound.node"] for s in sorted(nodes, key=lambda s: s.start_time)] == TERMINAL_PATH
    assert all(s.parent is not None and s.parent.span_id == runs[0].context.span_id for s in nodes)
    draft = next(s for s in nodes if s.attributes["quotebound.node"] == "draft")
    assert tools and all(s.parent is not None and s.parent.span_id == draft.context.span_id for s in tools)
    assert all(s.attributes["quotebound.run_id"] == envelope.meta.run_id for s in spans)
    text = json.dumps([dict(s.attributes or {}) for s in spans])
    assert "lease" not in text.lower() and "twelve" not in text  # no question, no quote, no answer


def test_console_telemetry_from_settings(store_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("opentelemetry.sdk")
    with Agent(Settings(store=store_dir, embedder="hashing", telemetry="console")) as agent:
        agent.ask(LEASE)
    captured = capsys.readouterr()
    assert captured.out == ""  # stdout stays the CLI's (e.g. `ask --json`)
    assert captured.err.count('"name": "quotebound.node.') == 6 and '"name": "quotebound.run"' in captured.err


def test_replay_works_on_any_checkpointer(store_dir: Path) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    with open_agent(store_dir, checkpointer=InMemorySaver()) as agent:
        original = agent.ask(LEASE)
        outcome = agent.replay(original.meta.run_id, "validate")
        trace = agent.trace(outcome.run_id)
    assert outcome.envelope.status == "answer" and outcome.changes["changed"] is False
    assert trace is not None and [s.node for s in trace.steps] == ["validate", "verified_answer"]


# --- no terminal without a fresh gate pass ------------------------------------------------------------------------


def test_replay_refuses_to_start_at_a_terminal_and_resets_the_runs_own_record(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        answered = agent.ask(LEASE)
        abstained = agent.ask("What is the airspeed velocity of an unladen swallow?")
        assert isinstance(answered, AnswerEnvelope) and isinstance(abstained, AbstainEnvelope)
        before = agent.ledger.verify().count
        for run_id, terminal in ((answered.meta.run_id, "verified_answer"), (abstained.meta.run_id, "abstain")):
            with pytest.raises(CallerError, match=f"cannot start at the terminal '{terminal}'") as raised:
                agent.replay(run_id, terminal)
            assert raised.value.code is ErrorCode.BAD_REQUEST
        assert agent.ledger.verify().count == before  # nothing ran, nothing was recorded
        outcome = agent.replay(answered.meta.run_id, "validate")
        receipt = agent.ledger.get(outcome.envelope.audit_ref)
    assert isinstance(outcome.envelope, AnswerEnvelope)
    assert receipt is not None and receipt["body"]["path"] == ["validate", "verified_answer"]
    assert receipt["body"]["tool_calls"] == []  # the original's draft made them


def _change_line_51(store_dir: Path, how: str) -> None:
    """What a concurrent ingest does to the store under a running answer, in one statement."""
    with sqlite3.connect(store_dir / "index.sqlite") as db:
        if how == "edited":
            db.execute(
                "UPDATE lines SET text = replace(text, 'twelve (12)', 'six (6)') WHERE source_id = 'declaration.md'"
            )
        else:
            db.execute("UPDATE sources SET current = 0 WHERE source_id = 'declaration.md'")
    db.close()


@pytest.mark.parametrize("how", ["edited", "retired"])
def test_a_citation_that_changed_after_the_gate_ships_nothing(store_dir: Path, how: str) -> None:
    """The source changes between `validate` and `verified_answer` (the stream pauses between the two): the terminal
    must not cite text the gate never checked, nor drop the citation and ship the answer without it."""
    with open_agent(store_dir) as agent:
        events = []
        for event in agent.stream(LEASE):
            events.append(event)
            if isinstance(event, NodeEvent) and event.node == "validate":  # the gate passed; the terminal waits
                _change_line_51(store_dir, how)
        envelope = events[-1].envelope if isinstance(events[-1], EnvelopeEvent) else None
        assert envelope is not None
        receipt = agent.ledger.get(envelope.audit_ref)
    assert isinstance(envelope, AbstainEnvelope) and envelope.reason_code == "verification_failed"
    assert "twelve" not in envelope.model_dump_json() and envelope.evidence is None
    assert receipt is not None
    body = receipt["body"]
    assert body["status"] == "abstain" and body["failure_detail"] == "citation_changed_after_gate"
    assert body["path"][-2:] == ["validate", "verified_answer"] and body["gate"]["passed"] is True
    assert body["citations"] == []


def true_draft() -> Draft:
    level1 = "The minimum lease term is twelve (12) months."
    support = Support(source_id="declaration.md", locator="p.1 L51-L51", quote=level1)
    return Draft(
        levels=AnswerLevels(level1=level1, level2="See declaration.md.", level3="Citations: declaration.md"),
        evidence=AnswerObject(mode="answer", answer=level1, facts=[Fact(text=level1, support=[support])]),
    )


def reingest_declaration(store_dir: Path, tmp_path: Path, edit: Callable[[str], str]) -> None:
    """A changed declaration.md ingested as a new version, as the operator's next ingest would."""
    examples = Path(__file__).resolve().parents[2] / "examples" / "hoa"
    folder = tmp_path / f"docs-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    shutil.copy(examples / "declaration.md.meta.yaml", folder)
    (folder / "declaration.md").write_text(edit((examples / "declaration.md").read_text(encoding="utf-8")), "utf-8")
    with Store(Settings(store=store_dir, embedder="hashing")) as store:
        assert Ingestor(store).ingest([folder]).updated == ["declaration.md"]


def test_replay_from_repair_passes_the_gate_again(store_dir: Path, tmp_path: Path) -> None:
    """A node after `validate` that is not a terminal (repair) leads through `validate` again: a repaired draft
    that held when it was first checked is refused once its line changed."""
    model = scripted_model([answer_message(forged_draft()), answer_message(true_draft())])
    with open_agent(store_dir, model=model) as agent:
        original = agent.ask(LEASE)
    assert isinstance(original, AnswerEnvelope)
    with open_agent(store_dir, model=scripted_model([answer_message(true_draft())])) as agent:
        again = agent.replay(original.meta.run_id, "repair")
        receipt = agent.ledger.get(again.envelope.audit_ref)
    assert isinstance(again.envelope, AnswerEnvelope)
    assert receipt is not None and receipt["body"]["path"] == ["repair", "validate", "verified_answer"]
    reingest_declaration(store_dir, tmp_path, lambda text: text.replace("twelve (12) months", "six (6) months"))
    with open_agent(store_dir, model=scripted_model([answer_message(true_draft())] * 3)) as agent:
        changed = agent.replay(original.meta.run_id, "repair")
        receipt = agent.ledger.get(changed.envelope.audit_ref)
    assert isinstance(changed.envelope, AbstainEnvelope) and changed.envelope.reason_code == "verification_failed"
    assert "twelve" not in changed.envelope.model_dump_json()
    assert receipt is not None and receipt["body"]["path"][:2] == ["repair", "validate"]
    assert receipt["body"]["gate"]["passed"] is False and "verified_answer" not in receipt["body"]["path"]
