"""`build_graph`: the cite-or-abstain state machine. Only the two terminals reach END."""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Checkpointer

from quotebound.agent.core.settings import Settings
from quotebound.graphs.checkpoints import with_state_types
from quotebound.graphs.clarify import clarify
from quotebound.graphs.context import RunContext
from quotebound.graphs.drafting import draft, repair
from quotebound.graphs.evidence import resolve, retrieve
from quotebound.graphs.names import Node
from quotebound.graphs.preflight import preflight
from quotebound.graphs.routes import after_evidence_step, after_preflight, after_validate
from quotebound.graphs.state import RunState
from quotebound.graphs.terminals import abstain, verified_answer
from quotebound.graphs.validation import validate


def build_graph(
    settings: Settings | None = None, checkpointer: Checkpointer = None
) -> CompiledStateGraph[RunState, RunContext, RunState, RunState]:
    """Compile the graph. `settings` fixes the shape's bounds (repair cycles); per-run dependencies (store,
    model, policy) come in as the run context: `graph.invoke(state, config, context=RunContext(...))`, so one
    compiled graph serves every caller. A checkpointer that keeps an allowlist of the types it may rebuild gets
    the state's types added (`graphs/checkpoints.py`; `checkpoint_serde()` makes a serializer that keeps one)."""
    limits = (settings or Settings()).attempts
    builder = StateGraph(RunState, context_schema=RunContext)
    builder.add_node(Node.PREFLIGHT.value, preflight)
    builder.add_node(Node.CLARIFY.value, clarify)
    builder.add_node(Node.RETRIEVE.value, retrieve)
    builder.add_node(Node.RESOLVE.value, resolve)
    builder.add_node(Node.DRAFT.value, draft)
    builder.add_node(Node.VALIDATE.value, validate)
    builder.add_node(Node.REPAIR.value, repair)
    builder.add_node(Node.VERIFIED_ANSWER.value, verified_answer)
    builder.add_node(Node.ABSTAIN.value, abstain)

    builder.add_edge(START, Node.PREFLIGHT.value)
    builder.add_conditional_edges(Node.PREFLIGHT.value, after_preflight)
    builder.add_edge(Node.CLARIFY.value, Node.PREFLIGHT.value)
    for step, following in ((Node.RETRIEVE, Node.RESOLVE), (Node.RESOLVE, Node.DRAFT), (Node.DRAFT, Node.VALIDATE)):
        builder.add_conditional_edges(
            step.value, after_evidence_step, {"abstain": Node.ABSTAIN.value, "continue": following.value}
        )
    builder.add_conditional_edges(
        Node.VALIDATE.value,
        partial(after_validate, n_repairs=limits.n_repairs),
        [Node.VERIFIED_ANSWER.value, Node.REPAIR.value, Node.ABSTAIN.value],
    )
    builder.add_conditional_edges(
        Node.REPAIR.value, after_evidence_step, {"abstain": Node.ABSTAIN.value, "continue": Node.VALIDATE.value}
    )
    builder.add_edge(Node.VERIFIED_ANSWER.value, END)
    builder.add_edge(Node.ABSTAIN.value, END)
    return builder.compile(checkpointer=with_state_types(checkpointer), name="quotebound")
