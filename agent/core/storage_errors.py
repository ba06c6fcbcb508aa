"""What is wrong with a file quotebound must open or write: read-only, no space, permission denied, and where.

SQLite reports one condition in many ways: a read-only folder is `SQLITE_READONLY` (several extended codes) or
`SQLITE_CANTOPEN`; a full disk is `SQLITE_FULL`, or a bare `SQLITE_IOERR` when the WAL's shared memory cannot grow.
The OS has as many errnos. `describe` maps the error code first and, for the vague codes, looks at the file system
itself (free space, a read-only mount, write permission), so the operator reads what to fix, and the path, instead
of "unreadable".
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from quotebound.agent.core.errors import ErrorCode, OperatorError

# SQLite's primary result codes (the low byte of an extended code): https://sqlite.org/rescode.html
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 11, 13, 14
_SQLITE_AUTH, _SQLITE_NOTADB = 23, 26

READ_ONLY = "is read-only"
READ_ONLY_FS = "is on a read-only file system"
NO_SPACE = "cannot be written: no space left on the device"
NO_QUOTA = "cannot be written: the disk quota is exceeded"
PERMISSION = "cannot be opened: permission denied"
CANNOT_OPEN = "cannot be opened (is it a folder, or a file another program holds?)"
LOCKED = "is locked by another process; try again when it is done"
CORRUPT = "is corrupt or not a quotebound database"
NAME_TOO_LONG = "has a name too long for the file system"
MISSING = "is missing (was its folder moved or deleted?)"
IO_ERROR = "cannot be read or written: an I/O error (a failing disk, or the file changed underneath)"

_ERRNO: dict[int, str] = {
    errno.ENOSPC: NO_SPACE,
    errno.EDQUOT: NO_QUOTA,
    errno.EROFS: READ_ONLY_FS,
    errno.ENAMETOOLONG: NAME_TOO_LONG,
    errno.ENOENT: MISSING,
    errno.EIO: IO_ERROR,
}


def _existing(path: Path) -> Path:
    """`path`, or its nearest ancestor that exists (what the file system can be asked about)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path("/")


def _writable(path: Path) -> bool:
    effective = os.access in os.supports_effective_ids  # root without CAP_DAC_OVERRIDE is checked like anyone
    return os.access(path, os.W_OK, effective_ids=effective)


def _not_writable(path: Path) -> str | None:
    """Why `path` (a file, or the folder it would be created in) cannot be written, if the file system says so."""
    try:
        if os.statvfs(_existing(path)).f_flag & os.ST_RDONLY:
            return READ_ONLY_FS
        if path.exists() and not _writable(path):
            return READ_ONLY
        folder = path.parent
        if folder.exists() and not _writable(folder):
            return f"cannot be written: its folder {folder} is read-only"
    except OSError:
        return None
    return None


def _no_space(path: Path) -> bool:
    try:
        stats = os.statvfs(_existing(path))
    except OSError:
        return False
    return stats.f_bavail == 0 or stats.f_favail == 0  # no blocks, or no inodes, left to this user


def _environment(path: Path) -> str | None:
    """The condition behind a vague error (`SQLITE_IOERR`, `SQLITE_CANTOPEN`, `EACCES`), read off the file system."""
    if _no_space(path):
        return NO_SPACE
    return _not_writable(path)


def describe(exc: BaseException, path: Path) -> str:
    """What is wrong with `path`, as the rest of a sentence whose subject is the file: "is read-only", ..."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        if primary == _SQLITE_FULL:
            return NO_SPACE
        if primary == _SQLITE_READONLY:
            return _not_writable(path) or READ_ONLY
        if primary in (_SQLITE_PERM, _SQLITE_AUTH):
            return PERMISSION
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
            return LOCKED
        if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            return CORRUPT
        if primary == _SQLITE_IOERR:
            return _environment(path) or IO_ERROR
        if primary == _SQLITE_CANTOPEN:
            return _environment(path) or (MISSING if not path.parent.exists() else CANNOT_OPEN)
        return _environment(path) or f"cannot be used ({type(exc).__name__})"
    if isinstance(exc, OSError):
        if exc.errno in (errno.EACCES, errno.EPERM):
            return _not_writable(path) or PERMISSION
        known = _ERRNO.get(exc.errno or 0)
        if known is not None:
            return known
        return _environment(path) or f"cannot be used ({exc.strerror or type(exc).__name__})"
    return f"cannot be used ({type(exc).__name__})"


def is_environmental(exc: BaseException) -> bool:
    """True for errors that say the disk or the file system refused (read-only, full, no permission, I/O), rather
    than a bug or a bad statement: the ones worth turning into an operator's message about a path."""
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        primary = code & 0xFF if isinstance(code, int) else None
        return primary in (_SQLITE_FULL, _SQLITE_READONLY, _SQLITE_PERM, _SQLITE_IOERR, _SQLITE_CANTOPEN)
    return isinstance(exc, OSError)


def storage_error(exc: BaseException, path: Path, what: str) -> OperatorError:
    """`STORE_UNAVAILABLE` saying what is wrong with `path` (`what` names it: "the locator index"), and the
    library's own words after it."""
    detail = str(exc.strerror if isinstance(exc, OSError) and exc.strerror else exc)
    return OperatorError(ErrorCode.STORE_UNAVAILABLE, f"{what} {path} {describe(exc, path)} ({detail})")
