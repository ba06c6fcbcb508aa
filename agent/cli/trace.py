"""`quotebound trace|replay|recheck`: read a run step by step, re-run it from a checkpoint, re-verify its answer.

- `trace RUN_ID` prints the run's timeline from STORE/traces.sqlite; `--step N` the state at step N (from the
  checkpoint written after it while the session's checkpoints exist, else the trace's own summary).
- `replay RUN_ID [--from NODE] [--model SPEC]` re-runs it from the checkpoint before NODE in a new thread (the
  session is untouched), as a new run with its own receipt, and prints what changed. It never starts at a
  terminal: every replay passes `validate` before it can ship anything.
- `recheck AUDIT_REF` re-resolves every citation of a receipt against the current corpus: ok, changed, vanished.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quotebound.agent.audit import open_ledger
from quotebound.agent.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_OPERATOR,
    fail,
    ledger_options,
    policy_option,
    settings_from_args,
)
from quotebound.agent.core.errors import ErrorCode
from quotebound.agent.core.receipt import Receipt
from quotebound.agent.runs.trace import RunTrace, TraceStep, plain
from quotebound.agent.runs.trace_store import TRACE_FILE, TraceStore
from quotebound.tools.corpus import Corpus
from quotebound.tools.store import Store

if TYPE_CHECKING:
    from quotebound.agent.facade.replay import ReplayOutcome

_CLIP = 160


def _print_json(data: Any) -> None:
    # `default=str`: a checkpoint's state may hold values JSON has no type for
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n")


def _clip(value: Any, limit: int = _CLIP) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _load_trace(store: Path, run_id: str) -> RunTrace | None:
    if not (Path(store) / TRACE_FILE).exists():
        return None
    with TraceStore.for_store(store, create=False) as traces:
        return traces.get(run_id)


# --- trace ----------------------------------------------------------------------------------------------------


def _key_output(step: TraceStep) -> str:
    out = step.output
    parts: list[str] = []
    for key in ("gate", "status", "reason_code", "code", "hits", "bundles", "ok", "findings", "mode", "facts"):
        if key in out and out[key] not in (None, [], ""):
            parts.append(f"{key}={out[key]}")
    if out.get("missing"):
        parts.append(f"missing={','.join(map(str, out['missing']))}")
    if out.get("replies"):
        parts.append(f"replies={','.join(map(str, out['replies']))}")
    if out.get("interrupted"):
        parts.append("paused for clarify")
    if out.get("failure"):
        parts.append(f"failure={out['failure'].get('reason_code')}({out['failure'].get('detail')})")
    if out.get("answer"):
        parts.append(f"answer={_clip(out['answer'], 80)!r}")
    return "  ".join(parts)


def render_trace(trace: RunTrace) -> str:
    lines = [
        f"run {trace.run_id}  session {trace.session_id}  status {trace.status}  {trace.ms:.0f} ms",
        f"caller: role={trace.role} labels={','.join(trace.labels) or '-'}"
        + (f"  principal={trace.principal}" if trace.principal else ""),
        f"question: {_clip(trace.question, 200)!r}",
    ]
    if trace.audit_ref:
        lines.append(f"receipt: {trace.audit_ref}")
    for step in trace.steps:
        error = f"  ERROR {step.error}" if step.error else ""
        lines.append(f"{step.index:>3}  {step.node:<16}{step.ms:>10.1f} ms  {_key_output(step)}{error}")
        for call in step.tool_calls:
            outcome = "ok" if call.ok else f"refused: {call.error}"
            ms = f"{call.ms:.1f} ms" if call.ms is not None else ""
            lines.append(f"       tool {call.name}({_clip(call.args, 100)}) -> {outcome} {ms}")
            if call.result:
                lines.append(f"            = {_clip(call.result, 120)}")
        for finding in step.findings:
            flag = "blocking" if finding.blocking else "note"
            lines.append(
                f"       finding {finding.code} ({flag})" + (f": {_clip(finding.detail)}" if finding.detail else "")
            )
    return "\n".join(lines)


def _checkpoint_state(store: Path, session_id: str, checkpoint_id: str) -> dict[str, Any] | None:
    """The state in checkpoint `checkpoint_id`, None when it (or the checkpoint file) is gone."""
    from langgraph.checkpoint.sqlite import SqliteSaver  # deferred: langgraph would slow `quotebound --help`

    from quotebound.graphs.checkpoints import checkpoint_serde  # deferred with langgraph, which it imports

    path = Path(store) / "checkpoints.sqlite"
    if not path.exists():
        return None
    with closing(sqlite3.connect(path, check_same_thread=False)) as connection:
        saver = SqliteSaver(connection, serde=checkpoint_serde())
        try:
            found = saver.get_tuple(
                {"configurable": {"thread_id": session_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}}
            )
        except sqlite3.Error:
            return None
    if found is None:
        return None
    values = found.checkpoint.get("channel_values") or {}
    # LangGraph's own channels (`branch:to:validate`, `__start__`) are not the run's state; its values print as JSON
    return {key: plain(value) for key, value in values.items() if not key.startswith(("branch:", "__"))}


def _print_step(args: argparse.Namespace, trace: RunTrace) -> int:
    if not 1 <= args.step <= len(trace.steps):
        return fail(args, f"run {trace.run_id} has steps 1..{len(trace.steps)}, not {args.step}")
    step = trace.steps[args.step - 1]
    state = _checkpoint_state(Path(args.store), trace.session_id, step.checkpoint_id) if step.checkpoint_id else None
    source = "checkpoint" if state is not None else "summary"
    if args.json:
        _print_json(
            {
                "run_id": trace.run_id,
                "step": step.model_dump(mode="json"),
                "source": source,
                "checkpoint_id": step.checkpoint_id if state is not None else None,
                "state": state,
            }
        )
        return EXIT_OK
    print(f"step {step.index} of run {trace.run_id}: {step.node} ({step.ms:.1f} ms)")
    if state is not None:
        print(f"state after the step, from checkpoint {step.checkpoint_id}:")
        for key in sorted(state):
            print(f"  {key}: {_clip(state[key])}")
    else:
        why = "the node failed before a checkpoint" if step.error else "its checkpoint is gone"
        print(f"no checkpoint for this step ({why}): the trace's stored summary")
        print(f"  input: {_clip(step.input, 400)}")
        print(f"  output: {_clip(step.output, 400)}")
    return EXIT_OK


def cmd_trace(args: argparse.Namespace) -> int:
    trace = _load_trace(Path(args.store), args.run_id)
    if trace is None:
        return fail(args, f"no trace of run {args.run_id} in {args.store}")
    if args.step is not None:
        return _print_step(args, trace)
    if args.json:
        _print_json(trace.model_dump(mode="json"))
    else:
        print(render_trace(trace))
    return EXIT_OK


# --- replay ---------------------------------------------------------------------------------------------------


def render_changes(outcome: ReplayOutcome) -> str:
    changes = outcome.changes
    status, reason, answer = changes["status"], changes["reason_code"], changes["answer"]
    lines = [
        f"replayed run {outcome.original.run_id} from {outcome.from_node} (checkpoint {outcome.checkpoint_id})",
        f"as run {outcome.run_id} in session {outcome.session_id}; receipt {outcome.envelope.audit_ref}",
        "what changed: " + ("something" if changes["changed"] else "nothing the caller reads"),
        f"  status: {status['before']} -> {status['after']}",
        f"  reason_code: {reason['before'] or '-'} -> {reason['after'] or '-'}",
    ]
    if answer["before"] == answer["after"]:
        lines.append("  answer: unchanged")
    else:
        before = (answer["before"] or {}).get("level1")
        after = (answer["after"] or {}).get("level1")
        lines.append(
            f"  answer: changed\n    before: {_clip(before or '-', 200)}\n    after:  {_clip(after or '-', 200)}"
        )
    for ref in changes["citations"]["added"]:
        lines.append(f"  + cited {ref}")
    for ref in changes["citations"]["removed"]:
        lines.append(f"  - cited {ref}")
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    # deferred: the agent loads langgraph and the stores, which would slow `quotebound --help`
    from quotebound.agent.facade.agent import Agent
    from quotebound.tools.policy_file import load_policy

    settings = settings_from_args(args)
    if args.model:
        settings = settings.model_copy(update={"model": args.model})
    if _load_trace(settings.store, args.run_id) is None:
        return fail(args, f"no trace of run {args.run_id} in {args.store}")
    policy = load_policy(settings)
    with Agent(settings, policy=policy) as agent:
        outcome = agent.replay(args.run_id, args.from_node)
    if args.json:
        _print_json(
            {
                "original_run_id": outcome.original.run_id,
                "from": outcome.from_node,
                "checkpoint_id": outcome.checkpoint_id,
                "run_id": outcome.run_id,
                "session_id": outcome.session_id,
                "envelope": outcome.envelope.model_dump(mode="json"),
                "changes": outcome.changes,
            }
        )
    else:
        print(render_changes(outcome))
    return EXIT_OPERATOR if outcome.envelope.status == "error" else EXIT_OK


# --- recheck --------------------------------------------------------------------------------------------------


def cmd_recheck(args: argparse.Namespace) -> int:
    # deferred: recheck resolves evidence under a policy; those modules would slow `quotebound --help`
    from quotebound.agent.audit.recheck import recheck_receipt
    from quotebound.tools.context import ToolContext
    from quotebound.tools.policy import Caller
    from quotebound.tools.policy_file import load_policy

    settings = settings_from_args(args)
    with closing(open_ledger(settings, create=False)) as ledger:
        entry = ledger.get(args.audit_ref)
    if entry is None:
        return fail(args, "no such receipt")
    try:
        receipt = Receipt.model_validate(entry["body"])
    except ValueError:
        why = f"receipt {args.audit_ref} is unreadable (not a receipt body): run `quotebound audit verify`"
        return fail(args, why, code=ErrorCode.AUDIT_UNAVAILABLE)
    policy = load_policy(settings)
    caller = Caller(role=receipt.caller.role, labels=frozenset(receipt.caller.labels))
    with Store(settings) as store:
        tools = ToolContext(Corpus(store), caller=caller, policy=policy, limits=settings.tools)
        report = recheck_receipt(receipt, tools)
    if args.json:
        _print_json(report.as_json())
    else:
        print(f"receipt {report.audit_ref}  run {report.run_id}  status {report.status}  as role {report.role}")
        if not report.citations:
            print("no citations to recheck")
        for check in report.citations:
            print(f"  {check.status:<8} {check.ref}  {check.detail}")
        if report.citations:
            broken = sum(1 for check in report.citations if check.status != "ok")
            print("all citations hold" if report.ok else f"{broken} of {len(report.citations)} citations broke")
    return EXIT_OK if report.ok else EXIT_FAILED


def add_parser(sub: Any) -> None:
    """Register `trace`, `replay` and `recheck` on the top-level subparsers."""

    p = sub.add_parser(
        "trace",
        help="print a run step by step: nodes, timings, tool calls, validator findings",
        description="Every run's steps are kept in STORE/traces.sqlite: one line per node (index, node, ms, what it "
        "produced), its tool calls (arguments and a truncated result) indented under it, and the validator's "
        "findings. The run_id is in every envelope's meta.run_id. --step N prints the state after step N, from the "
        "session's checkpoint while it exists (else the trace's own summary, and it says so). Exit codes: 0 ok, "
        "1 no such run or step.",
    )
    p.add_argument("run_id", metavar="RUN_ID", help="an envelope's meta.run_id")
    ledger_options(p)
    p.add_argument("--step", type=int, metavar="N", help="print the state at step N (1-based)")
    p.set_defaults(func=cmd_trace)

    p = sub.add_parser(
        "replay",
        help="re-run a past run from the checkpoint before a node, and print what changed",
        description="LangGraph time travel: the checkpoint before NODE (default: the run's first node) is copied "
        "into a new thread, so the session that ran it is untouched, and the graph runs on from there as a new "
        "run (its own run_id, receipt and trace) with this store's current corpus and policy, and --model if "
        "given. Prints what changed versus the original envelope: status, answer text, citations added or "
        "removed, reason_code. Example: quotebound replay RUN_ID --from draft --model chat:ollama:qwen2.5. "
        "No replay reaches a terminal without passing validate again: --from a terminal (verified_answer, "
        "abstain) is refused; --from validate re-checks the same draft against today's documents. "
        "Exit codes: 0 replayed, 1 no such run, 2 a node the run never ran or a terminal, 3 the replay ended in "
        "an error.",
    )
    p.add_argument("run_id", metavar="RUN_ID")
    p.add_argument(
        "--from", dest="from_node", metavar="NODE", help="preflight, retrieve, resolve, draft, validate or repair"
    )
    p.add_argument("--model", help="extractive, chat:<provider>:<model>, or openai:<model>@<base_url>")
    policy_option(p)
    ledger_options(p)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "recheck",
        help="re-verify a past answer's citations against the current corpus",
        description="Reads the receipt from the audit ledger and resolves every cited ref again, under the "
        "receipt's caller role and labels and the current policy. Per citation: ok (same version, same text), "
        "changed (the source has a new version, or the quoted text differs), vanished (the source is gone or no "
        "longer readable, or the locator no longer exists). Exit codes: 0 every citation holds, 1 one broke or no "
        "such receipt.",
    )
    p.add_argument("audit_ref", metavar="AUDIT_REF", help="an envelope's audit_ref, e.g. audit://quotebound/<hex>")
    policy_option(p)
    ledger_options(p)
    p.set_defaults(func=cmd_recheck)
