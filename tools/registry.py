"""The allowlist: exactly four tools, each with a pydantic argument schema, enforced outside the model.

`ToolRegistry.invoke` is the only way a model's tool call reaches a tool. An unknown name, arguments that fail
validation, or a tool's own refusal become a typed, readable result (`ok: false`, `error`, `message`) that is
recorded and handed back to the model; nothing a model sends can crash a run. Operator faults (store down)
are recorded and still raise: the graph turns them into an abstention. A tool that raises anything else (a bug,
a broken dependency) becomes a recorded `tool_failed` result: the model reads that the tool failed, never the
exception's text (which goes to the operator's log), and the graph ends the run (`faults`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Self

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from quotebound.agent.core.errors import CallerError, ErrorCode, ModelError, OperatorError
from quotebound.tools.calc import calc
from quotebound.tools.context import ToolContext
from quotebound.tools.quote_fetch import quote_fetch
from quotebound.tools.resolve_evidence import resolve_evidence
from quotebound.tools.search_source import search_source

log = logging.getLogger(__name__)
# Errors that mean the deployment, not the model's request, is broken: a run that met one must not answer.
FAULT_CODES: frozenset[str] = frozenset(
    {ErrorCode.TOOL_FAILED, ErrorCode.STORE_UNAVAILABLE, ErrorCode.RETRIEVAL_UNAVAILABLE, ErrorCode.MISCONFIGURED}
)


class RegistryClosedError(RuntimeError):
    """A tool call arrived after the run stopped waiting for the model (its deadline passed)."""


class ToolName(StrEnum):
    QUOTE_FETCH = "quote_fetch"
    SEARCH_SOURCE = "search_source"
    CALC = "calc"
    RESOLVE_EVIDENCE = "resolve_evidence"


ALL_TOOLS: frozenset[ToolName] = frozenset(ToolName)
# Repair only fixes what the gate found, from evidence already fetchable: deterministic fetch/compute tools only.
REPAIR_TOOLS: frozenset[ToolName] = frozenset({ToolName.QUOTE_FETCH, ToolName.SEARCH_SOURCE, ToolName.CALC})


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class QuoteFetchArgs(_Args):
    """Fetch the verbatim text at a locator (`p.2 L4-L6`), or the first line matching a pattern."""

    source_id: str = Field(min_length=1, max_length=512)
    locator: str | None = Field(default=None, max_length=64)
    pattern: str | None = Field(default=None, max_length=2000)
    regex: bool = False

    @model_validator(mode="after")
    def _one_target(self) -> Self:
        if (self.locator is None) == (self.pattern is None):
            raise ValueError("give exactly one of `locator` or `pattern`")
        return self


class SearchSourceArgs(_Args):
    """List verbatim lines of one source matching a literal phrase (or a bounded regex), with locators."""

    source_id: str = Field(min_length=1, max_length=512)
    pattern: str = Field(min_length=1, max_length=2000)
    top_n: int = Field(default=5, ge=1, le=1000)
    regex: bool = False


class CalcArgs(_Args):
    """Exact decimal arithmetic: + - * / %, parentheses, percentages, round(x, n)."""

    expr: str = Field(min_length=1, max_length=5000)


class ResolveEvidenceArgs(_Args):
    """Resolve an EvidenceRef `doc://<source_id>#<locator>` into an EvidenceBundle under the caller's policy."""

    ref: str = Field(min_length=1, max_length=1024)


ARG_SCHEMAS: dict[ToolName, type[_Args]] = {
    ToolName.QUOTE_FETCH: QuoteFetchArgs,
    ToolName.SEARCH_SOURCE: SearchSourceArgs,
    ToolName.CALC: CalcArgs,
    ToolName.RESOLVE_EVIDENCE: ResolveEvidenceArgs,
}


@dataclass(frozen=True)
class ToolCallRecord:
    name: str
    args: dict[str, Any]
    ok: bool
    result: Any
    error: str | None
    ms: float
    at: float = 0.0  # when the call started (epoch seconds): for traces and telemetry spans


