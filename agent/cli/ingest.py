"""`quotebound ingest PATH...`: index .txt, .md and .pdf files (folders recursively) into a store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from quotebound.agent.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    Progress,
    print_json,
    settings_from_args,
    store_options,
)
from quotebound.tools.store import Store


def cmd_ingest(args: argparse.Namespace) -> int:
    from quotebound.tools.ingest import Ingestor  # deferred: its PDF reader (pypdf) would slow `quotebound --help`

    with Store(settings_from_args(args), create=True) as store:
        report = Ingestor(store).ingest([Path(p) for p in args.paths], label=args.label, progress=Progress(sys.stderr))
    for path, why in report.failed:
        sys.stderr.write(f"error: {path}: {why}\n")
    if args.json:
        print_json(
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


def add_parser(sub: Any) -> None:
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
