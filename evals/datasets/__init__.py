"""Public benchmark datasets as quotebound corpora, golden sets and dataset-specific scores.

Each adapter (`ramdocs`, `tatqa`, `bipia_email`) turns a dataset read from `DATASETS_DIR` (never copied into the
repo) into documents to ingest, one `GoldenSet` case per question scoped to its own documents (`ScopedPolicy`
from `evals/bipia.py`, the case's `labels` naming its source ids), and pure scoring functions over an `Outcome`
(`outcome.py`: a gated envelope, a naive draft or a raw reply, seen the same way) and the dataset record.
`corpus.py` writes and ingests the documents in shards small enough that every chunk is a retrieval candidate;
`gated.py` runs cases through the full graph; `evals/naive.py` is the same retrieval and model with no gate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from quotebound.evals.golden import GoldenSet

# /work/main/evals/datasets -> /work/shared/datasets (the datasets live beside the repo, read-only).
DATASETS_DIR: Final = Path(__file__).resolve().parents[3] / "shared" / "datasets"


def write_golden_jsonl(golden: GoldenSet, path: Path) -> Path:
    """Write a golden set as JSONL (one case a line, defaults left out), loadable by `load_golden_set`."""
    lines = [case.model_dump_json(exclude_defaults=True) for case in golden.cases]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
