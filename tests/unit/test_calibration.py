"""The calibration set's loader: the shipped files load, and a bad file is refused with the file, the case and
the field named (nothing is silently dropped)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from quotebound.evals.calibration import (
    CALIBRATION_DIR,
    CORRUPTION_KINDS,
    CalibrationError,
    load_all,
    load_file,
    parse_file,
)

DRAFT: dict[str, Any] = {
    "levels": {"level1": "Quiet hours run from 10:00 p.m.", "level2": "", "level3": ""},
    "evidence": {
        "mode": "answer",
        "facts": [
            {
                "text": "Quiet hours run from 10:00 p.m.",
                "support": [{"source_id": "declaration.md", "locator": "p.1 L66-L66", "quote": "Quiet hours"}],
            }
        ],
    },
}


def case(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "c1",
        "question": "What are the quiet hours?",
        "kind": "honest",
        "style": "terse",
        "expect": "pass",
        "draft": DRAFT,
    }
    return {**base, **over}


def test_the_shipped_hoa_file_loads_with_every_kind() -> None:
    hoa = load_file(CALIBRATION_DIR / "hoa.yaml")
    assert hoa.corpus == "hoa"
    honest = [c for c in hoa.cases if c.honest]
    styles = Counter(c.style for c in honest)
    assert len(honest) >= 130 and styles["natural"] >= 65 and styles["terse"] >= 65
    kinds = Counter(c.kind for c in hoa.cases if not c.honest)
    assert sum(kinds.values()) >= 200
    assert {k: n for k, n in kinds.items() if n < 10} == {}
    assert set(kinds) == set(CORRUPTION_KINDS)


def test_every_shipped_file_loads_together() -> None:
    files = load_all()
    assert "hoa" in {f.corpus for f in files}


HELD_OUT = sorted(CALIBRATION_DIR.parent.glob("calibration_holdout*"))


@pytest.mark.parametrize("directory", HELD_OUT, ids=[d.name for d in HELD_OUT])
def test_every_held_out_set_loads_with_honest_drafts_and_every_kind(directory: Path) -> None:
    files = load_all(directory)
    cases = [c for f in files for c in f.cases]
    honest = Counter(c.style for c in cases if c.honest)
    assert honest["natural"] >= 20 and honest["terse"] >= 20
    kinds = {c.kind for c in cases if not c.honest}
    assert kinds <= set(CORRUPTION_KINDS) and len(kinds) >= 14  # the floor; early sets predate two kinds


def test_the_held_out_sets_are_found() -> None:
    assert len(HELD_OUT) >= 7


@pytest.mark.parametrize(
    ("over", "where"),
    [
        ({"kind": "honest", "expect": "block"}, "case 'c1', field (the case)"),
        ({"style": None}, "case 'c1', field (the case)"),
        ({"kind": "value_moved", "expect": "block"}, "why"),
        ({"kind": "made_up_kind"}, "case 'c1', field kind"),
        ({"draft": {**DRAFT, "levels": {"level1": "x"}}}, "case 'c1', field draft.levels.level2"),
        ({"draft": {**DRAFT, "extra": 1}}, "case 'c1', field draft.extra"),
        ({"role": "no spaces allowed"}, "case 'c1', field role"),
    ],
)
def test_a_bad_case_names_the_file_the_case_and_the_field(over: dict[str, Any], where: str) -> None:
    with pytest.raises(CalibrationError) as raised:
        parse_file({"corpus": "hoa", "cases": [case(**over)]}, "bad.yaml")
    message = str(raised.value)
    assert message.startswith("bad.yaml: ") and where in message, message


def test_ids_bases_and_records_are_checked_across_the_file() -> None:
    twice = {"corpus": "hoa", "cases": [case(), case()]}
    with pytest.raises(CalibrationError, match="case 'c1', field id: used 2 times"):
        parse_file(twice, "f.yaml")
    orphan = case(id="c2", kind="negation_dropped", expect="block", why="x", base="nowhere")
    with pytest.raises(CalibrationError, match="case 'c2', field base: 'nowhere' is not an honest case"):
        parse_file({"corpus": "hoa", "cases": [case(), orphan]}, "f.yaml")
    with pytest.raises(CalibrationError, match="field records"):
        parse_file({"corpus": "tatqa", "cases": [case()]}, "f.yaml")
    with pytest.raises(CalibrationError, match="field corpus"):
        parse_file({"corpus": "wiki", "cases": [case()]}, "f.yaml")
    with pytest.raises(CalibrationError, match="must be a mapping"):
        parse_file(["not", "a", "mapping"], "f.yaml")


def test_unreadable_and_malformed_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="cannot be read"):
        load_file(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("corpus: hoa\ncases: [\n", encoding="utf-8")
    with pytest.raises(CalibrationError, match="not valid YAML"):
        load_file(broken)


def test_one_case_id_in_two_files_is_refused(tmp_path: Path) -> None:
    for corpus in ("hoa", "tatqa"):
        data = {"corpus": corpus, "cases": [case()], **({"records": [1]} if corpus == "tatqa" else {})}
        (tmp_path / f"{corpus}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(CalibrationError, match="case 'c1', field id: used in 2 files"):
        load_all(tmp_path)
