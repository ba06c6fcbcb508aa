"""Plain-text rendering of envelopes for the terminal."""

from __future__ import annotations

from typing import Any


def render_envelope(envelope: Any) -> str:
    data = envelope.model_dump(mode="json") if hasattr(envelope, "model_dump") else dict(envelope)
    lines: list[str] = []
    status = data["status"]
    if status == "error":
        lines.append(f"ERROR ({data['code']}): {data['message']}")
    elif status == "clarify":
        lines.append("I need more detail before I can answer:")
        for question in data["questions"]:
            lines.append(f"  - {question['prompt']}  [field: {question['field']}]")
        lines.append(f"session: {data['session_id']}")
    else:
        answer = data["answer"]
        if status == "abstain":
            lines.append(f"ABSTAINED ({data['reason_code']})")
        lines += [answer["level1"], "", answer["level2"]]
        evidence = data.get("evidence") or {}
        facts = evidence.get("facts") or []
        if facts:
            lines += ["", "Facts:"]
            for fact in facts:
                lines.append(f"  - {fact['text']}")
                for support in fact["support"]:
                    lines.append(f"      [{support['source_id']} {support['locator']}] \u201c{support['quote']}\u201d")
        conflicts = evidence.get("conflicts") or []
        if conflicts:
            lines += ["", "Conflicts:"]
            for conflict in conflicts:
                values = "; ".join(f"{v['value']} ({v['source_id']} {v['locator']})" for v in conflict["values"])
                lines.append(f"  - {conflict['key']}: {values}")
        gaps = data.get("gaps") or evidence.get("gaps") or []
        if gaps:
            lines += ["", "Missing information:"]
            lines += [f"  - {gap['need']} ({gap['why']})" for gap in gaps]
        for hint in data.get("remediation_hints") or []:
            lines.append(f"  hint: {hint}")
        lines += ["", answer["level3"]]
    lines.append(f"audit_ref: {data['audit_ref']}")
    return "\n".join(lines)
