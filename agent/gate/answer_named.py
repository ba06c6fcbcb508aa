"""A derived figure a quote names as what it is. A question asking for "the net average selling price" asks for an
average, but a quote sentence that writes that very name before its figure ("Net average selling price of shell
eggs decreased from $1.397 per dozen for fiscal 2018 to $1.265 per dozen for fiscal 2019") states the average
itself: its figures are the averages, quoted, with nothing left to compute. Only a derivation word that names a
quantity with the next word ("average selling", "total revenue"; not "the change in revenue", which asks for a
difference of two figures), and only for a question of one period at most (an average over two years is computed,
even from quoted averages)."""

from __future__ import annotations

from itertools import pairwise

from quotebound.agent.gate.answer_calc import years
from quotebound.agent.gate.answer_text import Figure
from quotebound.agent.gate.question import Derivation, Question
from quotebound.agent.gate.vocabulary import WORD, is_content, stem


def _name(q: Question, d: Derivation) -> tuple[str, str] | None:
    """The stems of the derivation word and the content word right after it in the question ("average", "sell")."""
    words = WORD.findall(q.text)
    target = stem(d.word)
    for a, b in pairwise(words):
        if stem(a) == target and is_content(b):
            return target, stem(b)
    return None


def named_derived(q: Question, d: Derivation, sentence: str, figure: Figure) -> bool:
    """`sentence` writes the quantity's name the question uses, derivation word first, before `figure` (module
    docstring)."""
    name = _name(q, d)
    if name is None or len(years(q.text)) > 1:
        return False
    before = [stem(w) for w in WORD.findall(sentence[: figure.start])]
    return any(pair == name for pair in pairwise(before))
