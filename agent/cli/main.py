"""The `quotebound` command line: builds the parser from one module per subcommand, and dispatches.

Each subcommand module (`ask`, `ingest`, `sources`, `search`, `tool`, `audit`, `eval`, `serve`, `trace`) exposes
`add_parser(subparsers)` and its run function; heavy libraries load inside the run functions, so `--help` stays
instant.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

from quotebound.agent.cli import ask, audit, ingest, search, serve, sources, tool, trace
from quotebound.agent.cli import eval as eval_command
from quotebound.agent.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_OPERATOR,
    EXIT_USAGE,
    one_line,
    print_json,
    report_error,
)
from quotebound.agent.core.errors import CallerError, ErrorCode, ModelError, OperatorError, QuoteboundError
from quotebound.agent.core.run_errors import request_error_envelope
from quotebound.agent.core.storage_errors import storage_error
from quotebound.agent.core.version import __version__

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_OPERATOR", "EXIT_USAGE", "build_parser", "main"]

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
or request, 3 misconfiguration or an unavailable store or model (the operator must act); `ask` also exits 3 when
it prints an error envelope (status "error", e.g. the audit ledger could not record the run, so no answer was
given) or abstains because the answering model or the index failed (reason model_error or retrieval_unavailable).
Errors are one line on stderr (`quotebound -v ...` prints tracebacks); with --json, stdout has exactly one JSON
document even then: the error envelope (status "error", code, message).
"""

# In the order `--help` lists them.
SUBCOMMANDS = (ask, ingest, sources, search, tool, audit, eval_command, serve, trace)


class UsageError(Exception):
    """A command line argparse could not parse; raised instead of exiting, so `--json` still gets its envelope."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _Parser(argparse.ArgumentParser):
    # Subparsers are made with the parent's class, so every subcommand raises too.
    def error(self, message: str) -> NoReturn:
        raise UsageError(self, message)


class _OneLineFormatter(logging.Formatter):
    """A log record as one line: the message, and the exception's type and text (never its traceback)."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            message += f" [{type(exc).__name__}: {exc}]"
        return f"{record.levelname.lower()}: {one_line(message)}"


@contextmanager
def _log_to_stderr(verbose: bool) -> Iterator[None]:
    """Log records nobody configured a handler for (what Python's `logging.lastResort` prints, tracebacks and
    all) as one line each on stderr; `-v` keeps the tracebacks. An application that configured logging keeps
    its own handlers: this replaces the last resort only."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s") if verbose else _OneLineFormatter())
    previous, logging.lastResort = logging.lastResort, handler
    try:
        yield
    finally:
        logging.lastResort = previous


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="quotebound", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"quotebound {__version__}")
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="print tracebacks with errors and log messages (for a bug report)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(sub)
    return parser


def _usage_error(exc: UsageError, argv: list[str]) -> int:
    exc.parser.print_usage(sys.stderr)
    sys.stderr.write(f"{exc.parser.prog}: error: {one_line(exc.message)}\n")
    if "--json" in argv:
        envelope = request_error_envelope(ErrorCode.BAD_REQUEST, one_line(exc.message))
        print_json(envelope.model_dump(mode="json"), sys.stdout)
    return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    """The command, with every error it raises reported once (one line; with --json, one envelope too)."""
    try:
        return int(args.func(args))
    except (CallerError, ModelError) as exc:
        report_error(args, exc.code, exc.message)
        return EXIT_USAGE
    except OperatorError as exc:
        report_error(args, exc.code, exc.message, operator=True)
        return EXIT_OPERATOR
    except QuoteboundError as exc:  # pragma: no cover - every error is one of the three above
        report_error(args, exc.code, exc.message)
        return EXIT_FAILED
    except BrokenPipeError:  # the reader went away (`quotebound trace ID | head`): not an error of ours
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's own final flush does not fail again
        return EXIT_OK
    except (sqlite3.Error, OSError) as exc:
        # The disk or a file refused, somewhere no layer below named it: say what is wrong (read-only, no space,
        # permission denied) about the file the error names, else the store.
        named = exc.filename if isinstance(exc, OSError) and exc.filename else None
        where = Path(named) if named else Path(getattr(args, "store", None) or ".")
        error = storage_error(exc, where, "the file" if named else "the store")
        if args.verbose:
            traceback.print_exc()
        report_error(args, error.code, error.message, operator=True)
        return EXIT_OPERATOR
    except Exception as exc:  # a bug: one line (with -v, the traceback too) and, with --json, its envelope
        if args.verbose:
            traceback.print_exc()
        message = f"unexpected {type(exc).__name__}: {exc} (a bug: run with -v and report the traceback)"
        report_error(args, ErrorCode.INTERNAL_ERROR, message, operator=True)
        return EXIT_FAILED


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return _usage_error(exc, argv)
    if args.command == "serve":  # a server's log keeps its tracebacks
        return _run(args)
    with _log_to_stderr(args.verbose):
        return _run(args)


if __name__ == "__main__":
    raise SystemExit(main())
