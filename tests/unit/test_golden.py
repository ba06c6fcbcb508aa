"""Golden sets load from YAML and JSONL, and a malformed one names the file, the case and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quotebound.evals.golden import GoldenSetError, load_golden_set
from quotebound.evals.schema_export import SCHEMA_DIR, rendered_schemas

SHIPPED = Path(__file__).resolve().parents[2] / "evals" / "golden" / "hoa.yaml"

GOOD = """\
schema: quotebound.golden/v1
name: mini
defaults: {role: member, tags: [smoke]}
cases:
  - id: lease
    question: What is the minimum lease term?
    expect: answer
    must_include: [["12 months", "twelve"]]
    locators: ["doc://declaration.md#p.1 L51"]
  - id: gate
    question: What is the gate code?
    role: public
    expect: abstain
    reason_code: not_permitted
    must_not_include: ["4417"]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_yaml_set_loads_with_defaults_merged(tmp_path: Path) -> None:
    golden = load_golden_set(write(tmp_path, "mini.yaml", GOOD))
    lease, gate = golden.cases
    assert golden.name == "mini"
    assert (lease.role, lease.tags, gate.role) == ("member", ["smoke"], "public")
    assert lease.must_include == [["12 months", "twelve"]]
    assert lease.locators == ["doc://declaration.md#p.1 L51-L51"]  # canonical spelling
    assert gate.reason_code is not None and gate.reason_code.value == "not_permitted"


def test_jsonl_set_loads_one_case_a_line(tmp_path: Path) -> None:
    lines = [
        {"id": "a", "question": "Q one?", "expect": "answer"},
        {"id": "b", "question": "Q two?", "expect": "clarify", "clarify_fields": ["unit"]},
    ]
    path = write(tmp_path, "my set.jsonl", "\n".join(json.dumps(line) for line in lines) + "\n\n")
    golden = load_golden_set(path)
    assert golden.name == "my-set"
    assert [case.id for case in golden.cases] == ["a", "b"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD.replace("expect: abstain", "expect: refuse"), ["bad.yaml", "case 'gate' (#2)", "expect:"]),
        (GOOD.replace("    question: What is the gate code?\n", ""), ["case 'gate' (#2)", "question: Field required"]),
        (GOOD.replace("reason_code: not_permitted", "reason_code: because"), ["case 'gate'", "reason_code:"]),
        (GOOD.replace("id: gate", "id: lease"), ["case id 'lease' is used twice"]),
        (GOOD.replace("must_include:", "must_includ:"), ["case 'lease' (#1)", "must_includ: Extra inputs"]),
        (GOOD.replace("doc://declaration.md#p.1 L51", "declaration.md line 51"), ["case 'lease'", "locators"]),
        (GOOD.replace("expect: answer", "expect: abstain"), ["case 'lease'", "only apply to expect: answer"]),
        (GOOD.replace("reason_code: not_permitted", "reason_code: not_permitted\n    replies: oops"), ["replies"]),
        ("name: x\ncases: [\n", ["bad.yaml", "not valid YAML (line"]),
        ("- just\n- a list\n", ["expected a mapping"]),
        ("name: x\ncases: []\n", ["cases: List should have at least 1 item"]),
        (GOOD.replace("defaults: {role: member, tags: [smoke]}", "defaults: {id: x}"), ["defaults: id cannot"]),
    ],
)
def test_malformed_yaml_names_file_case_and_field(tmp_path: Path, text: str, expected: list[str]) -> None:
    with pytest.raises(GoldenSetError) as raised:
        load_golden_set(write(tmp_path, "bad.yaml", text))
    message = str(raised.value)
    for fragment in expected:
        assert fragment in message, message


def test_malformed_jsonl_names_the_line(tmp_path: Path) -> None:
    good = json.dumps({"id": "a", "question": "Q?", "expect": "answer"})
    with pytest.raises(GoldenSetError, match=r"bad.jsonl: line 3: not valid JSON"):
        load_golden_set(write(tmp_path, "bad.jsonl", f"{good}\n\n{{nope\n"))
    bad_case = json.dumps({"id": "b", "question": "Q?", "expect": "maybe"})
    with pytest.raises(GoldenSetError, match=r"bad.jsonl: case 'b' \(line 3\): expect"):
        load_golden_set(write(tmp_path, "bad.jsonl", f"{good}\n\n{bad_case}\n"))


def test_unreadable_or_wrong_kind_of_file(tmp_path: Path) -> None:
    with pytest.raises(GoldenSetError, match="cannot read"):
        load_golden_set(tmp_path / "missing.yaml")
    with pytest.raises(GoldenSetError, match=r"\.yaml, \.yml or \.jsonl"):
        load_golden_set(write(tmp_path, "set.txt", GOOD))
    path = tmp_path / "latin1.yaml"
    path.write_bytes("name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(GoldenSetError, match="not UTF-8"):
        load_golden_set(path)


def test_select_by_tag_and_id(tmp_path: Path) -> None:
    golden = load_golden_set(write(tmp_path, "mini.yaml", GOOD))
    assert [c.id for c in golden.select(ids=["gate"]).cases] == ["gate"]
    assert len(golden.select(tags=["smoke"]).cases) == 2
    with pytest.raises(GoldenSetError, match="no case with id 'nope'"):
        golden.select(ids=["nope"])
    with pytest.raises(GoldenSetError, match="no case matches"):
        golden.select(tags=["absent"])


def test_shipped_golden_set_loads_and_covers_every_category() -> None:
    golden = load_golden_set(SHIPPED)
    tags = {tag for case in golden.cases for tag in case.tags}
    assert len(golden.cases) >= 60
    assert {"plain", "numbers", "dates", "calc", "conflict", "missing", "clarify", "restricted"} <= tags
    assert {"enumeration", "injection"} <= tags
    assert len({case.role for case in golden.cases if "restricted" in case.tags}) >= 3
    assert any(len(case.replies) >= 2 for case in golden.cases), "a clarify case with several rounds"
    assert any(case.expect == "clarify" and not case.replies for case in golden.cases)


@pytest.mark.parametrize("name", sorted(rendered_schemas()))
def test_checked_in_eval_schemas_are_current(name: str) -> None:
    path = SCHEMA_DIR / name
    hint = "run `python -m quotebound.evals.schema_export`"
    assert path.is_file(), f"{path} is missing; {hint}"
    assert path.read_text(encoding="utf-8") == rendered_schemas()[name], f"{path} is out of date; {hint}"


def test_readme_golden_set_example_loads(tmp_path: Path) -> None:
    readme = (SHIPPED.parents[2] / "docs" / "evaluating.md").read_text(encoding="utf-8")
    block = readme.split("```yaml\nschema: quotebound.golden/v1", 1)[1].split("```", 1)[0]
    golden = load_golden_set(write(tmp_path, "readme.yaml", "schema: quotebound.golden/v1" + block))
    assert [case.expect for case in golden.cases] == ["answer", "answer", "abstain"]
