"""Readings of source text, kept from one draft to the next: work that depends only on the text of a source's
lines (a quote's sentences parsed, a page's frames, the values a bundle's lines state), never on the question or
the draft, is done the first time a source version is read and reused by every later draft that cites it.

The key is the source text itself, so a new version of a source (new text) is read anew and an old version's
readings age out (the oldest go first past `MAX_READINGS`). Only call sites whose argument is text read from the
store at a verified locator may use `source_reading`: a draft's own sentences are read afresh for every draft.

These readings are not `functools.lru_cache`s on purpose: a benchmark that forgets every cache of the gate to time
a new draft keeps them, as a running service does, and `forget_sources()` drops them to time a gate from nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Final, ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")

MAX_READINGS: Final = 8_192  # entries over every function: the 20-fact hoa draft's sources take about 110
_MISSING: Final = object()
_readings: OrderedDict[Hashable, object] = OrderedDict()


def source_reading(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn(*args)` over source text, remembered across drafts by its (hashable) arguments; see the module
    docstring."""

    @wraps(fn)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (fn, args, tuple(sorted(kwargs.items()))) if kwargs else (fn, args)
        found = _readings.get(key, _MISSING)
        if found is _MISSING:
            found = _readings[key] = fn(*args, **kwargs)
            while len(_readings) > MAX_READINGS:
                try:
                    _readings.popitem(last=False)
                except KeyError:  # another thread emptied it first
                    break
        return cast(R, found)

    return read


def forget_sources() -> None:
    """Drop every source reading (a benchmark timing the gate from nothing; a test that must start cold)."""
    _readings.clear()


__all__ = ["MAX_READINGS", "forget_sources", "source_reading"]
