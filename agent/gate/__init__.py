"""The hard gate: plain, fast functions that recompute every claim a draft makes about its own evidence.

No model calls and no embeddings: quotes, locators, tokens, calc results and conflicts are all re-derived from
the corpus and the resolved bundles. `validate_draft` is the entry point; `guardrails` (imported on demand
only) wraps the same checks as guardrails-ai validators.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding, FindingCode, GateReport
from quotebound.agent.gate.validate import validate_draft

__all__ = ["Finding", "FindingCode", "GateReport", "validate_draft"]
