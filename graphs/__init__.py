"""The cite-or-abstain state machine: state, nodes, edges, terminals."""

from quotebound.graphs.builder import build_graph
from quotebound.graphs.checkpoints import checkpoint_serde
from quotebound.graphs.context import RunContext
from quotebound.graphs.names import TERMINALS, Node
from quotebound.graphs.state import RunState

__all__ = ["TERMINALS", "Node", "RunContext", "RunState", "build_graph", "checkpoint_serde"]
