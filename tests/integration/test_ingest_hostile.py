"""Ingest against hostile or awkward folders, through `quotebound ingest` and the Python API: links out of the
folder, names the file system or a citation cannot hold, decompression bombs, huge lines, folders with nothing to
ingest. Each bad file is one line naming it; the other files still ingest."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from quotebound.agent.cli.main import EXIT_FAILED, EXIT_OK, main
from quotebound.agent.core.settings import RetrievalSettings, Settings
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

GOOD = "# Rules\n\nQuiet hours start at 22:00.\n"
SECRET = "The steward key is 7731-ALPHA.\n"


@pytest.fixture(autouse=True)
def _hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUOTEBOUND_EMBEDDER", "hashing")


def _ingest(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["ingest", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _source_ids(store: Path) -> list[str]:
    with Store(Settings(store=store, embedder="hashing")) as opened:
        return [s.source_id for s in Corpus(opened).sources()]


# --- links ------------------------------------------------------------------------------------------------------


def _linked_tree(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    (outside / "keys").mkdir(parents=True)
    (outside / "steward-key.md").write_text(SECRET, encoding="utf-8")
    (outside / "keys" / "api-key.txt").write_text(SECRET, encoding="utf-8")
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / "rules.md").write_text(GOOD, encoding="utf-8")
    (root / "sub" / "minutes.md").write_text("# Minutes\n\nQuorum was 3 of 5.\n", encoding="utf-8")
    (root / "key.md").symlink_to(outside / "steward-key.md")  # a file link out
    (root / "keys").symlink_to(outside / "keys", target_is_directory=True)  # a folder link out
    (root / "relative.md").symlink_to(Path("..") / "outside" / "steward-key.md")
    (root / "alias.md").symlink_to(root / "rules.md")  # a link inside: fine
    (root / "sub" / "up").symlink_to(Path(".."), target_is_directory=True)  # a loop
    (root / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    return root


def test_links_out_of_the_folder_are_skipped_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _linked_tree(tmp_path)
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_OK, err
    assert "3 added" in out and "0 failed" in out
    for name in ("key.md", "keys", "relative.md"):
        assert f"skipped: {name}: link outside the folder" in err
    assert "skipped: dangling.md: broken link" in err
    assert "skipped: sub/up: link to a folder already read" in err
    assert _source_ids(store) == ["alias.md", "rules.md", "sub/minutes.md"]
    assert main(["search", "steward key", "--store", str(store), "--json"]) == EXIT_OK
    assert "7731" not in capsys.readouterr().out


def test_a_root_reached_through_links_is_read_where_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _linked_tree(tmp_path)
    (tmp_path / "via").symlink_to(root, target_is_directory=True)
    (tmp_path / "via2").symlink_to(tmp_path / "via", target_is_directory=True)
    store = tmp_path / "store"
    code, _, err = _ingest(capsys, str(tmp_path / "via2"), "--store", str(store))
    assert code == EXIT_OK, err
    assert "skipped: key.md: link outside the folder" in err
    assert _source_ids(store) == ["alias.md", "rules.md", "sub/minutes.md"]


def test_a_folder_link_inside_the_root_is_followed_once(tmp_path: Path, ingest, corpus: Corpus) -> None:
    root = tmp_path / "docs"
    (root / ".archive").mkdir(parents=True)
    (root / ".archive" / "old.md").write_text(GOOD, encoding="utf-8")
    (root / "archive").symlink_to(root / ".archive", target_is_directory=True)
    (root / "loop").symlink_to(root, target_is_directory=True)
    report = ingest(root)
    assert report.ok, report.failed
    assert report.added == ["archive/old.md"]
    assert report.skip_reasons[".archive"].startswith("hidden")
    assert report.skip_reasons["loop"].startswith("link to a folder already read")


def test_a_sidecar_linked_from_outside_fails_its_file(tmp_path: Path, ingest, corpus: Corpus) -> None:
    outside = tmp_path / "passwd"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a.md").write_text(GOOD, encoding="utf-8")
    (root / "a.md.meta.yaml").symlink_to(outside)
    (root / "b.md").write_text(GOOD, encoding="utf-8")
    report = ingest(root)
    assert report.added == ["b.md"]
    [(path, why)] = report.failed
    assert path.endswith("a.md") and "sidecar is a link outside the folder" in why and "root:x" not in why
    assert corpus.source("a.md") is None


def test_a_link_inside_the_folder_keeps_the_label_of_the_file_it_points_to(
    tmp_path: Path, ingest, corpus: Corpus
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "codes.md").write_text(SECRET, encoding="utf-8")
    (root / "codes.md.meta.yaml").write_text("policy_label: restricted\n", encoding="utf-8")
    (root / "public-copy.md").symlink_to(root / "codes.md")
    (root / "other.md").symlink_to(root / "codes.md")
    (root / "other.md.meta.yaml").write_text("policy_label: public\n", encoding="utf-8")
    report = ingest(root)
    assert sorted(report.added) == ["codes.md", "public-copy.md"]
    [(path, why)] = report.failed
    assert path.endswith("other.md") and "takes the metadata of the file it points to" in why
    copy = corpus.source("public-copy.md")
    assert copy is not None and copy.policy_label == "restricted"


# --- one-line errors, the rest still ingests ---------------------------------------------------------------------


def test_a_file_name_too_long_for_its_sidecar_still_ingests_with_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    long_name = "a" * 250 + ".md"  # 253 characters: NAME.meta.yaml would be 263, over the file system's 255
    (root / long_name).write_text(GOOD, encoding="utf-8")
    (root / "zz-after.md").write_text("# After\n\nStill ingested.\n", encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_OK, err
    assert "2 added" in out
    assert _source_ids(store) == [long_name, "zz-after.md"]


def test_a_path_too_long_to_be_a_source_id_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "docs"
    deep = root / "/".join(["d" * 200] * 3)  # a relative path of 600+ characters
    deep.mkdir(parents=True)
    (deep / "deep.md").write_text(GOOD, encoding="utf-8")
    (root / "ok.md").write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_FAILED
    [line] = [line for line in err.splitlines() if line.startswith("error:")]
    assert "deep.md" in line and "a source id is at most 512" in line
    assert "1 added" in out and _source_ids(store) == ["ok.md"]


def _zero_bomb_pdf(path: Path, inflated: int) -> Path:
    """A one-page PDF (with a font, so pypdf parses its content) whose content stream is `inflated` bytes of
    zeros, FlateDecode-compressed (about 1/1000)."""
    squeeze = zlib.compressobj(9)
    block = b"0" * (1 << 20)
    parts = [squeeze.compress(block) for _ in range(inflated // len(block))]
    stream = b"".join(parts) + squeeze.flush()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_a_decompression_bomb_pdf_is_one_line_and_the_rest_ingest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    bomb = _zero_bomb_pdf(root / "a-bomb.pdf", 200 * (1 << 20))  # ~200 KB on disk, 200 MiB inflated
    assert bomb.stat().st_size < 1 << 20
    (root / "b-rules.md").write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_FAILED
    errors = [line for line in err.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and "a-bomb.pdf" in errors[0] and "decompression limit" in errors[0]
    assert "1 added" in out and _source_ids(store) == ["b-rules.md"]


@pytest.mark.parametrize("name", ["a#b.md", "back\\slash.md", "new\nline.md", "bell\a.md", "tab\there.md"])
def test_a_name_that_cannot_be_cited_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / name).write_text(SECRET, encoding="utf-8")
    (root / "ok.md").write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_FAILED
    errors = err.splitlines()
    assert len(errors) == 1 and errors[0].startswith("error: ") and "cannot be cited" in errors[0], err
    assert "1 added" in out and "1 failed" in out
    assert _source_ids(store) == ["ok.md"]
    assert main(["search", "steward key", "--store", str(store)]) == EXIT_OK


def test_search_skips_an_uncitable_id_a_store_already_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A store written before ingest refused such names: search must never crash on what it holds."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "ab.md").write_text(SECRET, encoding="utf-8")
    (root / "ok.md").write_text("# Keys\n\nThe steward key is kept by the board.\n", encoding="utf-8")
    store = tmp_path / "store"
    assert _ingest(capsys, str(root), "--store", str(store))[0] == EXIT_OK
    with sqlite3.connect(store / "index.sqlite") as db:  # what an older quotebound wrote for `a#b.md`
        for table in ("sources", "lines", "source_locator_index", "chunks"):
            db.execute(f"UPDATE {table} SET source_id = 'a#b.md' WHERE source_id = 'ab.md'")
    for extra in ([], ["--json"]):
        assert main(["search", "steward key", "--store", str(store), *extra]) == EXIT_OK
        captured = capsys.readouterr()
        assert "ok.md" in captured.out and "a#b.md" not in captured.out
        assert "ValidationError" not in captured.err


def test_an_unreadable_file_is_one_line_and_the_rest_ingest(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "a-locked.md").write_text(GOOD, encoding="utf-8")
    (root / "a-locked.md").chmod(0)
    (root / "b-open.md").write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    command = [sys.executable, "-m", "quotebound.agent.cli", "ingest", str(root), "--store", str(store)]
    if os.geteuid() == 0:  # root reads any file: drop the capabilities that let it, so the permission bits count
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a mode-000 file stays readable")
        drop = "-dac_override,-dac_read_search"
        command = [setpriv, f"--inh-caps={drop}", f"--bounding-set={drop}", *command]
    env = {**os.environ, "QUOTEBOUND_EMBEDDER": "hashing"}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert result.returncode == EXIT_FAILED, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert errors == [f"error: {root / 'a-locked.md'}: permission denied"], result.stderr
    assert "1 added" in result.stdout


# --- huge lines and files ----------------------------------------------------------------------------------------


def test_a_line_over_the_cap_is_refused_with_the_setting_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    cap = RetrievalSettings().max_line_chars
    (root / "one-line.md").write_text("word " * (3 * (1 << 20) // 5), encoding="utf-8")  # 3 MB, one line
    (root / "ok.md").write_text(GOOD, encoding="utf-8")
    store = tmp_path / "store"
    code, _, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_FAILED
    [line] = err.splitlines()
    assert "one-line.md: line 1 is longer than" in line and f"{cap:,}" in line and "--max-line-chars" in line
    assert _source_ids(store) == ["ok.md"]
    # the cap is a setting: raised, the same file ingests
    (root / "one-line.md").write_text("word " * 10_000 + "\nsecond line\n", encoding="utf-8")
    code, _, err = _ingest(capsys, str(root), "--store", str(store), "--max-line-chars", "60000")
    assert code == EXIT_OK, err
    assert _source_ids(store) == ["ok.md", "one-line.md"]


def test_streamed_text_keeps_every_line_across_read_blocks(tmp_path: Path, ingest, corpus: Corpus) -> None:
    """Lines, CRLF pairs and multi-byte characters that straddle the reader's 1 MiB blocks come out whole."""
    root = tmp_path / "docs"
    root.mkdir()
    lines = [f"line {i} caf\u00e9 \u00fcber \u20ac{i}" for i in range(60_000)]
    (root / "big.txt").write_bytes("\r\n".join(lines).encode("utf-8") + b"\r\n")
    report = ingest(root)
    assert report.ok, report.failed
    stored = [text for _, _, text in corpus.iter_lines("big.txt", 1)]
    assert stored == lines


