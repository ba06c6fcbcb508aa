"""Yes/no questions: the words that ask for a polarity are said by any word of permission, prohibition or duty.

"Am I allowed to charge a fee?" is answered by "You may not charge a fee" and by "Charging a fee is prohibited":
the question's "allowed" asks whether the act is permitted, and a line settles that with whatever deontic word it
uses, in either polarity. Lexical coverage, and the embedder's cosine ("allowed" is not close to "may"), count such
a line as missing the question's word. The deontic classes are the gate's own (`gate/meaning/lexicon.py`), so the
reader credits exactly the words whose polarity and modality the gate then judges.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from quotebound.agent.gate.meaning.lexicon import (
    EXEMPTION,
    OBLIGATION_MODALS,
    OBLIGATION_WORDS,
    PERMISSION,
    PROHIBITION,
)
from quotebound.agent.gate.meaning.polarity import deontic
from quotebound.agent.models.extractive_words import tokens

DEONTIC: Final = frozenset(PERMISSION | PROHIBITION | OBLIGATION_MODALS | OBLIGATION_WORDS | EXEMPTION)


def modal_senses(words: tuple[str, ...], polar: bool) -> dict[str, Mapping[str, float]]:
    """For a yes/no question (`polar`), each of its deontic words ("allowed", "required") as said, in full, by
    every deontic word a line may use; nothing for any other question, whose "may" is no part of what it asks."""
    if not polar:
        return {}
    others = {w: 1.0 for w in DEONTIC}
    return {w: {o: c for o, c in others.items() if o != w} for w in words if w in DEONTIC}


# A numbered heading fused to the start of a line's first sentence ("6. Trademarks. This License ..."): a number or
# letter, then a title of capitalized words (small function words between them), then its full stop.
_FUSED_HEADING: Final = re.compile(
    r"^\s*(?:\d+(?:\.\d+)*\.?|[a-z]\.|\([a-z0-9]+\))\s+[A-Z][\w-]*(?:\s+(?:(?:of|and|or|the|to|for|in|on)\s+)*[A-Z][\w-]*){0,5}"
    r"\.\s+(?=[A-Z])"
)
_WORD: Final = re.compile(r"[a-z']+")
_SENTENCE: Final = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
# Words that make a rule conditional: the answer is then "it depends", which the quote states and a bare lead hides.
_CONDITIONS: Final = frozenset("unless except without provided if only until".split())
_ASKED: Final = frozenset({"permission", "obligation"})
# What a quote's single deontic class answers, per class asked: a permission asked is denied by a prohibition.
_SETTLES: Final[dict[tuple[str, str], str]] = {
    ("permission", "permission"): "Yes",
    ("permission", "prohibition"): "No",
    ("obligation", "obligation"): "Yes",
    ("obligation", "exemption"): "No",
}


def without_heading(text: str) -> str:
    """The text without a numbered heading fused to its start: the heading names a part, it states nothing."""
    return _FUSED_HEADING.sub("", text, count=1) or text


def asked_class(question: str) -> str | None:
    """The deontic class a yes/no question asks about: "Can I / Am I allowed" a permission, "Must I / Is ...
    required" an obligation; None when it asks both or neither (a plain "Does X cover Y?")."""
    found = {c for c in deontic(_WORD.findall(question.lower()), set()) if c in _ASKED}
    return found.pop() if len(found) == 1 else None


def lead(question: str, words: tuple[str, ...], text: str) -> str | None:
    """Yes or No when the sentence of `text` that says most of the question's `words` settles the asked class
    with one deontic class of its own; None otherwise (the quote is then shown alone)."""
    asked = asked_class(question)
    if asked is None:
        return None
    best = max(_SENTENCE.split(text), key=lambda s: len(tokens(s) & set(words)))
    said = _WORD.findall(best.lower())
    if _CONDITIONS & set(said):  # "may not ... without written permission": a bare "No" would drop the condition
        return None
    stated = deontic(said, set())
    return _SETTLES.get((asked, stated.pop())) if len(stated) == 1 else None


def polar_text(question: str, words: tuple[str, ...], text: str) -> str:
    """A yes/no answer's text: "No." or "Yes." when the quote settles it (`lead`), before the quote's sentences
    without a fused heading."""
    body = without_heading(text)
    said = lead(question, words, body)
    return f"{said}. {body}" if said else body
