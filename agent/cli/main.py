"""The `quotebound` command line. Heavy libraries are imported inside commands so `--help` stays instant."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from quotebound.agent.core.errors import CallerError, ErrorCode, ModelError, OperatorError, QuoteboundError
from quotebound.agent.core.settings import Settings

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_OPERATOR = 0, 1, 2, 3

DESCRIPTION = """\
quotebound answers questions over your own documents, and every answer either cites verbatim quotes
with real locators (`p.<page> L<start>-L<end>`) or abstains. The model inside is untrusted: it can only
call four tools (quote_fetch, search_source, calc, resolve_evidence).

Start here:
  quotebound ingest examples/hoa --store .quotebound     # index .txt/.md/.pdf files (folders recursively)
  quotebound ask "What is the minimum lease term?" --store .quotebound
  quotebound sources --store .quotebound                 # what is in the store
  quotebound search "monthly assessment" --store .quotebound
  quotebound tool quote_fetch '{"source_id": "budget-2025.md", "locator": "p.1 L1-L3"}' --store .quotebound
  quotebound audit verify --store .quotebound            # every run's receipt, hash-chained
  quotebound audit show audit://quotebound/<id> --store .quotebound
  quotebound trace <run_id> --store .quotebound          # a run step by step (replay, recheck: see --help)
  quotebound eval run evals/golden/hoa.yaml --store .quotebound --policy examples/hoa/policy.yaml --out .eval

Exit codes: 0 ok, 1 something failed (a file did not ingest, a tool refused, a broken audit chain), 2 bad usage
or request, 3 misconfiguration or an unavailable store (the operator must act); `ask` also exits 3 when it
prints an error envelope (status "error", e.g. the audit ledger could not record the run, so no answer was
given).
"""


def _settings(args: argparse.Namespace) -> Settings:
    return Settings.from_env(
        store=getattr(args, "store", None),
        embedder=getattr(args, "embedder", None),
        qdrant_url=getattr(args, "qdrant_url", None),
        policy_file=getattr(args, "policy", None),
    )


def _print_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


class _Progress:
    """A one-line progress bar on a terminal; silent when stderr is not a TTY (CI logs, pipes)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.active = stream.isatty()

    def __call__(self, done: int, total: int, label: str) -> None:
        if not self.active or total < 2:
            return
        width = 30
        filled = width * done // total
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label[:40]:<40}")
        if done == total:
            self.stream.write("\n")
        self.stream.flush()


def cmd_ingest(args: argparse.Namespace) -> int:
    from quotebound.tools.ingest import Ingestor
    from quotebound.tools.store import Store

    with Store(_settings(args), create=True) as store:
        report = Ingestor(store).ingest([Path(p) for p in args.paths], label=args.label, progress=_Progress(sys.stderr))
    for path, why in report.failed:
        sys.stderr.write(f"error: {path}: {why}\n")
    if args.json:
        _print_json(
            {
                "added": report.added,
                "updated": report.updated,
                "unchanged": report.unchanged,
                "skipped": report.skipped,
                "failed": [{"path": p, "error": why} for p, why in report.failed],
                "chunks": report.chunks,
            },
            sys.stdout,
        )
    else:
        print(
            f"ingested into {args.store}: {len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.failed)} failed ({report.chunks} chunks)"
        )
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_sources(args: argparse.Namespace) -> int:
    from quotebound.tools.corpus import Corpus
    from quotebound.tools.store import Store

    with Store(_settings(args)) as store:
        sources = Corpus(store).sources(include_old=args.all)
    if args.json:
        _print_json([s.model_dump(mode="json") for s in sources], sys.stdout)
        return EXIT_OK
    for s in sources:
        state = "" if s.current else " (superseded)"
        print(
            f"{s.source_id}  v{s.version}{state}  {s.media_type}  {s.n_pages}p/{s.n_lines}L  label={s.policy_label}  "
            f"{s.provenance_kind}  {s.title}"
        )
    return EXIT_OK


