"""`compile_pattern`: literal folding, regex basics, every up-front refusal, and the timeout backstop."""

from __future__ import annotations

import pytest

from quotebound.agent.core.errors import ErrorCode, ModelError
from quotebound.tools.patterns import MAX_LINE_CHARS, LineMatcher, compile_pattern


def rejected(pattern: str, *, regex: bool = True, **kwargs: int) -> ModelError:
    with pytest.raises(ModelError) as info:
        compile_pattern(pattern, regex=regex, **kwargs)
    assert info.value.code is ErrorCode.PATTERN_REJECTED
    assert info.value.actor == "model"
    return info.value


# --- literal mode --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "line", "span"),
    [
        ("late fee", "The LATE FEE is due", (4, 12)),
        ("Late Fee", "the late fee", (4, 12)),
        ("late   fee", "a late\t \tfee here", (2, 12)),  # any whitespace run matches any whitespace run
        ("  late fee  ", "late fee", (0, 8)),  # the pattern's own leading/trailing blanks are ignored
        ("$25.00 (net)", "pay $25.00 (net) now", (4, 16)),  # regex metacharacters are plain text
        ("a.b", "axb a.b", (4, 7)),
        ("fee", "no match here", None),  # no match is not an error
        ("latefee", "late fee", None),  # whitespace in the line is not optional
    ],
)
def test_literal_matching(pattern: str, line: str, span: tuple[int, int] | None) -> None:
    matcher = compile_pattern(pattern)
    assert isinstance(matcher, LineMatcher)
    assert matcher.search(line) == span


def test_literal_metacharacters_cannot_backtrack() -> None:
    matcher = compile_pattern("(a+)+$")
    assert matcher.search("x (a+)+$ y") == (2, 8)
    assert matcher.search("a" * 5000 + "b") is None


@pytest.mark.parametrize("pattern", ["", "   ", "\t\n"])
@pytest.mark.parametrize("regex", [False, True])
def test_rejects_blank_patterns(pattern: str, regex: bool) -> None:
    assert "empty" in rejected(pattern, regex=regex).message


@pytest.mark.parametrize("regex", [False, True])
def test_rejects_too_long_patterns(regex: bool) -> None:
    assert "limit is 200" in rejected("x" * 201, regex=regex).message
    assert compile_pattern("x" * 200, regex=regex).search("x" * 200) == (0, 200)
    assert "limit is 5" in rejected("abcdef", regex=regex, max_chars=5).message


# --- regex mode ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "line", "span"),
    [
        (r"fee\s+\$\d+", "Late FEE $25 due", (5, 12)),  # case-insensitive by default
        (r"(?-i:Fee)", "fee Fee", (4, 7)),  # but it can be switched off
        (r"\b\d{1,3}(,\d{3})*\b", "total 1,200,000 units", (6, 15)),  # bounded inner repeats are fine
        (r"(?<=\$)\d+", "cost $40", (6, 8)),  # fixed-length lookbehind is fine
        (r"(?<=USD {0,3})\d+", "USD  40", (5, 7)),  # so is bounded variable-length lookbehind
        (r"colou?r", "COLOR", (0, 5)),
        (r"^section \d+$", "Section 12", (0, 10)),
        (r"(?P<n>a|b)c", "xbc", (1, 3)),
        (r"(?-i:\p{Lu}{2,})", "the HOA rules", (4, 7)),
        (r"[(]+\)", "f((x) (()", (6, 9)),
        (r"\d+", "no digits", None),
    ],
)
def test_regex_matching(pattern: str, line: str, span: tuple[int, int] | None) -> None:
    assert compile_pattern(pattern, regex=True).search(line) == span


@pytest.mark.parametrize(
    "pattern", [r"(a+)+", r"(.*)*", r"(\w+)*", r"(x+x+)+y", r"(?:\s+\w+)+", r"((a+){2})+", r"(a|b+)*c", r"(a+){2,}"]
)
def test_rejects_nested_unbounded_quantifiers(pattern: str) -> None:
    assert "nested unbounded repetition" in rejected(pattern).message


@pytest.mark.parametrize("pattern", [r"(a)\1", r"(?P<x>a)(?P=x)", r"(a)\g<1>", r"(?<x>a)\k<x>"])
def test_rejects_backreferences(pattern: str) -> None:
    message = rejected(pattern).message
    assert "backreference" in message or "group reference" in message or "bad escape" in message


@pytest.mark.parametrize("pattern", [r"(a)(?1)", r"a(?R)?b", r"(a)?(?(1)b|c)"])
def test_rejects_recursion_and_conditionals(pattern: str) -> None:
    assert "not supported" in rejected(pattern).message


@pytest.mark.parametrize("pattern", [r"(?<=a+)b", r"(?<!\d*)x", r"(?<=(ab)*)c", r"(?<=a{2,})b"])
def test_rejects_unbounded_lookbehind(pattern: str) -> None:
    assert "lookbehind" in rejected(pattern).message


@pytest.mark.parametrize("pattern", ["(a", "[a", "a)", "*a", "a{2,1}", r"\p{NoSuchProperty}"])
def test_rejects_invalid_syntax(pattern: str) -> None:
    assert "invalid regular expression" in rejected(pattern).message


@pytest.mark.parametrize(
    ("pattern", "named"),
    [
        ("a*", "empty string"),
        ("(?:fee)?", "empty string"),
        ("(?x) a b", "inline flag 'x'"),
        ("fee{e<=1}", "fuzzy"),
        ("a{5000}", "limit of 1000"),
    ],
)
def test_rejects_other_risky_constructs(pattern: str, named: str) -> None:
    assert named in rejected(pattern).message


@pytest.mark.parametrize("pattern", [r"(a|aa)+$", r"^(a|aa|aaa)+$"])
def test_catastrophic_pattern_is_cut_off_by_the_timeout(pattern: str) -> None:
    matcher = compile_pattern(pattern, regex=True, timeout_s=0.1)  # passes the static checks
    with pytest.raises(ModelError) as info:
        matcher.search("a" * 5000 + "b")
    assert info.value.code is ErrorCode.PATTERN_REJECTED
    assert "took longer than" in info.value.message


def test_statically_rejected_catastrophe_never_runs() -> None:
    assert "nested unbounded repetition" in rejected(r"(x+x+)+y").message


def test_long_lines_are_searched_only_in_their_first_10000_characters() -> None:
    assert MAX_LINE_CHARS == 10_000
    matcher = compile_pattern("needle")
    assert matcher.search("." * (MAX_LINE_CHARS - 6) + "needle") == (MAX_LINE_CHARS - 6, MAX_LINE_CHARS)
    assert matcher.search("." * (MAX_LINE_CHARS - 5) + "needle") is None
