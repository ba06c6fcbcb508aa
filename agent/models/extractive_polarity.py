"""Yes/no questions: the words that ask for a polarity are said by any word of permission, prohibition or duty.

"Am I allowed to charge a fee?" is answered by "You may not charge a fee" and by "Charging a fee is prohibited":
the question's "allowed" asks whether the act is permitted, and a line settles that with whatever deontic word it
uses, in either polarity. Lexical coverage, and the embedder's cosine ("allowed" is not close to "may"), count such
a line as missing the question's word. The deontic classes are the gate's own (`gate/meaning/lexicon.py`), so the
reader credits exactly the words whose polarity and modality the gate then judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from quotebound.agent.gate.meaning.lexicon import (
    EXEMPTION,
    OBLIGATION_MODALS,
    OBLIGATION_WORDS,
    PERMISSION,
    PROHIBITION,
)

DEONTIC: Final = frozenset(PERMISSION | PROHIBITION | OBLIGATION_MODALS | OBLIGATION_WORDS | EXEMPTION)


def modal_senses(words: tuple[str, ...], polar: bool) -> dict[str, Mapping[str, float]]:
    """For a yes/no question (`polar`), each of its deontic words ("allowed", "required") as said, in full, by
    every deontic word a line may use; nothing for any other question, whose "may" is no part of what it asks."""
    if not polar:
        return {}
    others = {w: 1.0 for w in DEONTIC}
    return {w: {o: c for o, c in others.items() if o != w} for w in words if w in DEONTIC}