def cmd_search(args: argparse.Namespace) -> int:
    from quotebound.tools.context import ToolContext
    from quotebound.tools.corpus import Corpus
    from quotebound.tools.policy import Caller
    from quotebound.tools.policy_file import load_policy
    from quotebound.tools.retrieval import HybridRetriever
    from quotebound.tools.store import Store

    settings = _settings(args)
    policy = load_policy(settings)  # before the store opens: a bad policy file fails fast
    with Store(settings) as store:
        ctx = ToolContext(Corpus(store), caller=Caller(role=args.role), policy=policy)
        hits = HybridRetriever(store).search(
            args.query, top_k=args.top_k, allow=ctx.can_read, changed=ctx.changed_chunks
        )
    if args.json:
        _print_json([hit.model_dump(mode="json") for hit in hits], sys.stdout)
    else:
        for hit in hits:
            print(f"{hit.score:.4f}  {hit.ref()}  (lexical #{hit.lexical_rank or '-'}, dense #{hit.dense_rank or '-'})")
    return EXIT_OK


def cmd_tool(args: argparse.Namespace) -> int:
    from quotebound.tools.context import ToolContext
    from quotebound.tools.corpus import Corpus
    from quotebound.tools.policy import Caller
    from quotebound.tools.policy_file import load_policy
    from quotebound.tools.registry import ToolRegistry
    from quotebound.tools.store import Store

    try:
        tool_args = json.loads(args.json_args)
    except json.JSONDecodeError as exc:
        raise CallerError(ErrorCode.BAD_REQUEST, f"JSON-ARGS is not valid JSON ({exc.msg} at {exc.pos})") from exc
    settings = _settings(args)
    policy = load_policy(settings)
    with Store(settings) as store:
        registry = ToolRegistry(ToolContext(Corpus(store), caller=Caller(role=args.role), policy=policy))
        outcome = registry.invoke(args.name, tool_args)
    _print_json(outcome, sys.stdout)
    return EXIT_OK if outcome["ok"] else EXIT_FAILED


def _parse_replies(pairs: list[str]) -> dict[str, str]:
    replies: dict[str, str] = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field.strip():
            raise CallerError(ErrorCode.BAD_REQUEST, f"--reply takes field=value, not {pair!r}")
        replies[field.strip()] = value
    return replies


