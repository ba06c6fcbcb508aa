"""The hard gate: plain, fast functions that recompute every claim a draft makes about its own evidence.

No model calls: quotes, locators, tokens, calc results, conflicts and what each shown claim says are all
re-derived from the corpus, the resolved bundles and the question. The one embedding a caller may add is a
paraphrase scorer (`paraphrase.py`: the store's MiniLM), which lets a claim reword its quote ("permitted" for
"allowed"); without it the gate accepts inflections only. Two steps: `gather.py` reads the store into a
`GateInputs`, then the rules (`rules/`, one module each, run in the order of `rules.RULES`) judge it without the
store. `validate_draft` does both, inside the input bounds and the deadline of `bounds.py`; `judge` is the second
alone. `guardrails` (imported on demand only) wraps the same checks as guardrails-ai validators.
"""

from __future__ import annotations

from quotebound.agent.gate.findings import Finding, FindingCode, GateReport
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.validate import judge, validate_draft

__all__ = ["Finding", "FindingCode", "GateInputs", "GateReport", "judge", "validate_draft"]
