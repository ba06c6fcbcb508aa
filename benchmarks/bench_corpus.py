"""Ingest throughput and retrieval latency on generated corpora. Prints figures; asserts nothing.

    python benchmarks/bench_corpus.py [--embedder minilm|hashing] [--queries 200] [--pdfs 20] [--sizes 1000,10000]

1. Ingest a generated corpus of 1,000 PDF pages (`--pdfs` 20 PDFs of 50 pages): chunks/s and pages/s.
2. Retrieval latency (hybrid, lexical only, dense only) p50/p95 over a query set at 1k and 10k chunks (`--sizes`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from quotebound.agent.core.settings import Settings
from quotebound.tools.ingest import Ingestor
from quotebound.tools.retrieval import HybridRetriever
from quotebound.tools.store import Store

WORDS = (
    "assessment reserve budget board quorum lease parking landscaping insurance roof repair owner unit bylaws "
    "declaration meeting minutes vote director officer treasurer fence pool pet noise rental garage water"
).split()


def sentence(rng: random.Random, i: int) -> str:
    words = rng.sample(WORDS, 7)
    return f"{' '.join(words).capitalize()} item {i} costs ${rng.randint(100, 99_999):,}.{rng.randint(0, 99):02d}."


def make_pdfs(root: Path, rng: random.Random, files: int = 20, pages: int = 50, lines: int = 12) -> int:
    from fpdf import FPDF

    n = 0
    for f in range(files):
        pdf = FPDF()
        pdf.set_font("Helvetica", size=9)
        for _ in range(pages):
            pdf.add_page()
            for j in range(lines):
                pdf.cell(0, 5, sentence(rng, n), new_x="LMARGIN", new_y="NEXT")
                n += 1
                if j % 4 == 3:
                    pdf.cell(0, 5, "", new_x="LMARGIN", new_y="NEXT")
        pdf.output(str(root / f"report-{f:02d}.pdf"))
    return files * pages


def make_markdown(root: Path, rng: random.Random, chunks: int, per_file: int = 100) -> None:
    n = 0
    for f in range(0, chunks, per_file):
        paragraphs = []
        for _ in range(min(per_file, chunks - f)):
            paragraphs.append("\n".join(sentence(rng, n + k) for k in range(3)))
            n += 3
        (root / f"notes-{f // per_file:03d}.md").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def time_queries(store: Store, queries: list[str], *, lexical: bool, dense: bool) -> tuple[float, float]:
    retriever = HybridRetriever(store)
    retriever.search(queries[0], lexical=lexical, dense=dense)  # warm-up: loads the model and the collection
    times = []
    for query in queries:
        t0 = time.perf_counter()
        retriever.search(query, top_k=8, lexical=lexical, dense=dense)
        times.append((time.perf_counter() - t0) * 1000)
    return percentile(times, 0.5), percentile(times, 0.95)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--pdfs", type=int, default=20, help="generated PDFs of 50 pages each (default 20)")
    parser.add_argument("--sizes", default="1000,10000", help="markdown corpus sizes in chunks, comma-separated")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]
    rng = random.Random(7)
    queries = [f"{' '.join(rng.sample(WORDS, 3))} item {rng.randint(0, 9000)}" for _ in range(args.queries)]

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "pdf"
        docs.mkdir()
        pages = make_pdfs(docs, rng, files=args.pdfs)
        with Store(Settings(store=Path(tmp) / "store-pdf", embedder=args.embedder), create=True) as store:
            t0 = time.perf_counter()
            report = Ingestor(store).ingest([docs])
            elapsed = time.perf_counter() - t0
            assert report.ok, report.failed
            print(f"ingest {pages} PDF pages ({report.chunks} chunks, embedder={args.embedder}): {elapsed:.1f} s = "
                  f"{report.chunks / elapsed:.0f} chunks/s, {pages / elapsed:.1f} pages/s")  # fmt: skip

        for size in sizes:
            root = Path(tmp) / f"md-{size}"
            root.mkdir()
            make_markdown(root, rng, size)
            with Store(Settings(store=Path(tmp) / f"store-{size}", embedder=args.embedder), create=True) as store:
                t0 = time.perf_counter()
                report = Ingestor(store).ingest([root])
                elapsed = time.perf_counter() - t0
                print(
                    f"ingest {report.chunks} markdown chunks: {elapsed:.1f} s = {report.chunks / elapsed:.0f} chunks/s"
                )
                for label, lexical, dense in (
                    ("hybrid", True, True),
                    ("lexical", True, False),
                    ("dense", False, True),
                ):
                    p50, p95 = time_queries(store, queries, lexical=lexical, dense=dense)
                    print(f"retrieval {label:<8} at {report.chunks:>6} chunks: p50 {p50:.1f} ms, p95 {p95:.1f} ms "
                          f"({len(queries)} queries)")  # fmt: skip
    print(f"(python {statistics.__name__} percentiles over single-threaded calls on this machine)")


if __name__ == "__main__":
    main()
