"""Values and when two of them differ (`conflicts.py`): the edit distance names are compared with, the tolerance
figures are compared within, and the flagged lines the conflict rules never read. Which slot a value fills is
`test_slots.py`'s.
"""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from quotebound.agent.gate.conflicts import differs, flagged_lines, levenshtein, parse_value


def test_levenshtein_known_distances() -> None:
    assert levenshtein("", "") == 0
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("flaw", "lawn") == 2
    assert levenshtein("abc", "") == 3


@given(st.text("abc", max_size=12), st.text("abc", max_size=12), st.integers(0, 6))
def test_levenshtein_with_a_limit_is_the_distance_capped_at_limit_plus_one(a: str, b: str, limit: int) -> None:
    assert levenshtein(a, b, limit) == min(levenshtein(a, b), limit + 1)


def test_levenshtein_with_a_limit_is_cheap_on_long_values() -> None:
    long_a, long_b = "a" * 4000, "b" * 4000
    start = time.perf_counter()
    assert levenshtein(long_a, long_b, 2) == 3
    assert levenshtein(long_a, long_a[:-1] + "z", 2) == 1
    assert differs(parse_value(long_a), parse_value(long_b))
    assert time.perf_counter() - start < 0.5  # the unbanded distance took 2.6 s for one such pair


@given(st.text(max_size=12), st.text(max_size=12), st.text(max_size=12))
def test_levenshtein_is_a_metric(a: str, b: str, c: str) -> None:
    assert levenshtein(a, b) == levenshtein(b, a)
    assert (levenshtein(a, b) == 0) == (a == b)
    assert levenshtein(a, c) <= levenshtein(a, b) + levenshtein(b, c)
    assert levenshtein(a, b) <= max(len(a), len(b))


def test_differs_within_the_tolerance() -> None:
    assert differs(parse_value("$325.00"), parse_value("$340.00"))
    assert not differs(parse_value("$325.00"), parse_value("325"))
    assert not differs(parse_value("$1,000"), parse_value("$1,009"))  # 0.9% apart: inside the default 1.0%
    assert differs(parse_value("March 12, 2025"), parse_value("March 13, 2025"))
    assert not differs(parse_value("Acme Landscaping"), parse_value("acme  landscaping."))
    assert not differs(parse_value("$325.00"), parse_value("$340.00"), tolerance_pct=5.0)
    assert not differs(parse_value("five"), parse_value("5"))


def test_flagged_lines_expand_spans_and_ignore_bad_locators() -> None:
    assert flagged_lines({"a.md": ["p.1 L2-L3", "nonsense"]}) == {("a.md", 1, 2), ("a.md", 1, 3)}
    assert flagged_lines(None) == frozenset()