def cmd_ask(args: argparse.Namespace) -> int:
    from quotebound.agent.cli.render import render_envelope
    from quotebound.agent.facade.agent import Agent
    from quotebound.tools.policy_file import load_policy

    replies = _parse_replies(args.reply or [])
    if replies and not args.session:
        raise CallerError(ErrorCode.BAD_REQUEST, "--reply resumes a paused run: give its --session too")
    if not replies and not args.question:
        raise CallerError(ErrorCode.BAD_REQUEST, "give a QUESTION (or --session ID --reply field=value to resume)")
    settings = _settings(args)
    if args.model:
        settings = settings.model_copy(update={"model": args.model})
    policy = load_policy(settings)  # before the agent opens the store: a bad policy file fails fast
    with Agent(settings, policy=policy) as agent:
        if replies:
            envelope = agent.resume(args.session, replies)
        else:
            envelope = agent.ask(args.question, session_id=args.session, role=args.role, labels=args.label or [])
        interactive = not args.json and sys.stdin.isatty() and sys.stdout.isatty()
        while envelope.status == "clarify" and interactive:
            print(render_envelope(envelope))
            answers = {q.field: input(f"{q.prompt} > ") for q in envelope.questions}
            envelope = agent.resume(envelope.session_id, answers)
    if args.json:
        _print_json(envelope.model_dump(mode="json"), sys.stdout)
    else:
        print(render_envelope(envelope))
        if envelope.status == "clarify":
            print(
                f"resume with: quotebound ask --store {args.store} --session {envelope.session_id} --reply FIELD=VALUE"
            )
    return EXIT_OPERATOR if envelope.status == "error" else EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    from quotebound.agent.core.version import __version__

    parser = argparse.ArgumentParser(
        prog="quotebound", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"quotebound {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def store_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--store", default=".quotebound", help="store folder (default: .quotebound)")
        p.add_argument("--qdrant-url", help="a Qdrant server instead of the embedded store (env QUOTEBOUND_QDRANT_URL)")

    def policy_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--policy", type=Path, metavar="FILE", help="policy file (env QUOTEBOUND_POLICY; default: public only)"
        )

    p = sub.add_parser(
        "ask",
        help="ask a question: a verified answer with citations, a clarify question, or an abstention",
        description="Runs the cite-or-abstain graph. With --json it prints exactly one envelope (status answer, "
        "abstain, clarify or error). A clarify exits 0; resume it with --session ID --reply field=value. On a "
        "terminal without --json the clarify questions are asked interactively. An error envelope (the run could "
        "not be recorded in the audit ledger, or the store failed) carries no answer and exits 3.",
    )
    p.add_argument("question", nargs="?", metavar="QUESTION")
    store_options(p)
    p.add_argument("--session", help="session id: clarify replies and context persist per session")
    p.add_argument("--role", default="public", help="caller role (default public)")
    p.add_argument(
        "--label",
        action="append",
        metavar="LABEL",
        help="an extra clearance of the caller (repeatable); honoured only where the policy file lets the role "
        "be granted it",
    )
    policy_option(p)
    p.add_argument("--model", help="extractive (default), chat:<provider>:<model>, or openai:<model>@<base_url>")
    p.add_argument("--reply", action="append", metavar="FIELD=VALUE", help="answer a clarify question (repeatable)")
    p.add_argument("--json", action="store_true", help="print the envelope as JSON")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser(
        "ingest",
        help="index .txt, .md and .pdf files into a store",
        description="Index files (folders recursively). `source_id` is the path relative to the "
        "folder given, or the file name. A sidecar NAME.meta.yaml sets policy_label, license, "
        "attribution, provenance_kind. Unchanged files are skipped; changed ones get a new version.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    store_options(p)
    p.add_argument("--label", help="policy_label for every file ingested (overrides sidecars)")
    p.add_argument("--embedder", choices=["minilm", "hashing"], help="dense embedder for a new store (default minilm)")
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("sources", help="list the sources in a store")
    store_options(p)
    p.add_argument("--all", action="store_true", help="include superseded versions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sources)

    p = sub.add_parser(
        "search",
        help="hybrid retrieval: print pointers (EvidenceRefs), never text",
        description="Lexical (BM25) and dense retrieval fused by rank. Prints EvidenceRefs "
        "readable by --role; read their text with `quotebound tool`.",
    )
    p.add_argument("query")
    store_options(p)
    p.add_argument("--top-k", type=int, default=8)
    p.add_argument("--role", default="public")
    policy_option(p)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser(
        "tool",
        help="call one allowlisted tool as the model would, print its JSON result",
        description="Tools: quote_fetch {source_id, locator | pattern, regex?}, "
        "search_source {source_id, pattern, top_n?, regex?}, calc {expr}, resolve_evidence {ref}.",
    )
    p.add_argument("name", metavar="NAME")
    p.add_argument("json_args", metavar="JSON-ARGS")
    store_options(p)
    p.add_argument("--role", default="public")
    policy_option(p)
    p.set_defaults(func=cmd_tool)

    from quotebound.agent.cli.audit import add_audit_parser
    from quotebound.agent.cli.eval import add_eval_parser
    from quotebound.agent.cli.serve import add_serve_parser
    from quotebound.agent.cli.trace import add_trace_parser

    add_audit_parser(sub)
    add_eval_parser(sub)
    add_serve_parser(sub)
    add_trace_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (CallerError, ModelError) as exc:
        sys.stderr.write(f"error: {exc.message}\n")
        return EXIT_USAGE
    except OperatorError as exc:
        sys.stderr.write(f"error ({exc.code.value}): {exc.message}\n")
        return EXIT_OPERATOR
    except QuoteboundError as exc:  # pragma: no cover - every error is one of the three above
        sys.stderr.write(f"error: {exc.message}\n")
        return EXIT_FAILED
    except BrokenPipeError:  # the reader went away (`quotebound trace ID | head`): not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's own final flush does not fail again
        return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
