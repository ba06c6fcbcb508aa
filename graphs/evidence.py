"""`retrieve` returns pointers; `resolve` turns them into EvidenceRefs, resolves each under the caller's
policy with `resolve_evidence`, and packs the bundles into the model's token budget. Only bundles flow on.

Both only read the store: any exception here (vector store gone, locator index corrupt, embedder broken) is a
store fault and ends the run in a `retrieval_unavailable` abstention."""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.agent.core.offline import token_counter
from quotebound.graphs.context import RunContext
from quotebound.graphs.faults import store_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import RunState
from quotebound.tools.resolve_evidence import resolve_hits


def question_context(state: RunState) -> dict[str, str]:
    """The session's values this question refers to. A session keeps every clarified value ("unit": "4B"), but
    only the ones preflight found the question pointing at ("my unit") belong to it: "What is the assessment per
    Unit?" on the same session is not about unit 4B. A run paused before that assessment (an older checkpoint, a
    clarify timeout) uses them all, as before."""
    context = dict(state.get("context") or {})
    plan = state.get("clarify")
    if plan is None or plan.resolved_context is None:
        return context
    wanted = {key.lower() for key in plan.resolved_context.keys}
    return {key: value for key, value in context.items() if key.lower() in wanted}


def resolved_question(state: RunState) -> str:
    """The question with the clarified values it refers to appended, so retrieval, drafting and the gate can use
    them. A field's name is kept only when it is the question's own word ("unit: 4B" for "my unit"): a name the
    clarify step made up ("time_scope", "detail") would become question words the evidence must match, and no
    document holds them ("What is the assessment this year? (2025)", not "(time scope: 2025)")."""
    context = question_context(state)
    asked = set(re.findall(r"\w+", state["question"].casefold()))
    extras = "; ".join(
        f"{key.replace('_', ' ')}: {value}" if set(key.casefold().split("_")) <= asked else value
        for key, value in sorted(context.items())
    )
    return f"{state['question']} ({extras})" if extras else state["question"]


def retrieve(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    ctx = runtime.context
    path = [Node.RETRIEVE.value]
    try:
        tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
        hits = ctx.retriever.search(resolved_question(state), allow=tools.can_read, changed=tools.changed_chunks)
    except Exception as exc:  # everything this node does reads the store or its indexes
        return {"path": path, "hits": [], "failure": store_fault(Node.RETRIEVE, exc)}
    runtime.stream_writer({"node": Node.RETRIEVE.value, "hits": len(hits)})  # a count for a chat app's progress
    return {"path": path, "hits": hits}


def resolve(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    path = [Node.RESOLVE.value]
    try:
        bundles = _resolve_hits(state, runtime.context)
    except Exception as exc:  # the locator index or the lines table failed: nothing resolved can be trusted
        return {"path": path, "bundles": [], "failure": store_fault(Node.RESOLVE, exc)}
    return {"path": path, "bundles": bundles}


def _resolve_hits(state: RunState, ctx: RunContext) -> list[EvidenceBundle]:
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    budget = ctx.settings.attempts.context_token_budget
    return resolve_hits(tools, state.get("hits", []), budget=budget, counter=token_counter())
