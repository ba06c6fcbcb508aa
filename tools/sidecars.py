"""Sidecar metadata: `NAME.meta.yaml` beside a file. Sidecars are metadata, never sources.

A sidecar is read only from inside the folder being ingested: a sidecar that is a link resolving elsewhere fails
its file (it may carry the file's policy label, so it is never silently ignored either).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from quotebound.agent.core.contracts import ProvenanceKind
from quotebound.agent.core.errors import CallerError, ErrorCode

SIDECAR_SUFFIX = ".meta.yaml"
MAX_SIDECAR_BYTES = 64 * 1024


class SourceMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")

    policy_label: str = Field(default="public", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    license: str | None = Field(default=None, max_length=500)
    attribution: str | None = Field(default=None, max_length=2000)
    provenance_kind: ProvenanceKind = "unknown"


def is_sidecar(path: Path) -> bool:
    return path.name.endswith(SIDECAR_SUFFIX)


def _name_cannot_exist(folder: Path, name: str) -> bool:
    """Whether `name` is longer than the file system allows in `folder` (so no such file can exist)."""
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    return len(os.fsencode(name)) > limit


def _exists(candidate: Path) -> bool:
    try:
        candidate.lstat()
    except FileNotFoundError:
        return False
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG and _name_cannot_exist(candidate.parent, candidate.name):
            return False  # e.g. a 250-character file name: its sidecar's name is over the limit, so there is none
        raise CallerError(
            ErrorCode.UNREADABLE_FILE, f"{candidate}: cannot check for a sidecar ({exc.strerror or exc})"
        ) from exc
    return True


def sidecar_for(path: Path) -> Path | None:
    """`budget.md.meta.yaml` (preferred) or `budget.meta.yaml`, whichever exists."""
    for candidate in (path.with_name(path.name + SIDECAR_SUFFIX), path.with_name(path.stem + SIDECAR_SUFFIX)):
        if _exists(candidate):
            return candidate
    return None


def _read_sidecar(sidecar: Path, within: Path | None) -> str:
    try:
        real = sidecar.resolve(strict=True)
    except (OSError, RuntimeError) as exc:
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar cannot be read (broken link?)") from exc
    if within is not None and not real.is_relative_to(within):
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar is a link outside the folder")
    if not real.is_file():
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar is not a regular file")
    try:
        with real.open("rb") as handle:
            raw = handle.read(MAX_SIDECAR_BYTES + 1)
    except OSError as exc:
        raise CallerError(
            ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar cannot be read ({exc.strerror or exc})"
        ) from exc
    if len(raw) > MAX_SIDECAR_BYTES:
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar larger than {MAX_SIDECAR_BYTES} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: sidecar is not valid UTF-8") from exc


def load_metadata(path: Path, *, label: str | None = None, within: Path | None = None) -> SourceMetadata:
    """The file's metadata from its sidecar (if any); `label` (from `ingest --label`) overrides the sidecar's.

    `within` (a resolved folder): the sidecar must resolve inside it."""
    sidecar = sidecar_for(path)
    data: dict[str, object] = {}
    if sidecar is not None:
        text = _read_sidecar(sidecar, within)
        try:
            loaded = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            reason = " ".join(str(exc).split())
            raise CallerError(ErrorCode.UNREADABLE_FILE, f"{sidecar}: not valid YAML ({reason})") from exc
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
