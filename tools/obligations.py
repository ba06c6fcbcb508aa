"""Policy obligations applied to source lines before anyone downstream (model, validator, caller) sees them.

`apply_obligations(lines, obligations)` is pure and deterministic: it returns the visible lines (as many as it
was given, so line numbers and locators stay stable) and what it applied, e.g.
`"mask:email x2 (rule mask-contact-details)"` (only obligations that changed something are listed).

Order, whatever the order of the list: `drop` first (on the original line), then `generalize`, then `mask`;
obligations of one kind apply in list order. What each kind does:

- mask `email`: addresses (also `name [at] host [dot] org`) become `[email withheld]`;
- mask `phone`: US numbers (`(541) 555-0187`, `541-555-0187`, `+1 541.555.0187`, with `ext. 12`) and
  international ones written with a leading `+` (`+44 20 7946 0958`) become `[phone withheld]`;
- mask `account_number`: IBANs, the number after an account word (`account`, `acct`, `routing`, `IBAN`, ...),
  digit runs of 8 to 19 digits and 4-4-4(-4) groups become `[account number withheld]`; dates, money, decimals,
  section numbers and years never match (a bare run is kept when it reads as a yyyymmdd date);
- mask `pattern:<regex>`: every match becomes `[withheld]`;
- generalize `coordinates`: decimal degrees (`38.897700, -77.036500`, `lat 38.8977 lon -77.0365`,
  `38.8977° N, 77.0365° W`, `N 38.8977`) and degrees-minutes-seconds (`38°53'51.7"N`) are rounded half-up to
  `precision` decimals; a value already at or below that precision is left as written;
- drop `<regex>`: a line the regex matches becomes "".

Operator regexes (mask patterns, drops) run under a timeout; one that takes too long fails closed with
`OperatorError(MISCONFIGURED)` rather than letting the line through.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

import regex

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.tools.policy import Obligation

MASK_KINDS = ("email", "phone", "account_number")
PATTERN_PREFIX = "pattern:"
PLACEHOLDERS = {
    "email": "[email withheld]",
    "phone": "[phone withheld]",
    "account_number": "[account number withheld]",
    "pattern": "[withheld]",
}
DEFAULT_TIMEOUT_S = 1.0

# --- built-in recognizers ------------------------------------------------------------------------------------

_AT = r"(?:\s*@\s*|\s*[\[(]\s*at\s*[\])]\s*)"
_DOT = r"(?:\.|\s*[\[(]\s*dot\s*[\])]\s*)"
_EMAIL = re.compile(
    rf"(?<![\w.%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*{_AT}[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    rf"(?:{_DOT}[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*{_DOT}[A-Za-z]{{2,24}}(?![\w-])",
    re.IGNORECASE,
)
# Digits of a phone may not touch other digits, a decimal point, a dollar sign or a section sign.
_NOT_BEFORE = r"(?<![\w$§.,/+-])"
_NOT_AFTER = r"(?![\w%]|[.,/-]\d)"
_EXT = r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,6})?"
_PHONE = re.compile(
    "|".join(
        (
            # US / NANP: (541) 555-0187, 541-555-0187, 541.555.0187, 1-541-555-0187, +1 (541) 555 0187
            rf"{_NOT_BEFORE}(?:\+?1[\s.-]?)?(?:\(\d{{3}}\)\s?|\d{{3}}[\s.-])\d{{3}}[\s.-]\d{{4}}{_EXT}{_NOT_AFTER}",
            rf"(?<![\w$§.,/+-])\d{{10}}{_EXT}{_NOT_AFTER}",
            # international, with a leading +: +44 20 7946 0958, +33 (0)1 42 68 53 00 (a leading 00 would read
            # account numbers as phones)
            # (possessive digit groups: a hostile run of digits cannot make the splits backtrack exponentially)
            rf"(?<![\w$§.,/])\+[1-9]\d{{0,2}}(?:[\s.-]?(?:\(\d{{1,4}}\)|\d{{1,5}}+)){{2,6}}{_EXT}{_NOT_AFTER}",
        )
    ),
    re.IGNORECASE,
)
_ACCOUNT_WORD = re.compile(
    r"\b(?:account|acct|a/c|routing|aba|iban|sort\s+code|bsb|swift|bic)\b(?:\s+(?:no\.?|number|num\.?|#))?"
    r"\s*(?:is\s+)?[:#]?\s*",
    re.IGNORECASE,
)
# The number after an account word: digit groups joined by single spaces or hyphens, not a decimal or money.
_ACCOUNT_AFTER_WORD = re.compile(r"\d+(?:[ -]\d+){0,8}(?![\w%]|[.,]\d)")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b")
_DIGIT_RUN = re.compile(r"(?<![\w$§.,/-])(?:\d{8,19}|\d{4}(?:[ -]\d{4}){2,3})(?![\w%]|[.,]\d)")


def _is_date_run(digits: str) -> bool:
    if len(digits) != 8:
        return False
    try:
        date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return False
    return 1800 <= int(digits[:4]) <= 2200


# --- coordinates -----------------------------------------------------------------------------------------------

_NUM = r"[-+−]?\d{1,3}\.\d+"
_DEG = r"(?:\s*°\s*|\s*)"  # not `\s*°?\s*`: two adjacent `\s*` backtrack quadratically on long blanks
_PAIR = re.compile(
    rf"(?<![\w$§.,/-])(?P<a>{_NUM})(?P<sep>\s*[,;/]\s*|\s+)(?P<b>{_NUM})(?![\w%°]|\.?\d)",
)
_HEMI_AFTER = re.compile(rf"(?<![\w$§.,/-])(?P<a>\d{{1,3}}\.\d+)(?P<deg>{_DEG})(?P<h>[NSEW])\b")
_HEMI_BEFORE = re.compile(r"\b(?P<h>[NSEW])(?P<sp>\s*)(?P<a>\d{1,3}\.\d+)(?![\w%]|\.?\d)")
_LABELLED = re.compile(
    rf"\b(?P<label>lat(?:itude)?|lon(?:g(?:itude)?)?|lng)\b(?P<sep>\s*[:=]\s*|\s*)(?P<a>{_NUM})(?![\w%]|\.?\d)",
    re.IGNORECASE,
)
_DMS = re.compile(
    r"(?<![\w.])(?P<d>\d{1,3})\s*°\s*(?P<m>\d{1,2}(?:\.\d+)?)\s*['′’]\s*(?:(?P<s>\d{1,2}(?:\.\d+)?)\s*(?:\"|″|''|”)\s*)?"
    r"(?P<h>[NSEW])\b"
)


def _round(text: str, precision: int) -> str | None:
    """`text` rounded half-up to `precision` decimals, or None when it has no more decimals than that."""
    sign = "-" if text[0] in "-−" else ""
    digits = text.lstrip("+-−")
    decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
    if decimals <= precision:
        return None
    rounded = Decimal(digits).quantize(Decimal(1).scaleb(-precision), rounding=ROUND_HALF_UP)
    if rounded == 0:
        sign = ""
    return f"{sign}{rounded}"


def _in_range(a: str, b: str) -> bool:
    x, y = abs(float(a.replace("−", "-"))), abs(float(b.replace("−", "-")))
    return x <= 180 and y <= 180 and min(x, y) <= 90


def generalize_coordinates(line: str, precision: int) -> tuple[str, int]:
    """The line with every coordinate rounded to `precision` decimals, and how many values changed."""
    count = 0

    def rounded(value: str) -> str:
        nonlocal count
        new = _round(value, precision)
        if new is None:
            return value
        count += 1
        return new

    def dms(match: re.Match[str]) -> str:
        nonlocal count
        seconds = Decimal(match["s"] or 0)
        value = Decimal(match["d"]) + Decimal(match["m"]) / 60 + seconds / 3600
        count += 1
        return f"{value.quantize(Decimal(1).scaleb(-precision), rounding=ROUND_HALF_UP)}°{match['h']}"

    def pair(match: re.Match[str]) -> str:
        if not _in_range(match["a"], match["b"]) or min(_decimals(match["a"]), _decimals(match["b"])) < 3:
            return match[0]  # two ordinary decimals ("3.50, 4.00"), not a position
        return f"{rounded(match['a'])}{match['sep']}{rounded(match['b'])}"

    line = _DMS.sub(dms, line)
    line = _HEMI_AFTER.sub(lambda m: f"{rounded(m['a'])}{m['deg']}{m['h']}", line)
    line = _HEMI_BEFORE.sub(lambda m: f"{m['h']}{m['sp']}{rounded(m['a'])}", line)
    line = _LABELLED.sub(lambda m: f"{m['label']}{m['sep']}{rounded(m['a'])}", line)
    line = _PAIR.sub(pair, line)
    return line, count


def _decimals(value: str) -> int:
    return len(value.split(".", 1)[1]) if "." in value else 0


# --- masks -------------------------------------------------------------------------------------------------


def _mask_account_numbers(line: str) -> tuple[str, int]:
    placeholder = PLACEHOLDERS["account_number"]
    out: list[str] = []
    pos = count = 0
    for word in _ACCOUNT_WORD.finditer(line):
        if word.start() < pos:
            continue
        number = _ACCOUNT_AFTER_WORD.match(line, word.end())
        digits = re.sub(r"\D", "", number[0]) if number else ""
        if number is None or len(digits) < 4 or (len(digits) == 4 and 1800 <= int(digits) <= 2200):
            continue  # no number after the word, or a year ("the account for 2025")
        out += [line[pos : number.start()], placeholder]
        pos, count = number.end(), count + 1
    line = "".join([*out, line[pos:]])
    line, n_iban = _IBAN.subn(placeholder, line)

    def run(match: re.Match[str]) -> str:
        nonlocal count
        if _is_date_run(re.sub(r"\D", "", match[0])):
            return match[0]
        count += 1
        return placeholder

    line = _DIGIT_RUN.sub(run, line)
    return line, count + n_iban


# --- compiled obligations ---------------------------------------------------------------------------------------

LineFn = Callable[[str], tuple[str, int]]


@dataclass(frozen=True)
class _Compiled:
    order: int  # 0 drop, 1 generalize, 2 mask
    label: str  # "mask:email", "generalize:coordinates@2", "drop:line"
    rule: str
    apply: LineFn


def _user_regex(pattern: str, rule: str) -> regex.Pattern[str]:
    try:
        return regex.compile(pattern, regex.VERSION0)
    except (regex.error, OverflowError, RecursionError) as exc:
        message = f"obligation of rule {rule!r}: bad regex {pattern!r}: {exc}"
        raise OperatorError(ErrorCode.MISCONFIGURED, message) from None


def _timed(pattern: str, rule: str) -> str:
    return f"the regex {pattern!r} of rule {rule!r} took too long on a line; simplify it (nothing was shown)"


def _compile_drop(pattern: str, rule: str, timeout_s: float) -> _Compiled:
    compiled = _user_regex(pattern, rule)

    def drop(line: str) -> tuple[str, int]:
        try:
            hit = compiled.search(line, timeout=timeout_s) is not None
        except TimeoutError:
            raise OperatorError(ErrorCode.MISCONFIGURED, _timed(pattern, rule)) from None
        return ("", 1) if hit and line else (line, 0)

    return _Compiled(0, "drop:line", rule, drop)


def _compile_generalize(what: str, precision: int | None, rule: str) -> _Compiled:
    if what != "coordinates":
        raise OperatorError(ErrorCode.MISCONFIGURED, f"rule {rule!r}: cannot generalize {what!r} (only coordinates)")
    if precision is None or not 0 <= precision <= 8:
        raise OperatorError(ErrorCode.MISCONFIGURED, f"rule {rule!r}: coordinates need a precision from 0 to 8")
    return _Compiled(1, f"generalize:coordinates@{precision}", rule, lambda s: generalize_coordinates(s, precision))


def _compile_mask(what: str, rule: str, timeout_s: float) -> _Compiled:
    builtin: dict[str, LineFn] = {
        "email": lambda s: _EMAIL.subn(PLACEHOLDERS["email"], s),
        "phone": lambda s: _PHONE.subn(PLACEHOLDERS["phone"], s),
        "account_number": _mask_account_numbers,
    }
    if what in builtin:
        return _Compiled(2, f"mask:{what}", rule, builtin[what])
    if not what.startswith(PATTERN_PREFIX):
        raise OperatorError(
            ErrorCode.MISCONFIGURED,
            f"rule {rule!r}: cannot mask {what!r} (use one of {', '.join(MASK_KINDS)} or pattern:<regex>)",
        )
    source = what[len(PATTERN_PREFIX) :]
    compiled = _user_regex(source, rule)
    if compiled.search("") is not None:
        message = f"rule {rule!r}: mask pattern {source!r} matches the empty string"
        raise OperatorError(ErrorCode.MISCONFIGURED, message)

    def mask(line: str) -> tuple[str, int]:
        try:
            masked: tuple[str, int] = compiled.subn(PLACEHOLDERS["pattern"], line, timeout=timeout_s)  # regex: untyped
            return masked
        except TimeoutError:
            raise OperatorError(ErrorCode.MISCONFIGURED, _timed(source, rule)) from None

    return _Compiled(2, "mask:pattern", rule, mask)


def _compile_one(obligation: Obligation, timeout_s: float) -> _Compiled:
    kind, what, rule = obligation.kind, obligation.what, obligation.rule
    if kind == "drop":
        return _compile_drop(what, rule, timeout_s)
    if kind == "generalize":
        return _compile_generalize(what, obligation.precision, rule)
    if kind == "mask":
        return _compile_mask(what, rule, timeout_s)
    raise OperatorError(ErrorCode.MISCONFIGURED, f"rule {rule!r}: unknown obligation kind {kind!r}")


@lru_cache(maxsize=512)
def _compile_cached(obligation: Obligation, timeout_s: float) -> _Compiled:
    return _compile_one(obligation, timeout_s)


def check_obligation(obligation: Obligation) -> None:
    """Raise `OperatorError(MISCONFIGURED)` if `obligation` cannot be applied (bad kind, regex or precision)."""
    _compile_cached(obligation, DEFAULT_TIMEOUT_S)


def describe(obligation: Obligation) -> str:
    """`mask:email (rule mask-contact-details)`: how decisions and receipts name an obligation."""
    label = _compile_cached(obligation, DEFAULT_TIMEOUT_S).label
    return f"{label} (rule {obligation.rule})" if obligation.rule else label


def apply_obligations(
    lines: Sequence[str], obligations: Sequence[Obligation], *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> tuple[list[str], list[str]]:
    """(visible lines, descriptions of what was applied), see the module docstring."""
    compiled = sorted(
        (_compile_cached(o, timeout_s) for o in dict.fromkeys(obligations)), key=lambda c: c.order
    )  # sorted() is stable: list order within a kind
    visible = list(lines)
    counts: dict[tuple[str, str], int] = {}
    for step in compiled:
        total = 0
        for i, line in enumerate(visible):
            if not line:
                continue
            visible[i], n = step.apply(line)
            total += n
        if total:
            key = (step.label, step.rule)
            counts[key] = counts.get(key, 0) + total
    applied = [f"{label} x{n}" + (f" (rule {rule})" if rule else "") for (label, rule), n in counts.items()]
    return visible, applied
