"""OpenTelemetry spans from the run recorder: a run span, a child per node, a grandchild per tool call, with the
recorder's own timings, and attributes that are names, codes and flags only (never the question or a quote)."""

from __future__ import annotations

import io
import json

import pytest

pytest.importorskip("opentelemetry.sdk")

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.agent.runs.telemetry import RunTelemetry, console_provider, make_telemetry
from quotebound.agent.runs.trace import RunRecorder, RunTrace
from quotebound.graphs.names import Node

NODES = frozenset(node.value for node in Node)
SECRET_QUESTION = "what is the gate code of unit 4B"
QUOTE = "The gate code is 4471"


def drive(telemetry: RunTelemetry) -> RunTrace:
    trace = RunTrace(run_id="run-1", session_id="s", role="public", question=SECRET_QUESTION, started_at=1.0)
    recorder = RunRecorder(trace, NODES, telemetry)
    calls = [
        {"name": "quote_fetch", "args": {"pattern": QUOTE}, "ok": True, "error": None, "result": QUOTE, "ms": 2.0,
         "at": 1000.0},
        {"name": "shell", "args": {}, "ok": False, "error": "tool_not_allowed", "result": None, "ms": 0.5,
         "at": 1000.01},
    ]  # fmt: skip
    chunks = [
        ("tasks", {"id": "1", "name": "preflight", "input": {"question": SECRET_QUESTION}}),
        ("tasks", {"id": "1", "name": "preflight", "error": None, "result": {"gate": "proceed"}, "interrupts": []}),
        ("tasks", {"id": "2", "name": "draft", "input": {}}),
        ("tasks", {"id": "2", "name": "draft", "error": None, "result": {"tool_calls": calls}, "interrupts": []}),
        ("tasks", {"id": "3", "name": "verified_answer", "input": {}}),
        ("tasks", {"id": "3", "name": "verified_answer", "result": {}, "interrupts": [],
                   "error": OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "x")}),
    ]  # fmt: skip
    for mode, chunk in chunks:
        recorder.on_chunk(mode, chunk)
    return recorder.finish({"status": "error", "code": "audit_unavailable", "audit_ref": "audit://e"})


def test_node_and_tool_spans_are_children_of_the_run_span_and_carry_no_text() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace = drive(RunTelemetry(provider))
    spans = {span.name: span for span in exporter.get_finished_spans()}
    assert set(spans) == {
        "quotebound.run",
        "quotebound.node.preflight",
        "quotebound.node.draft",
        "quotebound.node.verified_answer",
        "quotebound.tool.quote_fetch",
        "quotebound.tool.shell",
    }
    run = spans["quotebound.run"]
    for name in ("preflight", "draft", "verified_answer"):
        node = spans[f"quotebound.node.{name}"]
        assert node.parent is not None and node.parent.span_id == run.context.span_id
        assert node.context.trace_id == run.context.trace_id
        assert node.attributes["quotebound.run_id"] == "run-1" and node.attributes["quotebound.node"] == name
    draft = spans["quotebound.node.draft"]
    fetch, shell = spans["quotebound.tool.quote_fetch"], spans["quotebound.tool.shell"]
    assert fetch.parent.span_id == draft.context.span_id and shell.parent.span_id == draft.context.span_id
    assert fetch.attributes["quotebound.ok"] is True and fetch.end_time - fetch.start_time == 2_000_000
    assert (
        shell.attributes["quotebound.ok"] is False and shell.attributes["quotebound.error_code"] == "tool_not_allowed"
    )
    failed = spans["quotebound.node.verified_answer"]
    assert failed.attributes["quotebound.ok"] is False
    assert failed.attributes["quotebound.error_code"] == "audit_unavailable"
    assert (
        run.attributes["quotebound.status"] == "error"
        and run.attributes["quotebound.error_code"] == "audit_unavailable"
    )
    step = trace.steps[0]  # the node span's times are the recorder's
    assert spans["quotebound.node.preflight"].start_time == int(step.started_at * 1_000_000_000)
    every = json.dumps([dict(span.attributes or {}) for span in spans.values()])
    assert SECRET_QUESTION not in every and QUOTE not in every and "4471" not in every


def test_the_console_exporter_prints_every_span() -> None:
    out = io.StringIO()
    provider = console_provider(out)
    drive(RunTelemetry(provider))
    provider.shutdown()
    printed = out.getvalue()
    assert printed.count('"name": "quotebound.node.') == 3 and '"name": "quotebound.run"' in printed
    assert SECRET_QUESTION not in printed and QUOTE not in printed


def test_telemetry_is_off_unless_configured() -> None:
    assert make_telemetry(None, Settings().telemetry) == (None, None)
    assert Settings.from_env({"QUOTEBOUND_TELEMETRY": "console"}).telemetry == "console"
    telemetry, owned = make_telemetry(None, "console")
    assert telemetry is not None and owned is not None
    owned.shutdown()
    given = TracerProvider()
    telemetry, owned = make_telemetry(given, "none")
    assert telemetry is not None and owned is None  # a provider the caller passed is the caller's to shut down
