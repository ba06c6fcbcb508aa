"""Sidecar metadata: `NAME.meta.yaml` beside a file. Sidecars are metadata, never sources."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from quotebound.agent.core.contracts import ProvenanceKind
from quotebound.agent.core.errors import CallerError, ErrorCode

SIDECAR_SUFFIX = ".meta.yaml"


class SourceMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    policy_label: str = Field(default="public", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    license: str | None = Field(default=None, max_length=500)
    attribution: str | None = Field(default=None, max_length=2000)
    provenance_kind: ProvenanceKind = "unknown"


def is_sidecar(path: Path) -> bool:
    return path.name.endswith(SIDECAR_SUFFIX)


def sidecar_for(path: Path) -> Path | None:
    """`budget.md.meta.yaml` (preferred) or `budget.meta.yaml`, whichever exists."""
    for candidate in (path.with_name(path.name + SIDECAR_SUFFIX), path.with_name(path.stem + SIDECAR_SUFFIX)):
        if candidate.is_file():
            return candidate
    return None


def load_metadata(path: Path, *, label: str | None = None) -> SourceMetadata:
    """The file's metadata from its sidecar (if any); `label` (from `ingest --label`) overrides the sidecar's."""
    sidecar = sidecar_for(path)
    data: dict[str, object] = {}
    if sidecar is not None:
        try:
            loaded = yaml.safe_load(sidecar.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError, OSError) as exc:
            raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: not valid YAML ({exc})") from exc
        if loaded is not None and not isinstance(loaded, dict):
            raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: expected a mapping of metadata keys")
        data = dict(loaded or {})
    if label is not None:
        data["policy_label"] = label
    try:
        return SourceMetadata.model_validate(data)
    except ValidationError as exc:
        where = sidecar if sidecar is not None else path
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{where}: bad metadata ({problems})") from exc
