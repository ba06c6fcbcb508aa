"""The gate's checks as guardrails-ai validators, and a caller's own Guard as an extra stage of the gate.

Importing this module imports guardrails-ai (~3-7 s, and it pulls litellm), so nothing else in the gate does:
`validate.py` never imports it. Before the import, `prepare_tiktoken_cache` points tiktoken at the bundled
vocabularies and sets `LITELLM_LOCAL_MODEL_COST_MAP=True`, so neither fetches anything.

Telemetry: guardrails turns hub metrics ON by default (`RC.enable_metrics` defaults to True without a
`~/.guardrailsrc`; `Guard.__init__` calls `configure()`, which enables the process-wide `HubTelemetry`
singleton). `Guard.configure(allow_metrics_collection=False)` sets `HubTelemetry()._enabled = False` and makes
the Runner disable its tracer (guardrails/guard.py `_configure_hub_telemtry`, `_exec`), so every Guard built or
run here is configured that way first, including a caller's own Guard.

Event loops: guardrails validates on `asyncio.get_event_loop()` and, where the thread has no current loop (any
thread after an `asyncio.run`, every worker thread of `astream`), makes one with `new_event_loop()` and never
closes it: a leaked loop and its self-pipe sockets per call. `guard_validate` runs a Guard on a thread and a
loop of its own and closes both; the gate runs every Guard through it, and so should a caller.

Validators (registered locally with `register_validator`, never fetched from the hub) read a Draft as JSON
(the Guard's string output) or as a `Draft` / dict, and take the gate's inputs either as constructor arguments
or from the validation metadata (metadata wins): `ctx` (a ToolContext), `bundles`, `gate`, `flagged`,
`conflict_tolerance_pct`, `question` and `paraphrase`. Without the `question` the rules that read it (claim support,
answerhood) find nothing, so a validator that should judge claims needs it, as the graph always passes it.
"""

from __future__ import annotations

import asyncio
import contextvars
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import Any

from pydantic import ValidationError

from quotebound.agent.core.contracts import Draft, EvidenceBundle, GateStatus
from quotebound.agent.core.offline import default_cache_dir, prepare_tiktoken_cache
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import Paraphrase
from quotebound.agent.gate.validate import validate_draft
from quotebound.tools.context import ToolContext

prepare_tiktoken_cache(default_cache_dir())
with warnings.catch_warnings():
    # guardrails' CLI imports typer, which touches click APIs deprecated in click 8.2+: noise, not our code.
    warnings.simplefilter("ignore", DeprecationWarning)
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    from guardrails import Guard
    from guardrails.validator_base import FailResult, PassResult, ValidationResult, Validator, register_validator


def _as_draft(value: Any) -> Draft:
    if isinstance(value, Draft):
        return value
    if isinstance(value, str | bytes):
        return Draft.model_validate_json(value)
    return Draft.model_validate(value)


@dataclass(frozen=True)
class GateArgs:
    """The gate's inputs a validator was built with (`validate_draft`'s keywords); metadata may replace each."""

    ctx: ToolContext | None = None
    bundles: Sequence[EvidenceBundle] = ()
    gate: GateStatus = "proceed"
    flagged: Mapping[str, Sequence[str]] | None = None
    conflict_tolerance_pct: float = 1.0
    question: str | None = None
    paraphrase: Paraphrase | None = None


_INPUTS = tuple(f.name for f in fields(GateArgs))


