"""What a checkpoint of the graph's state may rebuild: quotebound's own state types, and nothing else.

LangGraph's serializer stores a pydantic model (and an enum inside one) as its class's module and name plus its
data, and rebuilds it by importing that class. Left to its default it imports any class a checkpoint names (and
logs that this will be refused in a future version); `checkpoint_serde()` allows exactly the classes `RunState`
can hold, on top of LangGraph's own safe types, so a checkpoint file cannot make a load import anything else.
"""

from __future__ import annotations

import types
from enum import Enum
from typing import Annotated, Union, get_args, get_origin, get_type_hints, is_typeddict

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Checkpointer
from pydantic import BaseModel

from quotebound.graphs.state import RunState

_CONTAINERS = (list, dict, tuple, set, frozenset)


def _collect(hint: object, found: set[type]) -> None:
    """Add the models and enums a value of type `hint` may hold, however deeply nested, to `found`."""
    if isinstance(hint, type) and issubclass(hint, Enum):
        found.add(hint)
    elif isinstance(hint, type) and issubclass(hint, BaseModel):
        if hint not in found:
            found.add(hint)
            for field in hint.model_fields.values():
                _collect(field.annotation, found)
    elif is_typeddict(hint):
        for field_hint in get_type_hints(hint, include_extras=True).values():
            _collect(field_hint, found)
    elif get_origin(hint) is Annotated:
        _collect(get_args(hint)[0], found)
    elif get_origin(hint) is Union or isinstance(hint, types.UnionType) or get_origin(hint) in _CONTAINERS:
        for arg in get_args(hint):
            _collect(arg, found)


def state_types() -> frozenset[type]:
    """Every model and enum class a `RunState` value can hold."""
    found: set[type] = set()
    _collect(RunState, found)
    return frozenset(found)


# (module, class name) pairs, as the serializer names a class
STATE_ALLOWLIST: frozenset[tuple[str, str]] = frozenset((cls.__module__, cls.__name__) for cls in state_types())


def checkpoint_serde() -> JsonPlusSerializer:
    """The serializer for a checkpointer of this graph: it rebuilds the state's types and refuses the rest."""
    return JsonPlusSerializer(allowed_msgpack_modules=STATE_ALLOWLIST)


def with_state_types(checkpointer: Checkpointer) -> Checkpointer:
    """`checkpointer`, its allowlist (if it keeps one) extended by the state's types."""
    if isinstance(checkpointer, BaseCheckpointSaver):
        return checkpointer.with_allowlist(STATE_ALLOWLIST)
    return checkpointer
