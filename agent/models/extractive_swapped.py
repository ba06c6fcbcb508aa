"""Copies of an answering line that disagree on another value of the asked kind: both are listed, never one.

The value read from a line is its first one of the asked kind, and that is not always the one at stake: "Born in
1975, X first played for Y in the 1996 ACC Trophy" gives 1975 for "When did X start playing for Y?". When another
document holds a copy of the same sentence with one stretch swapped ("... in the 2000 ACC Trophy"), the copies agree
on 1975 and disagree on the value the question is about. A careful reader sees that the two documents state
different things in the same words and shows both: each line is valued by the value in its differing stretch.

`copy_sides` (`extractive_sides`) finds copies differing at the value read; this finds those differing elsewhere.
"""

from __future__ import annotations

import dataclasses
import re
from difflib import SequenceMatcher
from typing import Final

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_values import Value, extract_values, kind_class, value_differs

_TOKEN: Final = re.compile(r"\S+")
_MIN_SHARED: Final = 8  # words two lines must share around the stretch to be copies of one sentence
_MAX_STRETCH: Final = 6  # the most words a swapped stretch may hold and still be one value


def _alike(a: Value, b: Value) -> bool:
    """Values of one class; a bare four-digit number is read as a year or a number by its context alone."""
    classes = {kind_class(a.kind), kind_class(b.kind)}
    return len(classes) == 1 or classes == {"year", "number"}


def _spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _TOKEN.finditer(text)]


def swapped_values(mine: str, theirs: str, like: Value, tolerance_pct: float) -> tuple[Value, Value] | None:
    """When `theirs` is a copy of `mine` (at least `_MIN_SHARED` words alike, in order) that replaces exactly one
    short stretch, and both stretches hold a value of `like`'s class that differ: (mine's value, theirs')."""
    a_spans, b_spans = _spans(mine), _spans(theirs)
    a = [mine[s:e].lower() for s, e in a_spans]
    b = [theirs[s:e].lower() for s, e in b_spans]
    ops = [op for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    if len(a) - (i2 - i1) < _MIN_SHARED or i2 - i1 > _MAX_STRETCH or j2 - j1 > _MAX_STRETCH:
        return None
    start, end = a_spans[i1][0], a_spans[i2 - 1][1]
    other_start, other_end = b_spans[j1][0], b_spans[j2 - 1][1]
    ours = [v for v in extract_values(mine) if start <= v.start < end and _alike(v, like)]
    their = [v for v in extract_values(theirs) if other_start <= v.start < other_end and _alike(v, like)]
    if len(ours) != 1 or len(their) != 1 or not value_differs(ours[0], their[0], tolerance_pct):
        return None
    return ours[0], their[0]


def swapped_sides(chosen: list[Scored], pool: LinePool, tolerance_pct: float) -> list[Scored]:
    """The best line and a copy of it in another document with another value of the asked kind swapped in (see
    the module's doc), each valued by its own swapped value; [] when there is none."""
    if not chosen or chosen[0].value is None or chosen[0].value.kind == "entity":
        return []
    top = chosen[0]
    assert top.value is not None
    if any(s.value is not None and value_differs(s.value, top.value, tolerance_pct) for s in chosen[1:]):
        return []  # the answer lists a disagreement already
    others: list[Line] = [
        line for line in pool.candidates() if line.source_id != top.line.source_id and line.text != top.line.text
    ]
    for other in others:
        found = swapped_values(top.line.text, other.text, top.value, tolerance_pct)
        if found is not None:
            mine, theirs = found
            return [dataclasses.replace(top, value=mine), dataclasses.replace(top, line=other, value=theirs)]
    return []
