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
from quotebound.agent.core.settings import RetrievalSettings
from quotebound.tools.store import Store

#: Skipped paths listed one per line on stderr before the rest are summed up (`--json` lists them all).
MAX_SKIPPED_SHOWN = 20


def _line_cap(text: str) -> int:
    """`--max-line-chars`: an integer inside the setting's bounds (argparse makes a bad one a usage error)."""
    try:
        return RetrievalSettings(max_line_chars=int(text)).max_line_chars
    except ValueError as exc:  # int() or pydantic's ValidationError (a ValueError)
        limits = {
            name: getattr(item, name)
            for item in RetrievalSettings.model_fields["max_line_chars"].metadata
            for name in ("ge", "le")
            if hasattr(item, name)
        }
        raise argparse.ArgumentTypeError(
            f"expected an integer from {limits['ge']:,} to {limits['le']:,}, got {text!r}"
        ) from exc


def cmd_ingest(args: argparse.Namespace) -> int:
    from quotebound.tools.ingest import (  # deferred: pypdf would slow `quotebound --help`
        SKIP_SIDECAR,
        Ingestor,
        one_line,
    )

    settings = settings_from_args(args)
    if args.max_line_chars is not None:
        retrieval = RetrievalSettings.model_validate(
            {**settings.retrieval.model_dump(), "max_line_chars": args.max_line_chars}
        )
        settings = settings.model_copy(update={"retrieval": retrieval})
    with Store(settings, create=True) as store:
        report = Ingestor(store).ingest([Path(p) for p in args.paths], label=args.label, progress=Progress(sys.stderr))
    for path, why in report.failed:
        sys.stderr.write(f"error: {one_line(path)}: {one_line(why)}\n")
    # Sidecars were read as metadata; everything else not read is named, with why.
    shown = [name for name in report.skipped if report.skip_reasons.get(name) != SKIP_SIDECAR]
    if not report.ingested:
        shown = report.skipped  # nothing ingested: say everything that was looked at
    for name in shown[:MAX_SKIPPED_SHOWN]:
        sys.stderr.write(f"skipped: {one_line(name)}: {report.skip_reasons.get(name, '')}\n")
    if len(shown) > MAX_SKIPPED_SHOWN:
        sys.stderr.write(f"skipped: {len(shown) - MAX_SKIPPED_SHOWN} more (`--json` lists them all)\n")
    if args.json:
        print_json(
            {
                "added": report.added,
                "updated": report.updated,
                "unchanged": report.unchanged,
                "skipped": report.skipped,
                "skip_reasons": report.skip_reasons,
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
    if not report.ingested:
        looked_at = len(report.skipped) + len(report.failed)
        sys.stderr.write(
            f"error: nothing ingested ({len(report.skipped)} skipped, {len(report.failed)} failed, listed above): "
            "quotebound reads .txt, .md, .markdown and .pdf files\n"
            if looked_at
            else "error: nothing ingested: no files found; quotebound reads .txt, .md, .markdown and .pdf files\n"
        )
        return EXIT_FAILED
    return EXIT_OK if report.ok else EXIT_FAILED


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "ingest",
        help="index .txt, .md and .pdf files into a store",
        description="Index files (folders recursively). `source_id` is the path relative to the "
        "folder given, or the file name. A sidecar NAME.meta.yaml sets policy_label, license, "
        "attribution, provenance_kind. Unchanged files are skipped; changed ones get a new version. "
        "Links are followed only inside the folder given; everything not read is listed with why. "
        "Exit 1 if a file failed or nothing was ingested.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    store_options(p)
    p.add_argument("--label", help="policy_label for every file ingested (overrides sidecars)")
    p.add_argument("--embedder", choices=["minilm", "hashing"], help="dense embedder for a new store (default minilm)")
    p.add_argument(
        "--max-line-chars",
        type=_line_cap,
        metavar="N",
        help=f"refuse files with a line longer than N characters (default {RetrievalSettings().max_line_chars:,})",
    )
    p.add_argument("--json", action="store_true", help="print a JSON report")
    p.set_defaults(func=cmd_ingest)
