"""Ingest: every format, the locator index, idempotence, versioning and bad files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from quotebound.agent.core.contracts import Locator
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import IngestReport
from quotebound.tools.quote_fetch import quote_fetch

Ingest = Callable[..., IngestReport]

MD = (
    "# Budget 2025\n\nThe monthly assessment is $325.00 per unit.\nReserves: $48,000.\n\n"
    "## Notes\nApproved on 2025-01-14.\n"
)
TXT = "Line one.\nLine two has 17 apples.\n\n\nLine five.\n"


def make_pdf(path: Path, pages: list[list[str]]) -> Path:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for lines in pages:
        pdf.add_page()
        for line in lines:
            pdf.cell(0, 8, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_ingests_txt_md_and_pdf_with_readable_source_ids(
    tmp_path: Path, make_files, ingest: Ingest, corpus: Corpus
) -> None:
    root = make_files({"budget.md": MD, "notes/plain.txt": TXT})
    make_pdf(root / "minutes.pdf", [["Minutes of the board", "Quorum was 3 of 5."], ["Page two: dues rise 4%."]])
    report = ingest(root)
    assert report.ok, report.failed
    assert sorted(report.added) == ["budget.md", "minutes.pdf", "notes/plain.txt"]
    pdf = corpus.source("minutes.pdf")
    assert pdf is not None and pdf.n_pages == 2 and pdf.media_type == "application/pdf"
    assert corpus.text_at("minutes.pdf", 1, Locator.parse("p.2 L1")) == "Page two: dues rise 4%."
    md = corpus.source("budget.md")
    assert md is not None and md.title == "Budget 2025" and md.media_type == "text/markdown"


def test_every_locator_round_trips_through_quote_fetch(make_files, ingest: Ingest, corpus: Corpus) -> None:
    root = make_files({"budget.md": MD, "plain.txt": TXT})
    make_pdf(root / "m.pdf", [["Alpha line", "Beta line"], ["Gamma line"]])
    assert ingest(root).ok
    ctx = ToolContext(corpus)
    checked = 0
    for source in corpus.sources():
        lines = {(p, n): t for p, n, t in corpus.iter_lines(source.source_id, source.version)}
        for locator in corpus.chunk_locators(source.source_id, source.version):
            span = Locator.parse(locator)
            expected = "\n".join(lines[(span.page, n)] for n in range(span.line_start, span.line_end + 1))
            assert quote_fetch(ctx, source.source_id, locator=locator).quote == expected
            checked += 1
        for (page, line_no), text in lines.items():
            single = f"p.{page} L{line_no}-L{line_no}"
            assert corpus.locator_exists(source.source_id, single)
            assert quote_fetch(ctx, source.source_id, locator=single).quote == text
    assert checked >= 5


def test_reingesting_unchanged_files_is_a_no_op(make_files, ingest: Ingest, corpus: Corpus, store) -> None:
    root = make_files({"budget.md": MD})
    assert ingest(root).added == ["budget.md"]
    rows_before = store.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
    again = ingest(root)
    assert again.unchanged == ["budget.md"] and not again.added and not again.updated
    assert store.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == rows_before
    assert [s.version for s in corpus.sources(include_old=True)] == [1]


def test_a_changed_file_becomes_a_new_version_and_the_old_one_stays_resolvable(
    make_files, ingest: Ingest, corpus: Corpus
) -> None:
    root = make_files({"budget.md": MD})
    ingest(root)
    (root / "budget.md").write_text(MD.replace("$325.00", "$340.00"), encoding="utf-8")
    report = ingest(root)
    assert report.updated == ["budget.md"]
    current = corpus.source("budget.md")
    old = corpus.source("budget.md", version=1)
    assert current is not None and current.version == 2 and current.current
    assert old is not None and not old.current
    span = Locator.parse("p.1 L3")
    assert "$340.00" in corpus.text_at("budget.md", 2, span)
    assert "$325.00" in corpus.text_at("budget.md", 1, span)
    # the retired version leaves lexical retrieval
    hits = corpus.chunk_pointers(cid for cid, _ in corpus.lexical_search("325.00 assessment", 10))
    assert all(p.version == 2 for p in hits.values())


def test_a_label_change_in_the_sidecar_is_a_new_version(make_files, ingest: Ingest, corpus: Corpus) -> None:
    root = make_files({"a.md": MD})
    ingest(root)
    (root / "a.md.meta.yaml").write_text("policy_label: restricted\nprovenance_kind: primary\n", encoding="utf-8")
    assert ingest(root).updated == ["a.md"]
    source = corpus.source("a.md")
    assert source is not None and source.policy_label == "restricted" and source.provenance_kind == "primary"


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("empty.txt", b"", "empty file"),
        ("blank.md", b"\n\n   \n", "no text"),
        ("binary.txt", b"abc\x00\x01\x02def", "binary"),
        ("latin1.txt", "caf\u00e9 cr\u00e8me".encode("latin-1"), "not valid UTF-8"),
        ("broken.pdf", b"%PDF-1.4\n this is not really a pdf", "PDF"),
    ],
)
def test_bad_files_are_named_and_leave_nothing_behind(
    make_files, ingest: Ingest, corpus: Corpus, store, name: str, content: bytes, why: str
) -> None:
    root = make_files({"good.md": MD, name: content})
    report = ingest(root)
    assert report.added == ["good.md"]
    assert len(report.failed) == 1
    path, message = report.failed[0]
    assert path.endswith(name) and why in message
    assert corpus.source(name) is None
    assert store.db.execute("SELECT COUNT(*) FROM lines WHERE source_id = ?", (name,)).fetchone()[0] == 0


def test_bad_sidecar_fails_that_file_only(make_files, ingest: Ingest, corpus: Corpus) -> None:
    root = make_files({"a.md": MD, "a.md.meta.yaml": "provenance_kind: tertiary\n", "b.md": MD})
    report = ingest(root)
    assert report.added == ["b.md"]
    assert "provenance_kind" in report.failed[0][1]
    assert corpus.source("a.md") is None


def test_sidecars_and_unsupported_files_are_not_sources(make_files, ingest: Ingest, corpus: Corpus) -> None:
    root = make_files({"a.md": MD, "a.md.meta.yaml": "license: CC-BY-4.0\n", "image.png": b"\x89PNG", ".hidden.md": MD})
    report = ingest(root)
    assert report.added == ["a.md"]
    assert "image.png" in report.skipped
    assert [s.source_id for s in corpus.sources()] == ["a.md"]


def test_missing_path_is_reported(tmp_path: Path, ingest: Ingest) -> None:
    report = ingest(tmp_path / "nowhere")
    assert not report.ok and "no such file" in report.failed[0][1]


def test_failed_vector_write_rolls_back_the_file(
    make_files, ingest: Ingest, corpus: Corpus, store, monkeypatch
) -> None:
    from quotebound.agent.core.errors import ErrorCode, OperatorError

    root = make_files({"a.md": MD})

    def down(*args: object, **kwargs: object) -> None:
        raise OperatorError(ErrorCode.RETRIEVAL_UNAVAILABLE, "vector store down")

    monkeypatch.setattr(type(store.vectors), "upsert", down)
    report = ingest(root)
    assert not report.ok and "vector store down" in report.failed[0][1]
    assert corpus.source("a.md") is None
    assert store.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 0
