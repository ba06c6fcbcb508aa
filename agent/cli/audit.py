"""`quotebound audit verify|show`: check the ledger's chain, and read one receipt redacted for a role.

`show` gives every role a receipt: a role the policy does not let read audit sees it without query text,
clarify replies, the asker's labels or a restricted topic's name, and every ref to a source the viewing role
may not read is `[withheld]`. An unknown audit_ref prints "no such receipt" (exit 1); since no receipt is
hidden from anyone, that message tells nothing about the others.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import closing, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from quotebound.agent.audit import LedgerEntry, LedgerRow, open_ledger
from quotebound.agent.audit.receipt_view import redact_receipt
from quotebound.agent.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    fail,
    ledger_options,
    policy_option,
    settings_from_args,
)
from quotebound.agent.core.errors import ErrorCode
from quotebound.agent.core.receipt import Receipt
from quotebound.agent.core.settings import Settings
from quotebound.tools.corpus import Corpus
from quotebound.tools.store import Store

if TYPE_CHECKING:
    from quotebound.tools.policy import Policy


def settings_policy(settings: Settings) -> Policy:
    """The policy `audit show` redacts with: the configured policy file, else the built-in default policy (which
    lets no role read audit, so everything it can redact is redacted)."""
    from quotebound.tools.policy_file import load_policy  # deferred: the policy modules would slow `--help`

    return load_policy(settings)


def cmd_audit_verify(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    # The store's record of its ledger: a missing, replaced or restarted ledger is never "chain intact".
    store = Store(settings) if (Path(settings.store) / "index.sqlite").exists() else None
    with (
        closing(store) if store is not None else nullcontext(),
        closing(open_ledger(settings, create=False, witness=store)) as ledger,
    ):
        report = ledger.verify()
    if args.json:
        sys.stdout.write(json.dumps({**report.model_dump(mode="json"), "summary": report.summary()}) + "\n")
    else:
        print(report.summary())
    return EXIT_OK if report.ok else EXIT_FAILED


def _viewable(row: LedgerRow, args: argparse.Namespace, settings: Settings) -> tuple[LedgerEntry, Receipt]:
    from quotebound.tools.policy import Caller  # deferred: the policy modules would slow `quotebound --help`

    entry = row.entry()
    receipt = Receipt.model_validate(entry["body"])
    viewer = Caller(role=args.role, labels=frozenset(args.label or ()))
    policy = settings_policy(settings)
    with Store(settings) as store:
        corpus = Corpus(store)

        def readable(source_id: str, version: int | None) -> bool:
            source = corpus.source(source_id, version)
            return source is not None and policy.decide(viewer, source).decision == "allow"

        shown = redact_receipt(receipt, reads_audit=policy.reads_audit(viewer), readable=readable)
    return entry, shown


def cmd_audit_show(args: argparse.Namespace) -> int:
    settings = settings_from_args(args)
    with closing(open_ledger(settings, create=False)) as ledger:
        row = ledger.find(args.ref)
    if row is None:
        return fail(args, "no such receipt")
    try:
        entry, receipt = _viewable(row, args, settings)
    except ValueError:
        why = f"receipt {args.ref} is unreadable (not a receipt body): run `quotebound audit verify`"
        return fail(args, why, code=ErrorCode.AUDIT_UNAVAILABLE)
    record: dict[str, Any] = {
        "seq": entry["seq"],
        "audit_ref": entry["audit_ref"],
        "created_at": entry["created_at"],
        "hash": entry["hash"],
        "hash_ok": row.hash == row.expected_hash(),
        "body": receipt.model_dump(mode="json"),
    }
    if args.json:
        sys.stdout.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    else:
        print(render_receipt(record))
    return EXIT_OK


def render_receipt(record: dict[str, Any]) -> str:
    body = record["body"]
    query = body["query"]
    lines = [
        f"receipt #{record['seq']}  {record['audit_ref']}  ({'hash ok' if record['hash_ok'] else 'HASH MISMATCH'})",
        f"run {body['run_id']}  session {body['session_id']}  {body['started_at']} .. {body['finished_at']}"
        f"  ({body['latency_ms']} ms)",
        f"status: {body['status']}"
        + (f"  reason: {body['reason_code']}" if body["reason_code"] else "")
        + (f"  error: {body['error_code']}" if body["error_code"] else ""),
        f"caller: role={body['caller']['role']} labels={','.join(body['caller']['labels']) or '-'}",
        f"query: {query['sha256']}" + (f"  {query['text']!r}" if query["text"] is not None else "  (text not shown)"),
        f"path: {' > '.join(body['path']) or '-'}"
        + (f"  (failed in {', '.join(body['error_at'])})" if body["error_at"] else ""),
        f"model: {body['model']['id']} {body['model']['version']}   policy: {body['policy']['version']}",
    ]
    precheck = body["policy"]["precheck"]
    if precheck:
        lines.append(f"precheck: {precheck['decision']}" + (f" ({precheck['reason']})" if precheck["reason"] else ""))
    gate = body["gate"]
    codes = ", ".join(f["code"] for f in gate["findings"]) or "none"
    lines.append(
        f"gate: preflight={gate['preflight']} passed={gate['passed']} repairs={gate['repairs']} findings={codes}"
    )
    for call in body["tool_calls"]:
        outcome = "ok" if call["ok"] else call["error"]
        lines.append(f"  tool {call['node']}: {call['name']} -> {outcome}  args {call['args_sha256'][:19]}…")
    for bundle in body["bundles"]:
        lines.append(f"  evidence {bundle['ref']}  {bundle['digest'][:19]}…  {bundle['policy']['decision']}")
    for citation in body["citations"]:
        lines.append(f"  cited {citation['ref']}  {citation['bundle_id'][:19]}…")
    for flag in body["instructional_flags"]:
        lines.append(f"  instructional text at {flag['ref']} {flag['locator']}")
    if body["refused_tool_calls"]:
        lines.append(f"refused tool calls: {len(body['refused_tool_calls'])}")
    lines.append(f"output: {body['output_sha256']}")
    return "\n".join(lines)


def add_parser(sub: Any) -> None:
    """Register `audit verify` and `audit show` on the top-level subparsers."""
    audit = sub.add_parser(
        "audit",
        help="verify the audit ledger's hash chain, or show one receipt redacted for a role",
        description="Every run writes one receipt (answer, abstain, clarify pause, error) to an append-only, "
        "hash-chained ledger: STORE/audit.sqlite, or PostgreSQL when QUOTEBOUND_AUDIT_DSN is set. Exit codes: "
        "0 ok, 1 a broken chain or no such receipt, 3 no ledger or it cannot be read.",
    )
    actions = audit.add_subparsers(dest="audit_command", metavar="ACTION", required=True)

    p = actions.add_parser(
        "verify",
        help="recompute the hash chain; exit 1 naming the first tampered receipt",
        description="Prints 'N receipts, chain intact (tip HASH)' and exits 0, or names the first receipt that "
        "does not verify (by seq and audit_ref) and exits 1. Detects edited bodies and hashes, receipts deleted "
        "or moved, and a truncated tail; and, against the ledger id and tip the store recorded, a ledger that was "
        "replaced ('ledger replaced', exit 1), restarted or rolled back ('ledger restarted', exit 1) or is "
        "missing (exit 3). Keep the printed tip hash elsewhere to detect a whole rewrite of store and ledger.",
    )
    ledger_options(p)
    p.set_defaults(func=cmd_audit_verify)

    p = actions.add_parser(
        "show",
        help="print one receipt, redacted for --role",
        description="Query text is shown only to a role the policy lets read audit; a ref to a source --role may "
        "not read is [withheld]. Every role gets the receipt (redacted); an unknown REF prints 'no such receipt'.",
    )
    p.add_argument("ref", metavar="REF", help="an audit_ref, e.g. audit://quotebound/<hex>")
    ledger_options(p)
    p.add_argument("--role", default="public", help="the viewing role (default public)")
    p.add_argument("--label", action="append", metavar="LABEL", help="a label of the viewing caller (repeatable)")
    policy_option(p)
    p.set_defaults(func=cmd_audit_show)
