"""The premise of a question, held to the quotes: a value the question takes for granted ("Why is the late charge
$50?", "... raise the cap to ten units?") shown in the answer must be stated by a quote, and a question asking why
something happened at a time ("Why did Suzuki stop manufacturing the V-Strom 1000 in 2009?") is not answered by
restating that event at that time ("Suzuki stopped manufacturing it in 2009 because ...") unless a quote states that
event at that time, not another one ("sales in Europe ended in 2009"). An answer that denies the premise restates it
with a negator, and is not blocked here. Used by the answerhood rule (`rules/answerhood.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_binding import figure_clause, figure_in
from quotebound.agent.gate.answer_text import Quoted, figures, keys, same_figure, sentences_with, shares
from quotebound.agent.gate.meaning.lexicon import POLES
from quotebound.agent.gate.question import AUXILIARIES, Question
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import WORD, fold, is_content, stem

# Negators (a closed class): an answer that denies a premise restates its words with one of these.
_NEGATORS: Final = frozenset("not no never neither nor none nothing nobody cannot n't".split())
# Prepositions that place a year in time ("in 2009", "since 2002"): a year after one says when, a figure elsewhere
# may be part of a name ("the V-Strom 1000").
_WHEN: Final = frozenset("in on at since during until till by before after from to as of".split())
# Words of a question that ask rather than describe: the question words and the words of a cause.
_ASKING: Final = frozenset("why how come what which who whom whose when where reason reasons cause caused".split())


def premise_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A value the question asserts, shown in the answer, that no quote (nor a verified calc) states."""
    if not q.presupposed:
        return None
    said = {f.key for f in figures(text)}
    stated = set().union(*(keys(qd.quote) for qd in quotes)) if quotes else set()
    for key, written in q.presupposed:
        number = key[1] if isinstance(key[1], Decimal) else None
        if key not in said or key in stated or (number is not None and any(same_figure(number, c) for c in calc)):
            continue
        return (
            f"the answer repeats {written!r} from the question, but no quote states it (the question may rest on a "
            "false premise); say what the quotes state instead"
        )
    return None


def _premise_words(q: Question) -> frozenset[str]:
    """The words a causal question asserts its event with: its lower-case content words that do not ask ("Why did
    Suzuki stop manufacturing the V-Strom 1000 in 2009?": stop, manufacturing)."""
    return frozenset(
        stem(w)
        for w in WORD.findall(q.text)
        if w[:1].islower() and is_content(w) and fold(w) not in _ASKING and fold(w) not in AUXILIARIES
    )


def _when_values(q: Question) -> list[tuple[Key, str]]:
    """The question's dates, and its years after a preposition of time ("in 2009"; not "the V-Strom 1000")."""
    found: list[tuple[Key, str]] = []
    for f in figures(q.text):
        before = WORD.findall(q.text[: f.start])
        timed = f.kind == "date" or (
            re.fullmatch(r"[12]\d{3}", f.text) is not None and bool(before) and fold(before[-1]) in _WHEN
        )
        if timed:
            found.append((f.key, f.text))
    return found


def event_problem(q: Question, text: str, quotes: Sequence[Quoted]) -> str | None:
    """A causal question places its event at a time ("Why did X stop manufacturing in 2009?"), the answer restates
    that event at that time without denying it, and no quote states that event at that time (it states another
    one: "sales in Europe ended in 2009")."""
    event = _premise_words(q)
    if not q.causal or not event:
        return None
    answer_figures_by_key = {f.key: f for f in figures(text)}
    for key, written in _when_values(q):
        f = answer_figures_by_key.get(key)
        if f is None:
            continue
        denied = any(fold(w) in _NEGATORS or fold(w).endswith("n't") for w in WORD.findall(text))
        if denied or not shares(event, figure_clause(text, f)):
            continue  # the answer does not restate the event at that time, or it denies it
        stating = [s for _, s in sentences_with(key, quotes)]
        if not stating:
            continue  # a time no quote states: the span rules report it
        if not any(shares(event, figure_clause(s, figure_in(s, key) or f)) for s in stating):
            return (
                f"the answer repeats the question's premise at {written!r}, but no quote states that it happened "
                "then (the question may rest on a false premise); say what the quotes state instead"
            )
    return None


def _change_poles(text: str) -> set[str]:
    """The poles ("up", "down") of the words of change `text` says with ("decreased", "rose")."""
    said = (POLES.get(fold(w)) for w in WORD.findall(text))
    return {pole for axis, pole in (p for p in said if p is not None) if axis == "change"}


def _opening_change(sentence: str) -> tuple[frozenset[str], str] | None:
    """(the content stems before the sentence's first word of change, that word's pole) when nothing but words
    stands before it ("Interest expense increased in fiscal 2019 ..."): the sentence opens by saying its subject
    changed; None otherwise."""
    opening: list[str] = []
    for m in re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?|\S", sentence):
        w = fold(m.group())
        axis_pole = POLES.get(w)
        if axis_pole is not None and axis_pole[0] == "change":
            content = frozenset(stem(x) for x in opening if is_content(x))
            return (content, axis_pole[1]) if content else None
        if not m.group()[:1].isalpha() or w in _NEGATORS:
            return None  # a mark, figure or negator first: not a plain opening statement of change
        opening.append(w)
    return None


def direction_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """A causal question asserts a direction of change ("Why did interest expense decrease ...?"), the answer
    restates it without denying it, and a quote sentence opens by stating the opposite change of what the question
    names ("Interest expense increased in fiscal 2019 ..."): the premise is false, and the answer echoes it."""
    del calc  # the answerhood rules share one signature
    asked = _change_poles(q.text)
    if not q.causal or len(asked) != 1 or not asked <= _change_poles(text):
        return None
    if any(fold(w) in _NEGATORS or fold(w).endswith("n't") for w in WORD.findall(text)):
        return None  # the answer denies the premise
    pole = next(iter(asked))
    for qd in quotes:
        for sentence in qd.sentences:
            opening = _opening_change(sentence)
            if opening is not None and opening[1] != pole and opening[0] <= q.words:
                return (
                    f"the answer repeats the question's premise that it went {pole}, but its quote says the "
                    f"opposite ({sentence[:80]!r}; the question may rest on a false premise); say what the quotes "
                    "state instead"
                )
    return None


__all__ = ["direction_problem", "event_problem", "premise_problem"]
