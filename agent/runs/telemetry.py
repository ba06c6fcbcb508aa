"""OpenTelemetry spans for runs: one span per run, a child span per node, a grandchild per tool call.

Off unless an exporter is configured: `Agent(..., tracer_provider=provider)` (any OpenTelemetry TracerProvider,
e.g. one exporting to your collector), or `Settings.telemetry = "console"` (env `QUOTEBOUND_TELEMETRY=console`),
which makes the agent build an SDK provider printing spans to stderr. Needs `quotebound[telemetry]`
(opentelemetry-sdk); imported only when telemetry is on, so the core runs without it.

Spans carry names, codes, counts and timings only: `quotebound.run_id`, `quotebound.node`, `quotebound.tool`,
`quotebound.ok`, `quotebound.error_code`, `quotebound.status`, `quotebound.reason_code`. Never a question,
a quote, an answer, a tool argument or a source's text: spans leave the deployment, often to a third party.
Node spans are emitted as nodes finish, with the start and end times the run's recorder measured.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from typing import Any

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.runs.trace import RunTrace, TraceStep

log = logging.getLogger(__name__)
TRACER_NAME = "quotebound"


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


def console_provider(stream: Any = None) -> Any:
    """An SDK TracerProvider exporting every span to `stream` (stderr by default) as it ends."""
    try:  # optional (quotebound[telemetry]): imported only when telemetry is on
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter, SimpleSpanProcessor
    except ImportError as exc:
        raise OperatorError(
            ErrorCode.MISCONFIGURED, "telemetry=console needs opentelemetry-sdk: pip install 'quotebound[telemetry]'"
        ) from exc
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(ConsoleSpanExporter(out=stream or sys.stderr)))
    return provider


class RunTelemetry:
    """Spans for the runs of one Agent. Every method swallows (and logs) its own failures: telemetry never
    breaks a run."""

    def __init__(self, tracer_provider: Any) -> None:
        from opentelemetry import trace as trace_api  # optional (quotebound[telemetry]): only when telemetry is on

        self._api = trace_api
        self.tracer = tracer_provider.get_tracer(TRACER_NAME)
        self._runs: dict[int, Any] = {}  # id(trace) -> its open run span

    def run_started(self, trace: RunTrace) -> None:
        try:
            span = self.tracer.start_span("quotebound.run", attributes={"quotebound.run_id": trace.run_id})
            self._runs[id(trace)] = span
        except Exception:
            log.error("telemetry: the run span of %s could not start", trace.run_id, exc_info=True)

    def step(self, trace: RunTrace, step: TraceStep, update: Mapping[str, Any]) -> None:
        try:
            parent = self._runs.get(id(trace))
            context = self._api.set_span_in_context(parent) if parent is not None else None
            failure = update.get("failure") if isinstance(update.get("failure"), Mapping) else None
            attributes: dict[str, Any] = {
                "quotebound.run_id": trace.run_id,
                "quotebound.node": step.node,
                "quotebound.ok": step.error is None and failure is None,
            }
            if step.error:
                attributes["quotebound.error_code"] = step.error
            if failure is not None and failure.get("reason_code"):
                attributes["quotebound.reason_code"] = str(failure["reason_code"])
            envelope = update.get("envelope")
            if isinstance(envelope, Mapping) and envelope.get("status"):
                attributes["quotebound.status"] = str(envelope["status"])
            start = step.started_at
            span = self.tracer.start_span(
                f"quotebound.node.{step.node}", context=context, start_time=_ns(start), attributes=attributes
            )
            if step.error:
                span.set_status(self._api.Status(self._api.StatusCode.ERROR, step.error))
            tool_context = self._api.set_span_in_context(span)
            raw_calls = [c for c in update.get("tool_calls") or [] if isinstance(c, Mapping)]
            for call, raw in zip(step.tool_calls, raw_calls, strict=False):
                at = raw.get("at")
                begin = float(at) if isinstance(at, int | float) and at > 0 else start
                tool_attributes: dict[str, Any] = {
                    "quotebound.run_id": trace.run_id,
                    "quotebound.node": step.node,
                    "quotebound.tool": call.name,
                    "quotebound.ok": call.ok,
                }
                if call.error:
                    tool_attributes["quotebound.error_code"] = call.error
                tool_span = self.tracer.start_span(
                    f"quotebound.tool.{call.name}",
                    context=tool_context,
                    start_time=_ns(begin),
                    attributes=tool_attributes,
                )
                tool_span.end(end_time=_ns(begin + (call.ms or 0.0) / 1000))
            span.end(end_time=_ns(start + step.ms / 1000))
        except Exception:
            log.error("telemetry: the span of %s in run %s was lost", step.node, trace.run_id, exc_info=True)

    def run_finished(self, trace: RunTrace) -> None:
        try:
            span = self._runs.pop(id(trace), None)
            if span is None:
                return
            span.set_attribute("quotebound.status", trace.status)
            envelope = trace.envelope or {}
            if envelope.get("reason_code"):
                span.set_attribute("quotebound.reason_code", str(envelope["reason_code"]))
            if envelope.get("code"):
                span.set_attribute("quotebound.error_code", str(envelope["code"]))
                span.set_status(self._api.Status(self._api.StatusCode.ERROR, str(envelope["code"])))
            span.end()
        except Exception:
            log.error("telemetry: the run span of %s could not end", trace.run_id, exc_info=True)


def make_telemetry(tracer_provider: Any, mode: str) -> tuple[RunTelemetry | None, Any]:
    """The agent's telemetry and the provider it owns (to shut down on close): none unless a provider is given
    or `mode` is "console"."""
    owned = None
    if tracer_provider is None and mode == "console":
        tracer_provider = owned = console_provider()
    if tracer_provider is None:
        return None, None
    return RunTelemetry(tracer_provider), owned
