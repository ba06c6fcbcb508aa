"""`quotebound tool NAME JSON-ARGS`: call one allowlisted tool as the model would, and print its JSON result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from quotebound.agent.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    policy_option,
    print_json,
    settings_from_args,
    store_options,
)
from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.tools.corpus import Corpus
from quotebound.tools.store import Store


def cmd_tool(args: argparse.Namespace) -> int:
    # deferred: the registry loads langchain's tool schemas, which would slow `quotebound --help`
    from quotebound.tools.context import ToolContext
    from quotebound.tools.policy import Caller
    from quotebound.tools.policy_file import load_policy
    from quotebound.tools.registry import ToolRegistry

    try:
        tool_args = json.loads(args.json_args)
    except json.JSONDecodeError as exc:
        raise CallerError(ErrorCode.BAD_REQUEST, f"JSON-ARGS is not valid JSON ({exc.msg} at {exc.pos})") from exc
    settings = settings_from_args(args)
    policy = load_policy(settings)
    with Store(settings) as store:
        registry = ToolRegistry(ToolContext(Corpus(store), caller=Caller(role=args.role), policy=policy))
        outcome = registry.invoke(args.name, tool_args)
    print_json(outcome, sys.stdout)
    return EXIT_OK if outcome["ok"] else EXIT_FAILED


def add_parser(sub: Any) -> None:
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
