"""Whether a count answers "how many <noun>": the quote must count that noun, not another one.

"How many directors attended the March meeting?" answered "Seven Owners attended as observers." quotes a real
count of Owners: a number moved to another subject. In prose a count names what it counts right after it ("seven
Owners", "five (5) directors"). The asked noun is the phrase after "how many" (`counted_words`: "local clubs"). A
count is taken for another noun only when every quoted sentence stating it names another content word there AND
says no word of the asked phrase: "a Board of five (5) directors" and "three (3) of the five
(5) directors" count directors; a table row's cell is `count_problem`'s to judge. A count the draft computes with
`calc` is its own reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from quotebound.agent.gate.answer_text import (
    Quoted,
    answer_figures,
    cells,
    figures,
    next_word,
    same_figure,
    sentences_with,
)
from quotebound.agent.gate.answer_type import COUNTED_RE
from quotebound.agent.gate.question import Question
from quotebound.agent.gate.question_words import TIME_UNITS
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem

_PHRASE_WORDS = 3  # "how many local clubs", "how many full-time staff members": the counted noun ends the phrase


def counted_words(question: str) -> frozenset[str]:
    """The stems of the noun phrase right after "how many": at most three words up to a function word, ending with
    its first plural ("How many local clubs does ...": local, club; "How many directors attended ...": director;
    "How many covered parking spaces ...": cover, park, space)."""
    found = COUNTED_RE.search(question)
    if found is None:
        return frozenset()
    words: list[str] = []
    for w in WORD.findall(question[found.start(1) :]):
        if fold(w) in STOPWORDS or len(words) == _PHRASE_WORDS:
            break
        words.append(stem(w))
        if fold(w).endswith("s"):
            break
    return frozenset(words)


def _counts_other(asked: frozenset[str], sentence: str, key: object) -> bool:
    """`sentence` says none of the asked phrase's words and names another content word right after each figure of
    `key` it states."""
    if any(stem(w) in asked for w in WORD.findall(sentence)):
        return False
    after = [next_word(sentence, f.end) for f in figures(sentence) if f.key == key]
    return bool(after) and all(w.isalpha() and w not in STOPWORDS and stem(w) not in asked for w in after)


def counted_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A finding's message when the answer's count is, in every quoted sentence that states it, a count of another
    noun than the question's; None otherwise."""
    counted = COUNTED_RE.search(q.text)
    noun = fold(counted.group(1)) if counted is not None else ""
    if not noun or noun in TIME_UNITS or q.expects != "count":
        return None
    asked = counted_words(q.text)
    if not asked:
        return None
    for f in answer_figures(q, text):
        number = f.number
        if number is None or any(same_figure(number, c) for c in calc):
            continue
        stating = sentences_with(f.key, quotes)
        if not stating or any(cells(s) is not None for _, s in stating):
            continue
        if all(_counts_other(asked, s, f.key) for _, s in stating):
            other = next_word(stating[0][1], next(g.end for g in figures(stating[0][1]) if g.key == f.key))
            return (
                f"the question counts {noun}, but the quote gives {f.text!r} as a count of {other}, not of "
                f"{noun}; quote the line that counts {noun}, or report that the documents do not say"
            )
    return None


__all__ = ["counted_problem"]
