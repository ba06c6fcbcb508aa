"""`quotebound sources`: list the sources in a store."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from quotebound.agent.cli.common import EXIT_OK, print_json, settings_from_args, store_options
from quotebound.tools.corpus import Corpus
from quotebound.tools.store import Store


def cmd_sources(args: argparse.Namespace) -> int:
    with Store(settings_from_args(args)) as store:
        sources = Corpus(store).sources(include_old=args.all)
    if args.json:
        print_json([s.model_dump(mode="json") for s in sources], sys.stdout)
        return EXIT_OK
    for s in sources:
        state = "" if s.current else " (superseded)"
        print(
            f"{s.source_id}  v{s.version}{state}  {s.media_type}  {s.n_pages}p/{s.n_lines}L  label={s.policy_label}  "
            f"{s.provenance_kind}  {s.title}"
        )
    return EXIT_OK


def add_parser(sub: Any) -> None:
    p = sub.add_parser("sources", help="list the sources in a store")
    store_options(p)
    p.add_argument("--all", action="store_true", help="include superseded versions")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sources)
