"""The hard gate: plain, fast functions that recompute every claim a draft makes about its own evidence.

No model calls and no embeddings: quotes, locators, tokens, calc results and conflicts are all re-derived from
the corpus and the resolved bundles. Two steps: `gather.py` reads the store into a `GateInputs`, then the rules
(`rules/`, one module each, run in the order of `rules.RULES`) judge it without the store. `validate_draft` does
both; `judge` is the second alone. `guardrails` (imported on demand only) wraps the same checks as guardrails-ai
validators.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding, FindingCode, GateReport
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.validate import judge, validate_draft

__all__ = ["Finding", "FindingCode", "GateInputs", "GateReport", "judge", "validate_draft"]
