"""The writer's own word: one plain word a claim may add around what its quotes say ("the charge applies", "the
town's population"), and what the model read (every word a hostile draft could take a word from).

A word of the writer's own is allowed only where no hostile draft could have taken it: it is no name, no
polarity, modality, direction, number or month word (those are held strictly), the claim states no polarity,
modality or direction at all (the word could be what a "not" turns around), the question does not use it (an
echoed premise), and no document the model read writes it (a word moved from another passage, or carried in by an
instruction there). The claim must say enough of its quotes around it: `REWORDING_CONTEXT` supported content words
for one word of its own.

In a report of insufficient evidence, a negated reporting verb ("the document does not say how many employees were
affected") says what the documents leave out, not that something is not so: it is no pole a word could be turned
around by. Any other negation, modality or direction in the claim still is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from quotebound.agent.core.contracts import Locator
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.quoted import Word, states_pole, strict, word_axes
from quotebound.agent.gate.vocabulary import NUMBER_WORDS, REPORTING_VERBS, Vocabulary, fold, in_category

_NEGATED_VERB: Final = re.compile(r"\b(?:(?:do|does|did)\s+not|(?:don|doesn|didn)['’]t|never)\s+([a-z]+)\b", re.I)
REWORDING_CONTEXT: Final = 3  # supported content words a claim needs before one word of its own may stand


@per_draft
def read_vocabulary(inputs: GateInputs) -> Vocabulary:
    """Every word the model read: every cited source (titles, and every line, instructional ones included) and every
    resolved bundle."""
    vocab = _titles(inputs)
    for line in inputs.cited_lines:
        vocab.add(line.text)
    for bundle in inputs.bundles:  # what the model read of sources it did not cite
        vocab.add(bundle.text)
    return vocab


def _titles(inputs: GateInputs) -> Vocabulary:
    """A vocabulary of the cited sources' titles, to which the read lines are added."""
    vocab = Vocabulary()
    cited = {line.source_id for line in inputs.cited_lines}
    for source in inputs.sources:
        if source.source_id in cited:
            vocab.add(source.title)
    return vocab


def own_words(
    text: str, found: Sequence[Word], missing: Sequence[int], inputs: GateInputs, question: Vocabulary
) -> bool:
    """The words `missing` of a claim (`text`, content words `found`) are the writer's own wording, not a new
    assertion (see the module docstring)."""
    reporting = inputs.draft.evidence.mode == "report_insufficient_evidence"
    if len(missing) != 1 or states_pole(_unsaid(text) if reporting else text):
        return False
    w = found[missing[0]]
    if len(found) - len(missing) < REWORDING_CONTEXT or w.name or strict(w.text) or word_axes(fold(w.text)):
        return False
    if fold(w.text) in NUMBER_WORDS or question.covers(w.text):
        return False
    return not read_vocabulary(inputs).covers(w.text)


def _unsaid(text: str) -> str:
    """`text` without its negated reporting verbs ("does not say", "don't state", "never mention")."""
    return _NEGATED_VERB.sub(lambda m: " " if in_category(m.group(1), REPORTING_VERBS) else m.group(0), text)


@per_draft
def plain_vocabulary(inputs: GateInputs) -> Vocabulary:
    """Every word the model read outside instructional text: the cited sources' titles and unflagged lines, and the
    unflagged lines of every resolved bundle. Where a word is let through because the documents write it (a key's
    label, a word describing a document), an instruction in a document must not be what writes it."""
    vocab = _titles(inputs)
    for line in inputs.cited_lines:
        if (line.source_id, line.page, line.line) not in inputs.flagged:
            vocab.add(line.text)
    for bundle in inputs.bundles:
        try:
            at = Locator.parse(bundle.locator)
        except ValueError:
            continue  # a bundle whose lines cannot be told apart cannot be told clean
        for n, text in enumerate(bundle.text.split("\n"), start=at.line_start):
            if (bundle.source_id, at.page, n) not in inputs.flagged:
                vocab.add(text)
    return vocab


__all__ = ["REWORDING_CONTEXT", "own_words", "plain_vocabulary", "read_vocabulary"]
