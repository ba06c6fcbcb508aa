"""The checked-in JSON Schemas in agent/core/schemas/ are exactly what the contracts produce now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quotebound.agent.core.schema_export import EXPORT_COMMAND, SCHEMA_DIR, export, main, rendered_schemas

EXPECTED = rendered_schemas()
STALE_HINT = f"run `{EXPORT_COMMAND}` to regenerate agent/core/schemas/"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_checked_in_schema_is_current(name: str) -> None:
    path = SCHEMA_DIR / name
    assert path.is_file(), f"{path} is missing; {STALE_HINT}"
    assert path.read_text(encoding="utf-8") == EXPECTED[name], f"{path} is out of date; {STALE_HINT}"


def test_no_extra_or_missing_files() -> None:
    present = {path.name for path in SCHEMA_DIR.iterdir()}
    assert "__init__.py" not in present, "agent/core/schemas/ is package data, not a package"
    missing = sorted(set(EXPECTED) - present)
    extra = sorted(present - set(EXPECTED))
    assert not missing and not extra, f"missing {missing}, extra {extra}; {STALE_HINT} and delete extras"


def test_schemas_are_pretty_sorted_json_with_a_trailing_newline() -> None:
    for name, text in EXPECTED.items():
        assert text.endswith("}\n"), name
        assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_every_versioned_model_and_the_union_are_exported() -> None:
    assert {"envelope.v1.json", "answer_envelope.v1.json", "answer_object.v1.json"} <= set(EXPECTED)
    assert all(name.endswith(".v1.json") for name in EXPECTED)


def test_export_writes_every_file_and_prunes_only_stale_schemas(tmp_path: Path) -> None:
    (tmp_path / "dropped_model.v1.json").write_text("{}\n")
    (tmp_path / "notes.json").write_text("{}\n")
    written = export(tmp_path)
    assert sorted(path.name for path in written) == sorted(EXPECTED)
    assert not (tmp_path / "dropped_model.v1.json").exists()
    assert (tmp_path / "notes.json").exists()
    for path in written:
        assert path.read_bytes() == EXPECTED[path.name].encode()


def test_main_takes_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "out")]) == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(EXPECTED)
    assert len(capsys.readouterr().out.splitlines()) == len(EXPECTED)
