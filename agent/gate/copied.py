"""The draft's answer taken from one side of a copy: a sentence of another resolved document repeating a quoted
sentence word for word except for a few swapped words (`slot_copy.swapped`), where the answer gives the quote's words
and not the copy's.

"Banksia lemanniana, commonly known as the yellow lantern banksia or Lemann's banksia, is a species ..." and "...
commonly known as the red lantern banksia or Lemann's banksia, is a species ...": two documents tell one statement
with one word swapped, so they disagree on what it says; a draft answering "the yellow lantern banksia" takes one
side and must list the other. No value need be a figure or a capitalized name: the swapped words themselves are the
two values. An answer giving both sides' words (it names the disagreement) takes no side.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.slot_copy import COPIED_SIDE, COPIED_WORDS, swapped
from quotebound.agent.gate.slot_copy import words as _words
from quotebound.agent.gate.slot_occurrence import Occurrence, occurrences
from quotebound.agent.gate.slot_words import is_content
from quotebound.agent.gate.stated import Evidence, Stated, readable_sentences, source_quote_sentences


def _lines(inputs: GateInputs) -> Iterator[tuple[str, int, int, str]]:
    """(source, page, line, sentence) of every readable sentence of the resolved evidence long enough to be a copy."""
    for where in readable_sentences(inputs.bundles, inputs.flagged):
        if len(_words(where[3])) >= COPIED_WORDS:
            yield where


def _value(sentence: str, span: tuple[int, int]) -> Occurrence | None:
    """The swapped words read as one value, where they stand."""
    return next((o for o in occurrences(sentence, True, span) if (o.start, o.end) == span), None)


def takes_one_side(answer: str, ours: str, theirs: str) -> bool:
    """The answer gives the quote's swapped words (a content word among them), not the copy's."""
    said = set(_words(answer))
    mine, other = _words(ours), _words(theirs)
    content = any(is_content(w) for w in mine)
    return content and set(mine) <= said and not set(other) <= said


def swapped_pairs(inputs: GateInputs) -> list[tuple[Stated, Evidence]]:
    """(the quote's words, the copy's) for every quoted sentence another document copies with a few words swapped
    that the draft's answer takes one side of (see the module docstring)."""
    evidence = inputs.draft.evidence
    answer = evidence.answer or inputs.draft.levels.level1
    if not answer.strip():
        return []
    by_tail: defaultdict[tuple[str, ...], list[tuple[str, int, int, str]]] = defaultdict(list)
    for where in _lines(inputs):  # a copy ends as its original does: lines indexed by their last words
        by_tail[_words(where[3])[-COPIED_SIDE:]].append(where)
    if not by_tail:
        return []
    pairs: list[tuple[Stated, Evidence]] = []
    for i, (fact, checks) in enumerate(zip(evidence.facts, inputs.support_checks, strict=True)):
        if fact.calc is not None:
            continue
        for support, check in zip(fact.support, checks, strict=True):
            if not check.ok:
                continue
            check_deadline()
            for ours in source_quote_sentences(support.quote, check.context or support.quote):
                for source_id, page, line, theirs in by_tail.get(_words(ours)[-COPIED_SIDE:], ()):
                    if source_id == support.source_id:
                        continue
                    spans = swapped(ours, theirs)
                    if spans is None:
                        continue
                    (a0, a1), (b0, b1) = spans
                    if not takes_one_side(answer, ours[a0:a1], theirs[b0:b1]):
                        continue
                    mine, other = _value(ours, (a0, a1)), _value(theirs, (b0, b1))
                    if mine is not None and other is not None:
                        stated = Stated(f"fact {i}", i, mine, support.source_id, support.locator)
                        pairs.append((stated, Evidence(source_id, page, line, other)))
    return pairs


__all__ = ["swapped_pairs", "takes_one_side"]
