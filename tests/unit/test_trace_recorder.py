"""The run recorder and the trace store, fed stream chunks shaped exactly like LangGraph's (`tasks`, `updates`,
`checkpoints`): steps in order with timings, bounded summaries, tool calls with truncated results, findings,
checkpoint ids, error codes, and a store that upserts per run_id under concurrent writers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.runs.trace import MAX_RESULT, MAX_TEXT, RunRecorder, RunTrace, result_summary
from quotebound.agent.runs.trace_store import TraceStore
from quotebound.graphs.names import Node

NODES = frozenset(node.value for node in Node)
LONG = "x" * 5000


def new_trace(run_id: str = "r1") -> RunTrace:
    return RunTrace(run_id=run_id, session_id="s1", principal="key:ab12", role="public", question="q?", started_at=1.0)


def start(task_id: str, node: str, state: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    return "tasks", {"id": task_id, "name": node, "input": state or {}, "triggers": (f"branch:to:{node}",)}


def end(task_id: str, node: str, result: dict[str, Any], error: Any = None, interrupts: Any = ()) -> tuple:
    return "tasks", {"id": task_id, "name": node, "error": error, "result": result, "interrupts": list(interrupts)}


def checkpoint(checkpoint_id: str) -> tuple[str, dict[str, Any]]:
    return "checkpoints", {"config": {"configurable": {"checkpoint_id": checkpoint_id}}, "next": [], "tasks": []}


def feed(recorder: RunRecorder, chunks: list[tuple[str, Any]]) -> None:
    for mode, chunk in chunks:
        recorder.on_chunk(mode, chunk)


DRAFT_UPDATE = {
    "path": ["draft"],
    "draft": {"levels": {"level1": LONG}, "evidence": {"mode": "answer", "facts": [{}]}},
    "tool_calls": [
        {"name": "quote_fetch", "args": {"source_id": "a.md", "pattern": LONG}, "ok": True, "error": None,
         "result": result_summary({"text": LONG}), "ms": 1.5, "node": "draft", "at": 2.0},
        {"name": "shell", "args": {"cmd": "rm"}, "ok": False, "error": "tool_not_allowed", "result": None,
         "ms": 0.1, "node": "draft", "at": 2.1},
    ],
}  # fmt: skip


def test_steps_in_order_with_summaries_tool_calls_findings_and_checkpoints() -> None:
    recorder = RunRecorder(new_trace(), NODES)
    feed(
        recorder,
        [
            checkpoint("c0"),  # the input checkpoint: no step before it
            start("t1", "preflight", {"question": LONG, "context": {"unit": "4B"}}),
            end("t1", "preflight", {"gate": "proceed", "signals": ["unit"], "missing": []}),
            checkpoint("c1"),
            start("t2", "draft", {"bundles": [{}, {}]}),
            ("custom", {"node": "draft", "attempt": 1}),
            end("t2", "draft", DRAFT_UPDATE),
            checkpoint("c2"),
            start("t3", "validate"),
            end("t3", "validate", {"findings": [{"code": "quote_mismatch", "message": LONG}], "gate_report": {}}),
            checkpoint("c3"),
            ("start", "__start__ is not a node"),  # anything else is ignored
        ],
    )
    trace = recorder.finish({"status": "abstain", "reason_code": "verification_failed", "audit_ref": "audit://x"})
    assert [(s.index, s.node, s.checkpoint_id) for s in trace.steps] == [
        (1, "preflight", "c1"),
        (2, "draft", "c2"),
        (3, "validate", "c3"),
    ]
    preflight, draft, validate = trace.steps
    assert preflight.input["question"].endswith("…") and len(preflight.input["question"]) == MAX_TEXT
    assert preflight.input["context"] == ["unit"]  # reply fields, not their values
    assert preflight.output == {"gate": "proceed", "signals": ["unit"], "missing": []}
    assert draft.input == {"bundles": 2}
    assert draft.output["answer"].endswith("…") and draft.output["tool_calls"] == 2
    fetch, refused = draft.tool_calls
    assert fetch.name == "quote_fetch" and fetch.ok and fetch.ms == 1.5
    assert len(fetch.args["pattern"]) == MAX_TEXT and fetch.args["source_id"] == "a.md"
    assert fetch.result is not None and len(fetch.result) == MAX_RESULT and fetch.result.startswith('{"text":"xx')
    assert not refused.ok and refused.error == "tool_not_allowed" and refused.result is None
    assert [(f.code, f.blocking) for f in validate.findings] == [("quote_mismatch", True)]
    assert validate.findings[0].detail is not None and len(validate.findings[0].detail) == MAX_TEXT
    assert trace.status == "abstain" and trace.audit_ref == "audit://x"
    assert all(s.ms >= 0 and s.started_at > 0 for s in trace.steps)
    assert len(trace.model_dump_json()) < 8000  # bounded, whatever the run read


def test_a_failing_node_gets_its_error_code_and_no_checkpoint() -> None:
    recorder = RunRecorder(new_trace(), NODES)
    failure = OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "the ledger at /srv/secret failed")
    feed(recorder, [start("t1", "verified_answer"), end("t1", "verified_answer", {}, error=failure)])
    feed(recorder, [start("t2", "abstain"), end("t2", "abstain", {}, error=ValueError("boom"))])
    trace = recorder.finish({"status": "error", "code": "audit_unavailable", "audit_ref": "audit://e"})
    assert [(s.node, s.error, s.checkpoint_id) for s in trace.steps] == [
        ("verified_answer", "audit_unavailable", None),
        ("abstain", "internal_error", None),
    ]
    assert "/srv/secret" not in trace.model_dump_json() and "boom" not in trace.model_dump_json()
    assert trace.status == "error"


def test_an_interrupted_clarify_then_a_resumed_drive_append_to_one_trace() -> None:
    trace = new_trace()
    first = RunRecorder(trace, NODES)
    feed(first, [start("t1", "clarify"), end("t1", "clarify", {}, interrupts=[{"value": {}}])])
    paused = first.finish({"status": "clarify", "audit_ref": "audit://c"})
    assert paused.status == "clarify" and paused.steps[0].output["interrupted"] is True
    second = RunRecorder(paused, NODES)
    assert paused.status == "running"
    feed(second, [start("t1", "clarify"), end("t1", "clarify", {"context": {"unit": "4B"}}), checkpoint("c9")])
    done = second.finish({"status": "answer", "audit_ref": "audit://a"})
    assert [(s.index, s.node) for s in done.steps] == [(1, "clarify"), (2, "clarify")]
    assert done.steps[1].output == {"replies": ["unit"]} and done.steps[1].checkpoint_id == "c9"
    assert done.audit_ref == "audit://a" and done.ms >= paused.ms


def test_a_node_still_running_when_the_drive_stops_is_kept_unfinished() -> None:
    recorder = RunRecorder(new_trace(), NODES)
    feed(recorder, [start("t1", "retrieve")])
    trace = recorder.finish(None)  # the caller stopped reading the stream
    assert trace.status == "running" and [(s.node, s.error) for s in trace.steps] == [("retrieve", "internal_error")]


def test_garbage_chunks_never_raise(caplog: pytest.LogCaptureFixture) -> None:
    recorder = RunRecorder(new_trace(), NODES)
    feed(recorder, [("tasks", None), ("tasks", {"name": "draft"}), ("checkpoints", {"config": 3}), ("updates", 7)])
    assert "could not be traced" in caplog.text  # logged, not swallowed
    assert recorder.finish({"status": "answer"}).status == "answer"


class _Ref(BaseModel):
    ref: str


class _Failure(BaseModel):
    reason_code: str
    detail: str | None = None


def test_typed_records_in_the_state_are_traced_like_their_json() -> None:
    """The graph's state holds pydantic records; the trace reads them exactly as it reads their JSON."""
    steps = []
    for typed in (False, True):

        def shape(model: BaseModel, typed: bool = typed) -> Any:
            return model if typed else model.model_dump(mode="json")

        recorder = RunRecorder(new_trace(), NODES)
        failure = _Failure(reason_code="insufficient_evidence", detail="no bundle")
        feed(
            recorder,
            [
                start("t1", "resolve", {"hits": [shape(_Ref(ref="doc://a.md#p.1 L1"))], "failure": shape(failure)}),
                end("t1", "resolve", {"bundles": [shape(_Ref(ref="doc://a.md#p.1 L1-L2"))], "failure": shape(failure)}),
            ],
        )
        steps.append(recorder.finish(None).steps[0])
    as_json, as_models = steps
    assert as_models.input == as_json.input == {"hits": 1, "failure": "insufficient_evidence"}
    assert as_models.output == as_json.output
    assert as_json.output["refs"] == ["doc://a.md#p.1 L1-L2"]
    assert as_json.output["failure"] == {"reason_code": "insufficient_evidence", "detail": "no bundle"}


