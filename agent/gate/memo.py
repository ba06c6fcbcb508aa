"""Per-draft memoisation: work several rules need from one `GateInputs` (its claims, the values it states, its
token pools) is done once per draft, and forgotten with the draft.

The results live on the `GateInputs` itself (its `memo` slot, which takes no part in equality or `replace`), so
nothing outside the draft holds it alive, an id can never be confused with another draft's, and a new
`GateInputs` (a repair, a test's `replace(inputs, question=...)`) starts empty. Anything the function reads
besides the inputs must be passed as an argument, and hashable: it is part of the key.

    @per_draft
    def claims(inputs: GateInputs) -> tuple[Claim, ...]: ...

    @per_draft
    def source_text(inputs: GateInputs, source_ids: frozenset[str]) -> str: ...

A result is shared by every caller for that draft, so it must not be mutated: return tuples, frozensets and frozen
objects, or copy before changing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import Concatenate, ParamSpec, TypeVar, cast

from quotebound.agent.gate.inputs import GateInputs

P = ParamSpec("P")
R = TypeVar("R")

_MISSING = object()


def per_draft(fn: Callable[Concatenate[GateInputs, P], R]) -> Callable[Concatenate[GateInputs, P], R]:
    """`fn(inputs, *args)` computed once per `inputs` and `args` (which must be hashable), then remembered on
    `inputs` (see the module docstring). An exception is not remembered: the next call computes again."""

    @wraps(fn)
    def remembered(inputs: GateInputs, /, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (remembered, args, tuple(sorted(kwargs.items()))) if kwargs else (remembered, args)
        store = inputs.memo
        found = store.get(key, _MISSING)
        if found is _MISSING:
            found = store[key] = fn(inputs, *args, **kwargs)
        return cast(R, found)

    return remembered


def forget(inputs: GateInputs) -> None:
    """Drop everything remembered for `inputs` (a benchmark measuring the rules from nothing uses it)."""
    inputs.memo.clear()


__all__ = ["forget", "per_draft"]
