"""The gate calibration set: honest drafts the gate must pass and corrupted drafts it must block, as data.

One YAML file per corpus (`hoa.yaml`, `tatqa.yaml`, `ramdocs.yaml`) beside this module; README.md describes the
format, how the cases were written and their attribution. `benchmarks/bench_gate_calibration.py` runs the real gate
over them. `load_file` / `load_all` read and validate the files: a bad file raises `CalibrationError` naming the
file, the case and the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final, Literal, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from quotebound.agent.core.contracts import Draft

CALIBRATION_DIR: Final = Path(__file__).resolve().parent

CorpusName = Literal["hoa", "tatqa", "ramdocs"]
CorruptionKind = Literal[
    "fabricated_quote",
    "fake_locator",
    "invented_number",
    "citation_index_mask",
    "tiny_quote",
    "quote_drops_negator",
    "negation_dropped",
    "value_moved",
    "unit_swapped",
    "reversed",
    "word_from_elsewhere",
    "echo_question",
    "joined_contexts",
    "unchecked_field",
    "fake_conflict",
    "omitted_conflict",
    "false_premise",
    "wrong_document",
    "bare_value_for_derived",
    "wrong_answer_type",
    "obeyed_injection",
]
CORRUPTION_KINDS: Final[tuple[str, ...]] = get_args(CorruptionKind)
# Not a draft: the bench drives scripted models that call a tool outside the allowlist through the real graph.
TOOL_KINDS: Final[tuple[str, ...]] = ("disallowed_tool",)
Kind = Literal["honest", CorruptionKind]
Style = Literal["natural", "terse"]


class CalibrationError(ValueError):
    """A calibration file that cannot be used; the message names the file, the case and the field."""


class CalibrationCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    question: str = Field(min_length=1)
    role: str = Field(default="public", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    kind: Kind
    style: Style | None = None
    base: str | None = None
    expect: Literal["pass", "block"]
    why: str | None = None
    draft: Draft

    @model_validator(mode="after")
    def _consistent(self) -> CalibrationCase:
        if self.kind == "honest":
            if self.expect != "pass":
                raise ValueError("expect: an honest case expects `pass`")
            if self.style is None:
                raise ValueError("style: an honest case needs `natural` or `terse`")
            if self.base is not None:
                raise ValueError("base: an honest case has no base")
        else:
            if self.expect != "block":
                raise ValueError(f"expect: a {self.kind} corruption expects `block`")
            if not (self.why or "").strip():
                raise ValueError("why: a corruption says in one line what is false")
        return self

    @property
    def honest(self) -> bool:
        return self.kind == "honest"


class CalibrationFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    corpus: CorpusName
    records: list[int | str] | None = None
    cases: list[CalibrationCase] = Field(min_length=1)


def _location(loc: Sequence[int | str], cases: list[Any] | None) -> str:
    """`case <id>, field a.b.c` for a pydantic error location inside `cases`, else the dotted field."""
    if len(loc) >= 2 and loc[0] == "cases" and isinstance(loc[1], int):
        index = loc[1]
        raw = cases[index] if cases is not None and index < len(cases) else None
        name = raw.get("id") if isinstance(raw, dict) else None
        case = f"case {name!r}" if isinstance(name, str) else f"case #{index + 1}"
        rest = ".".join(str(p) for p in loc[2:])
        return f"{case}, field {rest or '(the case)'}"
    return "field " + (".".join(str(p) for p in loc) or "(top level)")


def parse_file(data: Any, name: str) -> CalibrationFile:
    """Validate a parsed YAML document as a calibration file called `name`; `CalibrationError` when it is not."""
    if not isinstance(data, dict):
        raise CalibrationError(f"{name}: the file must be a mapping with `corpus` and `cases`")
    raw_cases = data.get("cases") if isinstance(data.get("cases"), list) else None
    try:
        parsed = CalibrationFile.model_validate(data)
    except ValidationError as exc:
        problems = [f"{_location(e['loc'], raw_cases)}: {e['msg']}" for e in exc.errors()[:10]]
        more = f" (and {exc.error_count() - 10} more)" if exc.error_count() > 10 else ""
        raise CalibrationError(f"{name}: " + "; ".join(problems) + more) from None
    problems = []
    seen = Counter(case.id for case in parsed.cases)
    problems += [f"case {case_id!r}, field id: used {n} times" for case_id, n in seen.items() if n > 1]
    honest = {case.id for case in parsed.cases if case.honest}
    problems += [
        f"case {case.id!r}, field base: {case.base!r} is not an honest case of this file"
        for case in parsed.cases
        if case.base is not None and case.base not in honest
    ]
    if parsed.corpus != "hoa" and not parsed.records:
        problems.append(f"field records: a {parsed.corpus} file lists the dataset records its cases use")
    if problems:
        raise CalibrationError(f"{name}: " + "; ".join(problems))
    return parsed


def load_file(path: Path) -> CalibrationFile:
    """Read and validate one calibration file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise CalibrationError(f"{path}: not valid YAML ({exc})") from None
    return parse_file(data, str(path))


def calibration_files(directory: Path = CALIBRATION_DIR) -> list[Path]:
    return sorted(Path(directory).glob("*.yaml"))


def load_all(directory: Path = CALIBRATION_DIR) -> list[CalibrationFile]:
    """Every calibration file in `directory`, validated; two files for one corpus, or one case id in two files,
    is an error."""
    files = [load_file(path) for path in calibration_files(directory)]
    _check_across(files, directory)
    return files


def _check_across(files: Iterable[CalibrationFile], directory: Path) -> None:
    files = list(files)
    corpora = Counter(f.corpus for f in files)
    ids = Counter(case.id for f in files for case in f.cases)
    problems = [f"corpus {c!r}: {n} files" for c, n in corpora.items() if n > 1]
    problems += [f"case {i!r}, field id: used in {n} files" for i, n in ids.items() if n > 1]
    if problems:
        raise CalibrationError(f"{directory}: " + "; ".join(problems))


__all__ = [
    "CALIBRATION_DIR",
    "CORRUPTION_KINDS",
    "TOOL_KINDS",
    "CalibrationCase",
    "CalibrationError",
    "CalibrationFile",
    "CorruptionKind",
    "calibration_files",
    "load_all",
    "load_file",
    "parse_file",
]
