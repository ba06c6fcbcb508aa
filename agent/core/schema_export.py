"""Write the JSON Schema of every public contract to disk: `python -m quotebound.agent.core.schema_export [DIR]`.

The files in `agent/core/schemas/` are checked in (and shipped as package data) so that clients in other languages
can validate envelopes without Python; `tests/unit/test_schemas.py` fails when they drift from the models.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, TypeAdapter

from quotebound.agent.core.contracts import (
    SCHEMA_VERSION,
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerObject,
    AskRequest,
    CalcResult,
    ClarifyEnvelope,
    Conflict,
    Envelope,
    ErrorEnvelope,
    EvidenceBundle,
    EvidenceRef,
    Fact,
    Gap,
    Locator,
    QuoteResult,
    ResumeRequest,
    RetrievalHit,
    SearchHit,
    Source,
    Support,
)
from quotebound.agent.core.receipt import Receipt

SCHEMA_DIR: Final = Path(__file__).resolve().parent / "schemas"
EXPORT_COMMAND: Final = "python -m quotebound.agent.core.schema_export"
# Only files named like an exported schema are pruned, so a mistaken DIR never loses unrelated JSON.
_SCHEMA_FILE_RE: Final = re.compile(r"^[a-z0-9_]+\.v[0-9]+\.json$")


# Each public contract, by the name its schema file is exported under (`<name>.v1.json`).
CONTRACTS: Final[dict[str, type[BaseModel]]] = {
    "source": Source,
    "locator": Locator,
    "evidence_ref": EvidenceRef,
    "evidence_bundle": EvidenceBundle,
    "support": Support,
    "fact": Fact,
    "gap": Gap,
    "conflict": Conflict,
    "answer_object": AnswerObject,
    "ask_request": AskRequest,
    "resume_request": ResumeRequest,
    "answer_envelope": AnswerEnvelope,
    "abstain_envelope": AbstainEnvelope,
    "clarify_envelope": ClarifyEnvelope,
    "error_envelope": ErrorEnvelope,
    "retrieval_hit": RetrievalHit,
    "search_hit": SearchHit,
    "quote_result": QuoteResult,
    "calc_result": CalcResult,
    "receipt": Receipt,
}


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of each public contract, keyed by the file name it is exported under."""
    schemas = {f"{name}.{SCHEMA_VERSION}.json": model.model_json_schema() for name, model in CONTRACTS.items()}
    schemas[f"envelope.{SCHEMA_VERSION}.json"] = TypeAdapter(Envelope).json_schema()
    return schemas


def render(schema: dict[str, Any]) -> str:
    """Pretty, sorted-keys JSON with a trailing newline: stable bytes, readable diffs."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def rendered_schemas() -> dict[str, str]:
    """File name -> file text, for every schema the contracts produce now."""
    return {name: render(schema) for name, schema in sorted(json_schemas().items())}


def export(directory: Path, *, prune: bool = True) -> list[Path]:
    """Write every schema into `directory`; with `prune`, delete schema files no contract produces any more."""
    directory.mkdir(parents=True, exist_ok=True)
    expected = rendered_schemas()
    written: list[Path] = []
    for name, text in expected.items():
        path = directory / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    if prune:
        for stale in sorted(directory.iterdir()):
            if stale.is_file() and _SCHEMA_FILE_RE.match(stale.name) and stale.name not in expected:
                stale.unlink()
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=EXPORT_COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "directory", nargs="?", type=Path, default=SCHEMA_DIR, help=f"where to write (default: {SCHEMA_DIR})"
    )
    args = parser.parse_args(argv)
    for path in export(args.directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