def test_result_summary_is_bounded_json() -> None:
    assert result_summary(None) is None
    assert result_summary({"a": [1, 2]}) == '{"a":[1,2]}'
    assert len(result_summary({"t": LONG}) or "") == MAX_RESULT


# --- the store -------------------------------------------------------------------------------------------------


def test_the_store_upserts_per_run_and_survives_reopening(tmp_path: Path) -> None:
    with TraceStore.for_store(tmp_path) as store:
        trace = new_trace()
        store.put(trace)
        trace.status = "answer"
        trace.steps = RunRecorder(new_trace(), NODES).trace.steps
        store.put(trace)
        assert store.get("r1") == trace and store.get("nope") is None
        assert [t.run_id for t in store.for_session("s1")] == ["r1"]
    with TraceStore.for_store(tmp_path) as again:
        assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with TraceStore.for_store(tmp_path, create=False) as reopened:
        stored = reopened.get("r1")
        assert stored is not None and stored.status == "answer"


def test_a_missing_store_is_an_operator_error_when_not_created(tmp_path: Path) -> None:
    with pytest.raises(OperatorError):
        TraceStore.for_store(tmp_path / "nowhere", create=False)


def test_concurrent_writers_on_one_store_lose_nothing(tmp_path: Path) -> None:
    store = TraceStore.for_store(tmp_path)
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        try:
            for n in range(20):
                store.put(new_trace(f"w{worker}-{n}"))
                assert store.get(f"w{worker}-{n}") is not None
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    count = store._db.execute("SELECT COUNT(*) FROM run_traces").fetchone()[0]
    store.close()
    assert count == 160