# guardrails ships no type information, so `Validator` is Any to the type checker: nothing to subclass more precisely.
class GateValidator(Validator):  # type: ignore[misc]
    """Runs the gate and fails on the blocking findings whose code is in `codes` (all codes when empty)."""

    codes: frozenset[FindingCode] = frozenset()

    def __init__(
        self,
        ctx: ToolContext | None = None,
        bundles: Sequence[EvidenceBundle] = (),
        gate: GateStatus = "proceed",
        flagged: Mapping[str, Sequence[str]] | None = None,
        conflict_tolerance_pct: float = 1.0,
        question: str | None = None,
        paraphrase: Paraphrase | None = None,
        on_fail: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(on_fail=on_fail, **kwargs)
        self._args = GateArgs(ctx, list(bundles), gate, flagged, conflict_tolerance_pct, question, paraphrase)

    def findings(self, value: Any, metadata: Mapping[str, Any]) -> list[Finding]:
        """The blocking findings of this validator's rule (a `SCHEMA` finding when `value` is not a Draft)."""
        args = replace(self._args, **{k: metadata[k] for k in _INPUTS if k in metadata})
        if not isinstance(args.ctx, ToolContext):
            raise TypeError(f"{type(self).__name__} needs `ctx` (a ToolContext), as an argument or in metadata")
        try:
            draft = _as_draft(value)
        except (ValidationError, ValueError) as exc:
            return [Finding(code=FindingCode.SCHEMA, message=f"not a Draft: {exc}")]
        report = validate_draft(
            draft,
            bundles=args.bundles,
            ctx=args.ctx,
            gate=args.gate,
            flagged=args.flagged,
            conflict_tolerance_pct=args.conflict_tolerance_pct,
            question=args.question,
            paraphrase=args.paraphrase,
        )
        # a draft past the input bounds or the deadline was not checked at all: every family fails it
        return [
            f
            for f in report.findings
            if f.blocking and (not self.codes or f.code in self.codes or f.code is FindingCode.INPUT_BOUNDS)
        ]

    def _validate(self, value: Any, metadata: dict[str, Any]) -> ValidationResult:
        found = self.findings(value, metadata or {})
        if not found:
            return PassResult()
        return FailResult(
            error_message="; ".join(f"{f.code.value}: {f.message}" for f in found),
            metadata={"findings": [f.model_dump(mode="json") for f in found]},
        )


@register_validator(name="quotebound/gate", data_type="string")
class QuoteboundGate(GateValidator):
    """Every rule of the gate."""


@register_validator(name="quotebound/citations", data_type="string")
class CitationsVerified(GateValidator):
    """Supports exist (an answer citing nothing abstains), sources are readable, locators real, quotes verbatim,
    big enough to carry a claim and never cut to leave out their clause's negator or qualifier."""

    codes = frozenset(
        {
            FindingCode.NO_SUPPORT,
            FindingCode.NO_CITATIONS,
            FindingCode.UNKNOWN_SOURCE,
            FindingCode.FAKE_LOCATOR,
            FindingCode.QUOTE_NOT_VERBATIM,
            FindingCode.REF_NOT_RESOLVED,
            FindingCode.QUOTE_TOO_SMALL,
            FindingCode.QUOTE_DROPS_QUALIFIER,
        }
    )


@register_validator(name="quotebound/span_alignment", data_type="string")
class SpanAligned(GateValidator):
    """Every number, date and section token shown is in a verified quote or a recomputed calc."""

    codes = frozenset({FindingCode.UNSUPPORTED_TOKEN})


@register_validator(name="quotebound/meaning", data_type="string")
class MeaningKept(GateValidator):
    """Every claim keeps its quotes' polarity, modality, directions, units, and the subject of each figure."""

    codes = frozenset({FindingCode.MEANING_CHANGED, FindingCode.VALUE_UNBOUND})


@register_validator(name="quotebound/claim_support", data_type="string")
class ClaimsSupported(GateValidator):
    """Every claim shown is said by the quotes it rests on (needs the `question`)."""

    codes = frozenset({FindingCode.UNSUPPORTED_CLAIM})


@register_validator(name="quotebound/answerhood", data_type="string")
class AnswersTheQuestion(GateValidator):
    """The answer answers the question asked: its type, its subject, the document it names (needs the `question`)."""

    codes = frozenset({FindingCode.NOT_AN_ANSWER})


@register_validator(name="quotebound/calc", data_type="string")
class CalcRecomputed(GateValidator):
    """A derived number equals the gate's recomputation, and its operands are quoted."""

    codes = frozenset({FindingCode.CALC_MISMATCH, FindingCode.CALC_OPERAND_UNQUOTED})


@register_validator(name="quotebound/conflicts", data_type="string")
class ConflictsReported(GateValidator):
    """Disagreeing values are listed, and listed conflicts are real."""

    codes = frozenset(
        {FindingCode.CONFLICT_OMITTED, FindingCode.CONFLICT_VALUE_UNQUOTED, FindingCode.CONFLICT_NOT_REAL}
    )


@register_validator(name="quotebound/clarify", data_type="string")
class ClarifyEnforced(GateValidator):
    """No answer while a clarification is pending; after its timeout, an explicit insufficient-evidence report."""

    codes = frozenset({FindingCode.CLARIFY_REQUIRED, FindingCode.CLARIFY_TIMEOUT_NOT_REPORTED})


@register_validator(name="quotebound/no_instructional_support", data_type="string")
class NoInstructionalSupport(GateValidator):
    """Instructional text (possible prompt injection) is never evidence."""

    codes = frozenset({FindingCode.INSTRUCTIONAL_SUPPORT})


RULE_VALIDATORS: tuple[type[GateValidator], ...] = (
    CitationsVerified,
    SpanAligned,
    MeaningKept,
    ClaimsSupported,
    AnswersTheQuestion,
    CalcRecomputed,
    ConflictsReported,
    ClarifyEnforced,
    NoInstructionalSupport,
)


def without_metrics(guard: Guard) -> Guard:
    """`guard`, with guardrails' hub telemetry switched off (see the module docstring)."""
    guard.configure(allow_metrics_collection=False)
    return guard


def gate_guard(*, on_fail: str = "noop", **inputs: Any) -> Guard:
    """A Guard running every rule validator, metrics off; `inputs` are the validators' constructor arguments."""
    return without_metrics(Guard()).use(*(cls(on_fail=on_fail, **inputs) for cls in RULE_VALIDATORS))


def _on_a_closed_loop(guard: Guard, text: str) -> Any:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # what guardrails' get_loop() picks up instead of making its own
    try:
        return guard.validate(text)
    finally:
        asyncio.set_event_loop(None)
        loop.close()


def guard_validate(guard: Guard, text: str) -> Any:
    """`guard.validate(text)` with no event loop left open (see the module docstring). A thread of its own, so the
    caller's current loop (or running one) is never replaced; the caller's context variables go with it."""
    context = contextvars.copy_context()
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="quotebound-guard") as pool:
        return pool.submit(context.run, _on_a_closed_loop, guard, text).result()


def run_user_guard(guard: Any, draft: Draft) -> list[Finding]:
    """Run a caller's own Guard on the draft (as JSON) as an extra stage; its failures become USER_GUARD findings."""
    if not isinstance(guard, Guard):
        raise TypeError(f"expected a guardrails Guard, got {type(guard).__name__}")
    without_metrics(guard)
    try:
        outcome = guard_validate(guard, draft.model_dump_json())
    except Exception as exc:  # a validator with on_fail="exception" raises; that is a failed check, not a crash
        return [Finding(code=FindingCode.USER_GUARD, message=f"user guard failed: {exc}")]
    if outcome.validation_passed:
        return []
    summaries = outcome.validation_summaries or []
    findings = [
        Finding(code=FindingCode.USER_GUARD, message=f"{s.validator_name}: {s.failure_reason}")
        for s in summaries
        if s.failure_reason
    ]
    return findings or [Finding(code=FindingCode.USER_GUARD, message=f"user guard failed: {outcome.error or '?'}")]
