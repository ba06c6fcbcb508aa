"""What a chat model reads (the system and task messages for a `DraftInput`) and how its final reply is read.

Wording lives in `quotebound.prompts`; this module only lays data out. Everything that comes from documents or
from an earlier model turn is put between `<<<LABEL tag` / `LABEL tag>>>` markers whose tag is a hash of the
enclosed text, so the text cannot contain its own closing marker and break out of its block.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, convert_to_openai_messages
from pydantic import ValidationError

from quotebound.agent.core.contracts import Draft, EvidenceBundle
from quotebound.agent.models.base import DraftInput
from quotebound.prompts import load_prompt

_BACKTICKS = re.compile(r"`+")
_WHOLE_FENCE = re.compile(r"^```[A-Za-z]*[ \t]*\n(?P<body>.*)\n[ \t]*```$", re.S)
_ANY_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(?P<body>.*?)\n[ \t]*```", re.S)


def task_messages(request: DraftInput, *, repair: bool) -> list[BaseMessage]:
    values: dict[str, object] = {
        "question": fenced("QUESTION", request.question),
        "context": render_context(request.context),
        "evidence": render_evidence(request.bundles),
        "n_bundles": len(request.bundles),
    }
    if repair:
        previous = request.previous.model_dump_json(indent=2) if request.previous is not None else "(none)"
        values["previous"] = fenced("PREVIOUS_DRAFT", previous)
        values["findings"] = render_findings(request.findings)
    text = load_prompt("repair" if repair else "draft").render(values).rstrip("\n")
    if request.gate == "proceed_after_clarify_timeout":
        missing = ", ".join(f"`{name}`" for name in request.missing) or "the details they were asked for"
        text += "\n\n" + load_prompt("clarify_timeout").render(missing=missing)
    return [SystemMessage(load_prompt("system").render()), HumanMessage(text)]


def openai_messages(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """The conversation as OpenAI chat dicts. langchain-core drops calls whose arguments did not parse, which would
    orphan the tool messages that answered them (a 400 from the server); put them back with their raw arguments."""
    converted: list[dict[str, Any]] = []
    for message in messages:
        dicts = convert_to_openai_messages([message])
        if isinstance(message, AIMessage) and message.invalid_tool_calls:
            dicts[-1].setdefault("tool_calls", []).extend(
                {
                    "id": c.get("id"),
                    "type": "function",
                    "function": {"name": c.get("name") or "", "arguments": c.get("args") or ""},
                }
                for c in message.invalid_tool_calls
            )
        converted.extend(dicts)
    return converted


def fenced(label: str, text: str) -> str:
    tag = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return f"<<<{label} {tag}\n{text}\n{label} {tag}>>>"


def render_context(context: dict[str, str]) -> str:
    if not context:
        return "(none)"
    return fenced("CONTEXT", json.dumps(context, ensure_ascii=False, indent=2, sort_keys=True))


def render_findings(findings: list[str]) -> str:
    if not findings:
        return "- (the gate gave no details)"
    # One finding per line: a newline inside a message must not start a line of its own.
    return "\n".join(f"- {' '.join(finding.split())}" for finding in findings)


def render_evidence(bundles: list[EvidenceBundle]) -> str:
    if not bundles:
        return "(none: find what you need with the tools, or report insufficient evidence)"
    return "\n\n".join(_render_bundle(index, bundle) for index, bundle in enumerate(bundles, start=1))


def _render_bundle(index: int, bundle: EvidenceBundle) -> str:
    meta: dict[str, object] = {
        "ref": bundle.ref,
        "source_id": bundle.source_id,
        "version": bundle.version,
        "locator": bundle.locator,
        "provenance": bundle.provenance_kind,
    }
    if bundle.attribution:
        meta["attribution"] = bundle.attribution
    if bundle.flags:
        meta["flags"] = bundle.flags
    # A code fence longer than any backtick run inside the text, so the text cannot close it.
    longest = max((len(run) for run in _BACKTICKS.findall(bundle.text)), default=0)
    fence = "`" * max(3, longest + 1)
    body = f"{json.dumps(meta, ensure_ascii=False)}\n{fence}text\n{bundle.text}\n{fence}"
    return f"### Evidence {index}\n{fenced('EVIDENCE', body)}"


def parse_draft(text: str) -> Draft:
    """A Draft from a reply: bare JSON, a ```json fenced block, or the outermost {...} of the text."""
    payload = text.strip()
    if not payload.startswith("{"):
        match = _WHOLE_FENCE.match(payload) or _ANY_FENCE.search(payload)
        if match is not None:
            payload = match["body"].strip()
        elif (start := payload.find("{")) != -1 and (end := payload.rfind("}")) > start:
            payload = payload[start : end + 1]
    return Draft.model_validate_json(payload)


def describe_error(exc: Exception, limit: int = 20) -> str:
    """Readable feedback for the model: where and what, without echoing whole inputs back."""
    if not isinstance(exc, ValidationError):
        return str(exc)
    lines = [f"- {'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors(include_url=False)]
    more = [f"- ... and {len(lines) - limit} more"] if len(lines) > limit else []
    return "\n".join(lines[:limit] + more)
