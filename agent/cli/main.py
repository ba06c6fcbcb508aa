"""The `quotebound` command line: builds the parser from one module per subcommand, and dispatches.

Each subcommand module (`ask`, `ingest`, `sources`, `search`, `tool`, `audit`, `eval`, `serve`, `trace`) exposes
`add_parser(subparsers)` and its run function; heavy libraries load inside the run functions, so `--help` stays
instant.
"""

from __future__ import annotations

import argparse
import os
import sys

from quotebound.agent.cli import ask, audit, ingest, search, serve, sources, tool, trace
from quotebound.agent.cli import eval as eval_command
from quotebound.agent.cli.common import EXIT_FAILED, EXIT_OK, EXIT_OPERATOR, EXIT_USAGE
from quotebound.agent.core.errors import CallerError, ModelError, OperatorError, QuoteboundError
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
or request, 3 misconfiguration or an unavailable store (the operator must act); `ask` also exits 3 when it
prints an error envelope (status "error", e.g. the audit ledger could not record the run, so no answer was
given).
"""

# In the order `--help` lists them.
SUBCOMMANDS = (ask, ingest, sources, search, tool, audit, eval_command, serve, trace)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quotebound", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=f"quotebound {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in SUBCOMMANDS:
        command.add_parser(sub)
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