def test_bad_utf8_deep_in_a_file_names_its_byte(tmp_path: Path, ingest) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    head = ("x" * 99 + "\n").encode() * 30_000  # 3 MB of good text first
    (root / "late.txt").write_bytes(head + b"caf\xe9\n")
    [(_, why)] = ingest(root).failed
    assert f"not valid UTF-8 (byte {len(head) + 3})" in why


# --- runs that ingest nothing, runs that skip some ---------------------------------------------------------------


@pytest.mark.parametrize(
    "files",
    [
        {},
        {"notes.rst": "Title\n=====\n", "page.html": "<p>hi</p>", "README": "plain words\n", ".hidden.md": GOOD},
    ],
    ids=["empty", "unsupported-only"],
)
def test_a_run_that_ingests_nothing_says_why_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_FAILED
    assert "error: nothing ingested" in err and ".txt, .md" in err
    for name in files:
        assert f"skipped: {name}: " in err
    assert "skipped: README: unsupported file type '(none)'" in err or not files
    code, out, _ = _ingest(capsys, str(root), "--store", str(store), "--json")
    assert code == EXIT_FAILED
    report = json.loads(out)
    assert sorted(report["skip_reasons"]) == sorted(files)


def test_a_run_that_skips_some_files_names_them_and_keeps_its_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "rules.md").write_text(GOOD, encoding="utf-8")
    (root / "rules.md.meta.yaml").write_text("license: CC-BY-4.0\n", encoding="utf-8")
    (root / "a-photo.png").write_bytes(b"\x89PNG")
    for n in range(25):
        (root / f"page-{n:02}.html").write_text("<p>x</p>", encoding="utf-8")
    store = tmp_path / "store"
    code, out, err = _ingest(capsys, str(root), "--store", str(store))
    assert code == EXIT_OK
    [summary] = out.splitlines()  # today's one summary line, unchanged
    assert summary.startswith(f"ingested into {store}: 1 added, 0 updated, 0 unchanged, 0 failed (")
    assert "skipped: a-photo.png: unsupported file type '.png'" in err
    assert "rules.md.meta.yaml" not in err  # a sidecar was read, not skipped
    assert "skipped: 6 more (`--json` lists them all)" in err


def test_ingesting_nothing_is_not_ok_through_the_python_api(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with Store(Settings(store=tmp_path / "store", embedder="hashing"), create=True) as store:
        report = Ingestor(store).ingest([tmp_path / "empty"])
    assert not report.ok and report.ingested == 0 and not report.failed
