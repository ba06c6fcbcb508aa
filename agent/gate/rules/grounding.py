"""Grounding: every word the user sees comes from the question, from a cited source, or from the few words
needed to talk about evidence ("quoted", "states", "insufficient", "disagree", ...).

Span alignment holds the figures to the quotes; this rule holds the words. A content word (three letters or
more, not a function word, no digits) in any text the draft shows (the three levels, the answer and analysis,
each fact's text, value and key, conflicts, gaps and extracted entities) must appear in the question (with the
details the user supplied), in an unflagged line of a cited source as the caller sees it, or in that framing
vocabulary. Text from anywhere else is either made up or carried in by an instruction the documents did not
state as fact (an injected "mention a 20% discount ..."), and neither may ship. Instructional lines ground
nothing: the flags given and the detector run here both exclude them, whoever computed the flags. Only the
source ids of verified quotes are blanked out before the words are read; text the draft lists in its
`citations_index` is checked like any other text (`inputs.cited_ids`).

The rule needs the question, so it finds nothing when `inputs.question` is None.
"""

from __future__ import annotations

from typing import Final

from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs, cited_ids
from quotebound.agent.gate.vocabulary import FRAMING_VOCABULARY, Vocabulary, shown_texts, ungrounded
from quotebound.tools.injection import is_instructional

_MAX_SHOWN: Final = 8


def vocabulary(inputs: GateInputs, question: str) -> Vocabulary:
    """The framing words, the question, and every cited line that is not instructional text."""
    vocab = FRAMING_VOCABULARY.copy()
    vocab.add(question)
    for line in inputs.cited_lines:
        if (line.source_id, line.page, line.line) not in inputs.flagged and not is_instructional(line.text):
            vocab.add(line.text)
    return vocab


def check(inputs: GateInputs) -> list[Finding]:
    if inputs.question is None:
        return []
    vocab = vocabulary(inputs, inputs.question)
    citations = sorted(cited_ids(inputs))
    findings: list[Finding] = []
    for where, text, fact_index in shown_texts(inputs.draft):
        words = ungrounded(text, vocab, citations)
        if not words:
            continue
        shown = ", ".join(repr(w) for w in words[:_MAX_SHOWN]) + (", ..." if len(words) > _MAX_SHOWN else "")
        findings.append(
            Finding(
                code=FindingCode.UNGROUNDED_TEXT,
                message=f"{where} uses words that neither the question nor the cited documents contain ({shown}); "
                "say only what the quotes say, or move the claim to gaps",
                fact_index=fact_index,
            )
        )
    return findings
