"""Who, answered by the doer its quote names. A who-question is answered by a name or an agent noun
(`answer_type.type_ok`), but also by any noun phrase a verified quote sentence about the question opens with as the
doer of its verb ("Only the gas utility may turn the gas back on." answers "Who is allowed to turn the gas back on?"
with "Only the gas utility."): the sentence's subject, standing before its first auxiliary or modal, with no
preposition in it (so "In an emergency, residents may ..." does not make "an emergency" a doer)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.answer_text import Quoted, shares
from quotebound.agent.gate.question import AUXILIARIES, Question
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem

_MAX_WORDS: Final = 6  # a bare doer ("The gas utility."), not a sentence of its own
# Prepositions (a closed class): a phrase holding one places or times the verb, it does not do it.
_PREPOSITIONS: Final = frozenset(
    """in on at by for from with within without into onto over under after before during until since about
    against among between through throughout upon of to""".split()
)


def _subject(sentence: str) -> list[str] | None:
    """The folded words before the sentence's first auxiliary or modal, when none of them is a preposition."""
    words = [fold(w) for w in WORD.findall(sentence)]
    at = next((i for i, w in enumerate(words) if w in AUXILIARIES), -1)
    if at <= 0 or any(w in _PREPOSITIONS for w in words[:at]):
        return None
    return words[:at]


def quoted_agent(q: Question, text: str, quotes: Sequence[Quoted]) -> bool:
    """A short answer whose own words (those the question does not say) all stand in the subject of a verified
    quote sentence that speaks of most of what the question asks about (module docstring)."""
    words = [fold(w) for w in WORD.findall(text)]
    own = {stem(w) for w in words if w not in STOPWORDS and stem(w) not in q.words}
    if not own or len(words) > _MAX_WORDS:
        return False
    for qd in quotes:
        for s in qd.sentences:
            subject = _subject(s)
            about = sum(1 for x in q.subject if shares((x,), s))
            if subject and 2 * about > len(q.subject) and own <= {stem(w) for w in subject}:
                return True
    return False