@dataclass
class ToolRegistry:
    ctx: ToolContext
    allowed: frozenset[ToolName] = ALL_TOOLS
    max_calls: int | None = None
    calls: list[ToolCallRecord] = field(default_factory=list)
    closed: bool = False

    def close(self) -> None:
        """Refuse every later call: an abandoned model thread must not keep reading the store."""
        self.closed = True

    def _run(self, name: ToolName, args: _Args) -> Any:
        ctx = self.ctx
        if isinstance(args, QuoteFetchArgs):
            return quote_fetch(ctx, args.source_id, locator=args.locator, pattern=args.pattern, regex=args.regex)
        if isinstance(args, SearchSourceArgs):
            return search_source(ctx, args.source_id, args.pattern, top_n=args.top_n, regex=args.regex)
        if isinstance(args, CalcArgs):
            return calc(args.expr, max_chars=ctx.limits.max_calc_chars)
        if isinstance(args, ResolveEvidenceArgs):
            return resolve_evidence(ctx, args.ref)
        raise AssertionError(f"no implementation for {name}")  # unreachable: ARG_SCHEMAS covers ToolName

    def invoke(self, name: str, args: Mapping[str, Any] | None) -> dict[str, Any]:
        """Run one tool call from a model. Returns `{ok: true, result}` or `{ok: false, error, message}`."""
        if self.closed:
            raise RegistryClosedError("the run no longer accepts tool calls")
        started = time.perf_counter()
        raw_args = dict(args) if isinstance(args, Mapping) else {"_raw": repr(args)}
        try:
            if self.max_calls is not None and len(self.calls) >= self.max_calls:
                raise ModelError(ErrorCode.TOOL_CALL_LIMIT, f"tool-call limit of {self.max_calls} reached; answer now")
            tool = self._allowed_tool(name)
            if not isinstance(args, Mapping):
                raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, "arguments must be a JSON object")
            try:
                parsed = ARG_SCHEMAS[tool].model_validate(dict(args))
            except ValidationError as exc:
                problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors())
                raise ModelError(ErrorCode.INVALID_TOOL_ARGUMENTS, f"{tool.value}: {problems}") from exc
            result = _jsonable(self._run(tool, parsed))
        except (ModelError, CallerError) as exc:
            self._record(name, raw_args, False, None, exc.code.value, started)
            return {"ok": False, "error": exc.code.value, "message": exc.message}
        except OperatorError as exc:
            self._record(name, raw_args, False, None, exc.code.value, started)
            raise
        except Exception:
            log.exception("tool %s raised an unexpected exception", name)
            self._record(name, raw_args, False, None, ErrorCode.TOOL_FAILED.value, started)
            message = f"{name} failed; no answer can be verified in this run: report insufficient evidence"
            return {"ok": False, "error": ErrorCode.TOOL_FAILED.value, "message": message}
        self._record(name, raw_args, True, result, None, started)
        return {"ok": True, "result": result}

    def _allowed_tool(self, name: str) -> ToolName:
        try:
            tool = ToolName(name)
        except ValueError:
            tool = None
        if tool is None or tool not in self.allowed:
            allowed = ", ".join(sorted(t.value for t in self.allowed))
            raise ModelError(ErrorCode.TOOL_NOT_ALLOWED, f"tool {name!r} is not allowed; allowed tools: {allowed}")
        return tool

    def _record(self, name: str, args: dict[str, Any], ok: bool, result: Any, error: str | None, t0: float) -> None:
        ms = (time.perf_counter() - t0) * 1000
        self.calls.append(ToolCallRecord(name, args, ok, result, error, round(ms, 3), time.time() - ms / 1000))

    @property
    def refusals(self) -> list[ToolCallRecord]:
        return [call for call in self.calls if not call.ok]

    @property
    def faults(self) -> list[ToolCallRecord]:
        """Calls that failed because of the deployment (store down, a tool's bug), not the model's request."""
        return [call for call in self.calls if call.error in FAULT_CODES]

    def langchain_tools(self) -> list[BaseTool]:
        """The allowed tools as LangChain tools (for `bind_tools` and `ToolNode`); each returns JSON text."""
        tools: list[BaseTool] = []
        for tool in sorted(self.allowed):
            schema = ARG_SCHEMAS[tool]
            tools.append(
                StructuredTool.from_function(
                    func=self._bound(tool.value),
                    name=tool.value,
                    description=(schema.__doc__ or tool.value).strip(),
                    args_schema=schema,
                )
            )
        return tools

    def _bound(self, name: str) -> Callable[..., str]:
        def call(**kwargs: Any) -> str:
            cleaned = {key: value for key, value in kwargs.items() if value is not None}
            return json.dumps(self.invoke(name, cleaned), ensure_ascii=False)

        return call


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Iterable) and not isinstance(value, str | bytes | dict):
        return [_jsonable(item) for item in value]
    return value
