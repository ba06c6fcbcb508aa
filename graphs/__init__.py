"""The cite-or-abstain state machine: state, nodes, edges, terminals."""

from .builder import build_graph
from .context import RunContext
from .names import TERMINALS, Node
from .state import RunState

__all__ = ["TERMINALS", "Node", "RunContext", "RunState", "build_graph"]
