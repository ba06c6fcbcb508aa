"""Write the JSON Schemas of the eval files: `python -m quotebound.evals.schema_export [DIR]`.

`evals/schemas/` is checked in (and shipped) so editors and other tools can validate golden sets, gates and
reports; `tests/unit/test_golden.py` fails when a file drifts from its model.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from quotebound.agent.core.schema_export import render
from quotebound.evals.gate import Gate
from quotebound.evals.golden import golden_set_schema
from quotebound.evals.report import EvalReport

SCHEMA_DIR: Final = Path(__file__).resolve().parent / "schemas"
EXPORT_COMMAND: Final = "python -m quotebound.evals.schema_export"


def rendered_schemas() -> dict[str, str]:
    return {
        "golden_set.v1.json": render(golden_set_schema()),
        "eval_gate.v1.json": render(Gate.model_json_schema(by_alias=True)),
        "eval_report.v1.json": render(EvalReport.model_json_schema(by_alias=True)),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=EXPORT_COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("directory", nargs="?", type=Path, default=SCHEMA_DIR)
    args = parser.parse_args(argv)
    args.directory.mkdir(parents=True, exist_ok=True)
    for name, text in rendered_schemas().items():
        path = args.directory / name
        path.write_text(text, encoding="utf-8", newline="\n")
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
