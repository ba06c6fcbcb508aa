"""Golden sets: questions with what their runs must show, kept as data (YAML or JSONL) beside the corpus.

A YAML set is a mapping: `schema: quotebound.golden/v1`, `name`, optional `description`, `defaults` (fields every
case inherits unless it sets them) and `cases`. A JSONL set is one case object a line (its name is the file's
stem). The JSON Schema of both is `evals/schemas/golden_set.v1.json` (`GoldenSet.model_json_schema()`).

Loading never guesses: a malformed set raises `GoldenSetError` naming the file, the case (id, or its position
when the id itself is missing) and the field, e.g.
`golden/hoa.yaml: case 'lease-min' (#4): expect: Input should be 'answer', 'abstain' or 'clarify'`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Self

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from quotebound.agent.core.contracts import EvidenceRef, ReasonCode
from quotebound.agent.core.errors import CallerError, ErrorCode

GOLDEN_SCHEMA: Final = "quotebound.golden/v1"
Outcome = Literal["answer", "abstain", "clarify"]

_Text = Annotated[str, Field(min_length=1, max_length=2000)]
# A required token, or a list of spellings any one of which will do ("12 months" | "twelve months").
Token = _Text | Annotated[list[_Text], Field(min_length=1, max_length=20)]
_Name = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GoldenCase(_Strict):
    """One question and what its run must (and must not) show."""

    id: Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.:-]+$")]
    question: Annotated[str, Field(min_length=1, max_length=4000)]
    role: _Name = "public"
    labels: list[_Name] = Field(default_factory=list, max_length=32)
    replies: list[dict[_Name, Annotated[str, Field(max_length=2000)]]] = Field(
        default_factory=list,
        max_length=10,
        description="the user's answer to each clarify round, in order (field -> value)",
    )
    expect: Outcome
    must_include: list[Token] = Field(
        default_factory=list, description="tokens the answer text must show (case and spacing ignored)"
    )
    sources: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, description="source ids the answer must cite"
    )
    locators: list[Annotated[str, Field(min_length=1)]] = Field(
        default_factory=list, description="citations the answer must include: `doc://<source_id>#p.1 L3-L4`"
    )
    conflicts: list[Annotated[list[_Text], Field(min_length=2)]] = Field(
        default_factory=list, description="per expected conflict, the values that must all be listed in it"
    )
    clarify_fields: list[_Name] = Field(default_factory=list, description="fields the first clarify round must ask for")
    must_not_include: list[_Text] = Field(
        default_factory=list, description="strings that must appear nowhere in any envelope of the run (leaks)"
    )
    reason_code: ReasonCode | None = Field(default=None, description="the abstention's reason code")
    tags: list[_Name] = Field(default_factory=list)

    @field_validator("locators")
    @classmethod
    def _refs(cls, values: list[str]) -> list[str]:
        return [str(EvidenceRef.parse(value)) for value in values]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        answer_only = {
            "must_include": self.must_include,
            "sources": self.sources,
            "locators": self.locators,
            "conflicts": self.conflicts,
        }
        if self.expect != "answer":
            given = [name for name, value in answer_only.items() if value]
            if given:
                raise ValueError(f"{', '.join(given)} only apply to expect: answer (this case expects {self.expect})")
        if self.reason_code is not None and self.expect != "abstain":
            raise ValueError(f"reason_code only applies to expect: abstain (this case expects {self.expect})")
        if self.clarify_fields and self.expect != "clarify" and not self.replies:
            raise ValueError("clarify_fields needs expect: clarify or scripted replies (a clarify round to check)")
        return self

    @property
    def expects_clarify_round(self) -> bool:
        """The run must pause for the user at least once (it expects a clarify, or scripts a reply to one)."""
        return self.expect == "clarify" or bool(self.replies)


class GoldenSet(_Strict):
    """A named list of golden cases (`cases`), with `defaults` merged into each one."""

    schema_: Literal["quotebound.golden/v1"] = Field(default=GOLDEN_SCHEMA, alias="schema")
    name: _Name
    description: str = ""
    cases: list[GoldenCase] = Field(min_length=1)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _unique_ids(self) -> Self:
        seen: set[str] = set()
        for case in self.cases:
            if case.id in seen:
                raise ValueError(f"case id {case.id!r} is used twice")
            seen.add(case.id)
        return self

    def select(self, tags: Sequence[str] = (), ids: Sequence[str] = ()) -> GoldenSet:
        """The cases carrying any of `tags` and/or named in `ids` (all of them when both are empty)."""
        unknown = sorted(set(ids) - {case.id for case in self.cases})
        if unknown:
            raise GoldenSetError(f"{self.name}: no case with id {', '.join(map(repr, unknown))}")
        chosen = [
            case for case in self.cases if (not tags or set(tags) & set(case.tags)) and (not ids or case.id in ids)
        ]
        if not chosen:
            raise GoldenSetError(f"{self.name}: no case matches tags {list(tags)} and ids {list(ids)}")
        return self.model_copy(update={"cases": chosen})


class GoldenSetError(CallerError):
    """A golden set that cannot be used as written: the message names the file, the case and the field."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_REQUEST, message)


