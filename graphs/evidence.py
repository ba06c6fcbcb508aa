"""`retrieve` returns pointers; `resolve` turns them into EvidenceRefs, resolves each under the caller's
policy with `resolve_evidence`, and packs the bundles into the model's token budget. Only bundles flow on."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from quotebound.agent.contracts import ReasonCode
from quotebound.agent.errors import ModelError, OperatorError

from .context import RunContext
from .names import Node
from .state import RunState


def resolved_question(state: RunState) -> str:
    """The question with the session's clarified values appended, so retrieval and drafting can use them."""
    context = state.get("context") or {}
    extras = "; ".join(f"{key.replace('_', ' ')}: {value}" for key, value in sorted(context.items()))
    return f"{state['question']} ({extras})" if extras else state["question"]


def retrieve(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    ctx = runtime.context
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    try:
        hits = ctx.retriever.search(resolved_question(state), allow=tools.can_read)
    except OperatorError as exc:
        failure = {"reason_code": ReasonCode.RETRIEVAL_UNAVAILABLE.value, "detail": exc.code.value}
        return {"path": [Node.RETRIEVE.value], "hits": [], "failure": failure}
    return {"path": [Node.RETRIEVE.value], "hits": [hit.model_dump(mode="json") for hit in hits]}


def resolve(state: RunState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    from quotebound.agent.offline import token_counter
    from quotebound.tools.resolve_evidence import resolve_evidence

    ctx = runtime.context
    tools = ctx.tools_for(state.get("role", "public"), state.get("labels"))
    counter = token_counter()
    budget = ctx.settings.attempts.context_token_budget
    bundles: list[dict[str, Any]] = []
    used = 0
    try:
        for hit in state.get("hits", []):
            ref = f"doc://{hit['source_id']}@v{hit['version']}#{hit['locator']}"
            try:
                bundle = resolve_evidence(tools, ref)
            except ModelError:
                continue  # unresolvable or not allowed for this caller: it simply is not evidence
            cost = counter.count(bundle.text)
            if used + cost > budget:
                continue  # a later, smaller bundle may still fit
            used += cost
            bundles.append(bundle.model_dump(mode="json"))
    except OperatorError as exc:
        failure = {"reason_code": ReasonCode.RETRIEVAL_UNAVAILABLE.value, "detail": exc.code.value}
        return {"path": [Node.RESOLVE.value], "bundles": [], "failure": failure}
    return {"path": [Node.RESOLVE.value], "bundles": bundles}
