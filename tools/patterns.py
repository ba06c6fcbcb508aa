"""The guard for the patterns the model passes to `search_source` and `quote_fetch`.

`compile_pattern` turns a model-written pattern into a `LineMatcher` that is safe to run on every line of a
source, or raises `ModelError(PATTERN_REJECTED, ...)` with a message the model can act on.

- Literal mode (the default): case-insensitive substring match in which each run of whitespace in the
  pattern matches any run of whitespace in the line (leading and trailing whitespace is ignored), so
  `"late   fee"` finds `"Late\\tFee"`.
- Regex mode: the third-party `regex` engine, case-insensitive by default, every search bounded by a
  timeout. Rejected up front: a blank or too long pattern, invalid syntax, nested unbounded quantifiers such
  as `(a+)+` or `(\\w+)*`, backreferences (and recursion / subroutine calls), lookbehind of unbounded length,
  fuzzy matching, the verbose flag, repeat counts above 1000, and patterns that match the empty string
  (they would match every line). Whatever slips past the static checks (e.g. `(a|aa)+$`) is cut off by
  the timeout, which also raises PATTERN_REJECTED.
- Only the first 10,000 characters of a line are searched (`MAX_LINE_CHARS`); a match further on is missed.
- No match is not an error: `LineMatcher.search` returns None and the caller decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import regex

from quotebound.agent.core.errors import ErrorCode, ModelError

MAX_LINE_CHARS = 10_000
MAX_REPEAT = 1000
_FLAGS = regex.IGNORECASE | regex.VERSION0
_ALLOWED_INLINE_FLAGS = set("imsa-")


def _reject(message: str) -> ModelError:
    return ModelError(ErrorCode.PATTERN_REJECTED, message)


@dataclass(frozen=True)
class LineMatcher:
    """A compiled, checked pattern; `search` finds the first match in one line."""

    pattern: str
    regex_mode: bool
    timeout_s: float
    compiled: regex.Pattern[str] = field(repr=False, compare=False)

    def search(self, line: str) -> tuple[int, int] | None:
        """The span of the first match in `line` (its first `MAX_LINE_CHARS` characters), or None."""
        try:
            match = self.compiled.search(line[:MAX_LINE_CHARS], timeout=self.timeout_s)
        except TimeoutError:
            raise _reject(
                f"pattern {self.pattern!r} took longer than {self.timeout_s:g}s on one line (catastrophic "
                "backtracking); use a literal pattern or a simpler regex without nested repetition"
            ) from None
        return match.span() if match is not None else None


def compile_pattern(pattern: str, *, regex: bool = False, max_chars: int = 200, timeout_s: float = 0.25) -> LineMatcher:
    """Check and compile `pattern` (see the module docstring), or raise `ModelError(PATTERN_REJECTED)`."""
    if not isinstance(pattern, str) or not pattern.strip():
        raise _reject("the pattern is empty; give a word or phrase that appears in the source")
    if len(pattern) > max_chars:
        raise _reject(f"the pattern is {len(pattern)} characters long; the limit is {max_chars}")
    source = _compile_regex(pattern) if regex else _literal_regex(pattern)
    compiled = _compile(source, pattern)
    return LineMatcher(pattern=pattern, regex_mode=regex, timeout_s=timeout_s, compiled=compiled)


def _literal_regex(pattern: str) -> str:
    return r"\s+".join(_escape(word) for word in pattern.split())


def _escape(word: str) -> str:
    escaped: str = regex.escape(word, special_only=True)  # `regex` ships no type information
    return escaped


def _compile(source: str, pattern: str) -> regex.Pattern[str]:
    try:
        return regex.compile(source, _FLAGS)
    except (regex.error, OverflowError, RecursionError) as exc:
        raise _reject(f"invalid regular expression {pattern!r}: {exc}") from None


def _compile_regex(pattern: str) -> str:
    _compile(pattern, pattern)  # syntax first, so the static checks below only ever see a well-formed pattern
    _check_structure(pattern)
    if regex.compile(pattern, _FLAGS).fullmatch("") is not None:
        raise _reject(f"pattern {pattern!r} matches the empty string, so it would match every line")
    return pattern


# --- Static checks -----------------------------------------------------------------------------------------

_QUANT_BRACE = re.compile(r"\{(\d*)(?:(,)(\d*))?\}")
_ESCAPE_WITH_BRACES = set("pPNx")


@dataclass
class _Group:
    """One open group while scanning: does anything in it repeat without bound?"""

    pos: int
    lookbehind: bool
    unbounded: bool = False


@dataclass
class _Atom:
    """The last thing a quantifier could apply to."""

    pos: int
    unbounded: bool


def _check_structure(pattern: str) -> None:
    """Walk the (already valid) pattern once, tracking groups, and reject the constructs listed above."""
    stack: list[_Group] = [_Group(pos=0, lookbehind=False)]
    atom: _Atom | None = None
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\":
            _check_escape(pattern, i)
            atom, i = _Atom(i, False), _skip_escape(pattern, i)
        elif char == "[":
            atom, i = _Atom(i, False), _skip_class(pattern, i)
        elif char == "(":
            opened, i = _open_group(pattern, i)
            if opened is not None:
                stack.append(opened)
            atom = None
        elif char == ")":
            if len(stack) == 1:  # cannot happen for a pattern the compiler accepted; refuse rather than guess
                raise _reject(f"unbalanced ')' at position {i + 1}")
            group = stack.pop()
            if group.lookbehind and group.unbounded:
                raise _reject(
                    f"lookbehind at position {group.pos + 1} has unbounded length; "
                    "use a bounded repeat such as {0,20} instead of * or +"
                )
            atom = _Atom(group.pos, group.unbounded)
            stack[-1].unbounded |= group.unbounded
            i += 1
        elif char in "*+?{":
            quant = _quantifier(pattern, i)
            if quant is None:  # `{` that is not a repeat count: the regex engine would read it as fuzzy/literal
                raise _reject(
                    f"'{{' at position {i + 1} is not a repeat count like {{2}} or {{1,3}}; "
                    "write \\{ for a literal brace (fuzzy matching is not supported)"
                )
            start, (unbounded, i) = i, quant
            if atom is not None:
                if unbounded and atom.unbounded:
                    raise _reject(
                        f"nested unbounded repetition at position {start + 1}: a repeated group at position "
                        f"{atom.pos + 1} already contains * or +, as in (a+)+; this can take exponential time"
                    )
                # an inner unbounded repeat already reached this group when its own group closed
                stack[-1].unbounded |= unbounded
                atom = None  # `a**` is invalid syntax, already refused by the compiler
        else:
            atom = _Atom(i, False)
            i += 1


def _check_escape(pattern: str, i: int) -> None:
    nxt = pattern[i + 1] if i + 1 < len(pattern) else ""
    if nxt in "123456789" or nxt in ("g", "k"):
        raise _reject(f"backreference {pattern[i : i + 2]!r} at position {i + 1} is not supported")


def _skip_escape(pattern: str, i: int) -> int:
    """The index just past the escape that starts at `pattern[i] == '\\'`."""
    nxt = pattern[i + 1] if i + 1 < len(pattern) else ""
    if nxt in _ESCAPE_WITH_BRACES and pattern.startswith("{", i + 2):
        close = pattern.find("}", i + 2)
        return close + 1 if close != -1 else len(pattern)
    return i + 2


def _skip_class(pattern: str, i: int) -> int:
    """The index just past the character class that starts at `pattern[i] == '['`."""
    j = i + 1
    if pattern.startswith("^", j):
        j += 1
    if pattern.startswith("]", j):  # a leading `]` is a literal
        j += 1
    while j < len(pattern):
        char = pattern[j]
        if char == "\\":
            j = _skip_escape(pattern, j)
        elif pattern.startswith("[:", j) and (end := pattern.find(":]", j + 2)) != -1:
            j = end + 2  # POSIX class such as [:alpha:]
        elif char == "]":
            return j + 1
        else:
            j += 1
    return j


def _open_group(pattern: str, i: int) -> tuple[_Group | None, int]:
    """Classify the group opening at `pattern[i] == '('`: a `_Group` to push (None if nothing opens) and the
    index of the group's first pattern character."""
    if not pattern.startswith("(?", i):
        return _Group(i, lookbehind=False), i + 1
    rest = pattern[i + 2 :]
    for prefix in ("<=", "<!"):
        if rest.startswith(prefix):
            return _Group(i, lookbehind=True), i + 4
    for prefix in (":", ">", "=", "!", "|"):
        if rest.startswith(prefix):
            return _Group(i, lookbehind=False), i + 2 + len(prefix)
    named = re.match(r"P?<[A-Za-z_]\w*>", rest)
    if named is not None:
        return _Group(i, lookbehind=False), i + 2 + named.end()
    if rest.startswith("#"):  # a comment: skip it whole, it opens nothing
        close = pattern.find(")", i)
        return None, close + 1
    if rest.startswith(("P=", "P>", "&", "R", "(")) or rest[:1].isdigit() or rest[:2] in ("+1", "-1"):
        raise _reject(
            f"group at position {i + 1} ('(?{rest[:2]}') is a backreference, recursion or conditional; "
            "these are not supported"
        )
    flags = re.match(r"[A-Za-z-]*", rest)
    letters = flags.group() if flags is not None else ""
    bad = sorted(set(letters) - _ALLOWED_INLINE_FLAGS)
    if bad:
        raise _reject(f"inline flag {''.join(bad)!r} at position {i + 1} is not supported; use i, m, s or a")
    after = i + 2 + len(letters)
    if pattern.startswith(":", after):  # scoped flags `(?i:...)`
        return _Group(i, lookbehind=False), after + 1
    return None, after + 1  # global flags `(?i)`: nothing opens


def _quantifier(pattern: str, i: int) -> tuple[bool, int] | None:
    """Read the quantifier at `i`: (unbounded, index after it), or None for a brace that is not a repeat
    count. Counts above MAX_REPEAT are refused here."""
    char = pattern[i]
    if char == "{":
        match = _QUANT_BRACE.match(pattern, i)
        if match is None or not (match[1] or match[3]):
            return None
        low, comma, high = match[1], match[2], match[3]
        for count in (low, high):
            if count and int(count) > MAX_REPEAT:
                raise _reject(f"repeat count {count} at position {i + 1} is above the limit of {MAX_REPEAT}")
        unbounded, end = bool(comma) and not high, match.end()
    else:
        unbounded, end = char != "?", i + 1
    if end < len(pattern) and pattern[end] in "?+":  # lazy or possessive suffix
        end += 1
    return unbounded, end