def golden_set_schema() -> dict[str, Any]:
    """The JSON Schema of a YAML golden set (a JSONL line is one `GoldenCase` from its `$defs`)."""
    schema = GoldenSet.model_json_schema(by_alias=True)
    schema["$id"] = "https://quotebound.dev/schemas/golden_set.v1.json"
    schema["properties"]["defaults"] = {
        "type": "object",
        "description": "fields every case inherits unless it sets them (any GoldenCase field but id and question)",
    }
    return schema


def load_golden_set(path: str | Path) -> GoldenSet:
    """Read a `.yaml`/`.yml` or `.jsonl` golden set; raises `GoldenSetError` on anything malformed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise GoldenSetError(f"{path}: cannot read the golden set ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise GoldenSetError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    suffix = path.suffix.lower()
    if suffix in {".yaml", ".yml"}:
        return _from_yaml(path, text)
    if suffix == ".jsonl":
        return _from_jsonl(path, text)
    raise GoldenSetError(f"{path}: a golden set is a .yaml, .yml or .jsonl file")


def _from_yaml(path: Path, text: str) -> GoldenSet:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        raise GoldenSetError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', None) or exc}") from exc
    if not isinstance(data, Mapping):
        raise GoldenSetError(f"{path}: expected a mapping with `name` and `cases`, got {type(data).__name__}")
    data = dict(data)
    defaults = data.pop("defaults", None) or {}
    if not isinstance(defaults, Mapping):
        raise GoldenSetError(f"{path}: defaults: expected a mapping of case fields")
    for forbidden in ("id", "question"):
        if forbidden in defaults:
            raise GoldenSetError(f"{path}: defaults: {forbidden} cannot have a default")
    cases = data.get("cases")
    if isinstance(cases, list):
        data["cases"] = [{**defaults, **case} if isinstance(case, Mapping) else case for case in cases]
    raw = cases if isinstance(cases, list) else []
    return _validate(path, data, raw, [f"#{n}" for n in range(1, len(raw) + 1)])


def _from_jsonl(path: Path, text: str) -> GoldenSet:
    cases: list[Any] = []
    positions: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            cases.append(json.loads(line))
            positions.append(f"line {number}")
        except json.JSONDecodeError as exc:
            raise GoldenSetError(f"{path}: line {number}: not valid JSON ({exc.msg}, column {exc.colno})") from exc
    name = "".join(ch if ch.isalnum() or ch in "_.-" else "-" for ch in path.stem)[:64] or "golden"
    return _validate(path, {"name": name, "cases": cases}, cases, positions)


def _validate(path: Path, data: dict[str, Any], raw_cases: list[Any], positions: list[str]) -> GoldenSet:
    try:
        return GoldenSet.model_validate(data)
    except ValidationError as exc:
        raise GoldenSetError(_describe(path, exc, raw_cases, positions)) from exc


def _describe(path: Path, exc: ValidationError, raw_cases: list[Any], positions: list[str]) -> str:
    """The first few errors, each as `FILE: case 'ID' (#N): FIELD: message`."""
    lines: list[str] = []
    for error in exc.errors()[:5]:
        loc = list(error["loc"])
        where = str(path)
        if len(loc) >= 2 and loc[0] == "cases" and isinstance(loc[1], int):
            index = loc[1]
            raw = raw_cases[index] if index < len(raw_cases) else None
            case_id = raw.get("id") if isinstance(raw, Mapping) else None
            position = positions[index] if index < len(positions) else f"#{index + 1}"
            where += f": case {case_id!r} ({position})" if isinstance(case_id, str) else f": case {position}"
            loc = loc[2:]
        field = ".".join(str(part) for part in loc if not str(part).startswith(("function-", "list[", "str")))
        message = error["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {field + ': ' if field else ''}{message}")
    more = len(exc.errors()) - len(lines)
    if more > 0:
        lines.append(f"... and {more} more error(s)")
    return "\n".join(lines)
