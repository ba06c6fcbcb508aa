"""What every subcommand shares: exit codes, settings from flags, the store and policy flags, JSON and progress."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from quotebound.agent.core.errors import ErrorCode
from quotebound.agent.core.run_errors import request_error_envelope
from quotebound.agent.core.settings import Settings

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_OPERATOR = 0, 1, 2, 3


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The `QUOTEBOUND_*` environment, overridden by the flags the subcommand has and the caller gave."""
    return Settings.from_env(
        store=getattr(args, "store", None),
        embedder=getattr(args, "embedder", None),
        qdrant_url=getattr(args, "qdrant_url", None),
        policy_file=getattr(args, "policy", None),
    )


def store_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", default=".quotebound", help="store folder (default: .quotebound)")
    parser.add_argument(
        "--qdrant-url", help="a Qdrant server instead of the embedded store (env QUOTEBOUND_QDRANT_URL)"
    )


def ledger_options(parser: argparse.ArgumentParser) -> None:
    """The options of the commands that read a store's records (audit, trace, replay, recheck)."""
    parser.add_argument("--store", default=".quotebound", help="store folder (default: .quotebound)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def policy_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--policy", type=Path, metavar="FILE", help="policy file (env QUOTEBOUND_POLICY; default: public only)"
    )


def print_json(data: Any, out: TextIO) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


MAX_MESSAGE_CHARS = 500


def one_line(message: str) -> str:
    """`message` on one line (a library's multi-line text folded), cut to a length a terminal line can show."""
    folded = " ".join(message.split())
    return folded if len(folded) <= MAX_MESSAGE_CHARS else folded[: MAX_MESSAGE_CHARS - 1] + "\u2026"


def report_error(args: argparse.Namespace, code: ErrorCode, message: str, *, operator: bool = False) -> None:
    """An error, said once: one line on stderr and, with `--json`, the error envelope on stdout (so a `--json`
    run always prints exactly one JSON document). `operator`: name the code, the operator must act."""
    line = one_line(message)
    sys.stderr.write(f"error ({code.value}): {line}\n" if operator else f"error: {line}\n")
    if getattr(args, "json", False):
        print_json(request_error_envelope(code, line).model_dump(mode="json"), sys.stdout)


def fail(
    args: argparse.Namespace, message: str, *, code: ErrorCode = ErrorCode.BAD_REQUEST, exit_code: int = EXIT_FAILED
) -> int:
    """A command's own failure (no such run, no such receipt): its one line on stderr, in the command's words, and
    with `--json` the error envelope on stdout; returns `exit_code`."""
    sys.stderr.write(one_line(message) + "\n")
    if getattr(args, "json", False):
        print_json(request_error_envelope(code, one_line(message)).model_dump(mode="json"), sys.stdout)
    return exit_code


class Progress:
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
