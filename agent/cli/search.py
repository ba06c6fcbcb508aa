"""`quotebound search QUERY`: hybrid retrieval as a role sees it; prints pointers (EvidenceRefs), never text."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from quotebound.agent.cli.common import EXIT_OK, policy_option, print_json, settings_from_args, store_options
from quotebound.tools.corpus import Corpus
from quotebound.tools.store import Store


def cmd_search(args: argparse.Namespace) -> int:
    # deferred: the policy and retrieval modules would slow `quotebound --help`
    from quotebound.tools.context import ToolContext
    from quotebound.tools.policy import Caller
    from quotebound.tools.policy_file import load_policy
    from quotebound.tools.retrieval import HybridRetriever

    settings = settings_from_args(args)
    policy = load_policy(settings)  # before the store opens: a bad policy file fails fast
    with Store(settings) as store:
        ctx = ToolContext(Corpus(store), caller=Caller(role=args.role), policy=policy)
        hits = HybridRetriever(store).search(
            args.query, top_k=args.top_k, allow=ctx.can_read, changed=ctx.changed_chunks
        )
    if args.json:
        print_json([hit.model_dump(mode="json") for hit in hits], sys.stdout)
    else:
        for hit in hits:
            print(f"{hit.score:.4f}  {hit.ref()}  (lexical #{hit.lexical_rank or '-'}, dense #{hit.dense_rank or '-'})")
    return EXIT_OK


def add_parser(sub: Any) -> None:
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
