"""`quotebound ask QUESTION`: one run of the cite-or-abstain graph; `--session ID --reply FIELD=VALUE` resumes one.

On a terminal without `--json` the clarify questions are asked interactively; otherwise a clarify exits 0 and
says how to resume. An error envelope (the run could not be recorded, or the store failed) exits 3, and so does an
abstention because the answering model or the index failed (`model_error`, `retrieval_unavailable`): quotebound
failed there, not the evidence.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from quotebound.agent.cli.common import (
    EXIT_OK,
    EXIT_OPERATOR,
    policy_option,
    print_json,
    settings_from_args,
    store_options,
)
from quotebound.agent.cli.render import render_envelope
from quotebound.agent.core.contracts import AskRequest, ResumeRequest
from quotebound.agent.core.errors import CallerError, ErrorCode


def parse_replies(pairs: list[str]) -> dict[str, str]:
    replies: dict[str, str] = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field.strip():
            raise CallerError(ErrorCode.BAD_REQUEST, f"--reply takes field=value, not {pair!r}")
        replies[field.strip()] = value
    return replies


def cmd_ask(args: argparse.Namespace) -> int:
    # deferred: the agent loads langgraph and the stores, which would slow `quotebound --help`
    from quotebound.agent.facade.agent import Agent
    from quotebound.tools.policy_file import load_policy

    replies = parse_replies(args.reply or [])
    if replies and not args.session:
        raise CallerError(ErrorCode.BAD_REQUEST, "--reply resumes a paused run: give its --session too")
    if not replies and not args.question:
        raise CallerError(ErrorCode.BAD_REQUEST, "give a QUESTION (or --session ID --reply field=value to resume)")
    settings = settings_from_args(args)
    if args.model:
        settings = settings.model_copy(update={"model": args.model})
    policy = load_policy(settings)  # before the agent opens the store: a bad policy file fails fast
    # The requests are built unchecked: the agent validates every request, and a bad one is a CallerError (exit 2).
    with Agent(settings, policy=policy) as agent:
        if replies:
            envelope = agent.resume(ResumeRequest.model_construct(session_id=args.session, replies=replies))
        else:
            request = AskRequest.model_construct(
                question=args.question, session_id=args.session, role=args.role, labels=args.label or [], context={}
            )
            envelope = agent.ask(request)
        interactive = not args.json and sys.stdin.isatty() and sys.stdout.isatty()
        while envelope.status == "clarify" and interactive:
            print(render_envelope(envelope))
            answers = {q.field: input(f"{q.prompt} > ") for q in envelope.questions}
            envelope = agent.resume(ResumeRequest.model_construct(session_id=envelope.session_id, replies=answers))
    if args.json:
        print_json(envelope.model_dump(mode="json"), sys.stdout)
    else:
        print(render_envelope(envelope))
        if envelope.status == "clarify":
            print(
                f"resume with: quotebound ask --store {args.store} --session {envelope.session_id} --reply FIELD=VALUE"
            )
    return EXIT_OPERATOR if failed(envelope) else EXIT_OK


# Abstentions where quotebound itself failed, not the evidence: the operator must act, as for an error envelope.
SYSTEM_FAILURES = frozenset({"model_error", "retrieval_unavailable"})


def failed(envelope: Any) -> bool:
    """An error envelope, or an abstention because the answering model or the index failed."""
    return envelope.status == "error" or (envelope.status == "abstain" and str(envelope.reason_code) in SYSTEM_FAILURES)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "ask",
        help="ask a question: a verified answer with citations, a clarify question, or an abstention",
        description="Runs the cite-or-abstain graph. With --json it prints exactly one envelope (status answer, "
        "abstain, clarify or error). A clarify exits 0; resume it with --session ID --reply field=value. On a "
        "terminal without --json the clarify questions are asked interactively. An error envelope (the run could "
        "not be recorded in the audit ledger, or the store failed) carries no answer and exits 3; so does an "
        "abstention because the answering model could not be reached or failed (reason model_error) or the index "
        "is unavailable (retrieval_unavailable). Any error is one line on stderr; with --json, stdout still has "
        "exactly one envelope (status error for a bad request or a store that will not open).",
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
