"""A sentence's clauses: where one clause ends and the next begins (clause marks, words that open a clause, "and"
/ "or" / "that" before a verb or a subject, the comma closing an opening subordinate clause), and each clause's
features: its content words and names, its directions and modality, and the negators left over."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.meaning.direction import read_directions
from quotebound.agent.gate.meaning.lexicon import (
    ARTICLES,
    AUXILIARIES,
    MODAL_VERBS,
    NEGATORS,
    VERB_GROUP,
    is_content,
    is_lexical,
    is_weighed,
    stem,
    word_set,
)
from quotebound.agent.gate.meaning.model import Clause, Tok
from quotebound.agent.gate.meaning.polarity import deontic

# Clause marks inside a sentence.
_HARD_MARKS: Final = frozenset({";", "—", "–", "|", "?", "!"})  # a colon joins a label to what it labels

# Words that open a subordinate or contrasting clause.
CLAUSE_OPENERS: Final = word_set(
    "but whereas while although though unless except because which who whom whose if when whenever where whether once"
)
INTRO_OPENERS: Final = word_set("if when whenever because although though unless once while since as")
_RELATIVES: Final = word_set("that which who")
_SUBJECT_WORDS: Final = word_set("i we you he she it they its their our his her there this these those")
_COORDINATORS: Final = word_set("and or but yet so")


def _verbal(t: Tok) -> bool:
    return t.low in VERB_GROUP or t.low in NEGATORS


def _resumes(toks: Sequence[Tok], start: int, i: int) -> bool:
    """ "Vehicles that do not run or lack current registration | may be towed": after a relative clause with its own
    verb, a modal after a content word starts the main clause again."""
    return (
        toks[start].low in _RELATIVES
        and start + 1 < len(toks)
        and _verbal(toks[start + 1])
        and i > start + 2
        and toks[i].low in MODAL_VERBS
        and is_content(toks[i - 1].low)
    )


def clause_bounds(toks: Sequence[Tok]) -> list[tuple[int, int]]:
    """[start, end) of each clause: split at clause marks, before words that open a clause ("but", "unless",
    "which", "if" ...), before "and"/"or"/"that" when a verb or a subject pronoun follows, at the comma that
    closes an opening subordinate clause ("If X and Y conflict, X controls"), and where a relative clause ends. A dash
    between two figures joins the ends of a range ("2020 – 2024"), it does not split."""
    bounds: list[tuple[int, int]] = []
    start = 0
    intro = False
    for i, t in enumerate(toks):
        low = t.low
        nxt = toks[i + 1] if i + 1 < len(toks) else Tok("")
        initial = low == "." and i > 0 and len(toks[i - 1].low) == 1  # "Blackshear M. Bryan", "U.S."
        between = low in ("–", "—") and i > 0 and toks[i - 1].value >= 0 and nxt.value >= 0  # "2020 – 2024": a range
        if (
            (low in _HARD_MARKS and not between)
            or (low == "." and not initial)
            or (low == "," and (intro or nxt.low in _COORDINATORS or nxt.low in CLAUSE_OPENERS))
        ):
            if i > start:
                bounds.append((start, i))
            start, intro = i + 1, False
            continue
        opens = i > start and (
            low in CLAUSE_OPENERS
            or (low in ("and", "or") and (_verbal(nxt) or nxt.low in _SUBJECT_WORDS))
            or (low == "that" and (_verbal(nxt) or nxt.low in _SUBJECT_WORDS or nxt.low in ARTICLES))
            or _resumes(toks, start, i)
        )
        if opens:
            bounds.append((start, i))
            start = i
        if i == start:
            intro = low in INTRO_OPENERS
    if start < len(toks):
        bounds.append((start, len(toks)))
    return [(a, b) for a, b in bounds if any(t.low not in (",", "(", ")") for t in toks[a:b])]


def read_clause(toks: Sequence[Tok], start: int, end: int, named: frozenset[int] = frozenset()) -> Clause:
    """The clause `toks[start:end]`, read. The tokens at `named` (indices into `toks`) are words of a name ("The Man
    Who Never Was"): they count as no negator, modality or direction (`titles.named_tokens`)."""
    low = [t.low for t in toks[start:end]]
    used: set[int] = {i - start for i in named if start <= i < end}
    directions = read_directions(low, used)
    modality = deontic(low, used)
    negative = False
    focus: set[str] = set()
    stems: set[str] = set()
    names: set[str] = set()
    words: list[tuple[str, int]] = []
    ci = 0
    for i, t in enumerate(toks[start:end]):
        if t.value >= 0:
            continue
        if i not in used and t.low in NEGATORS:
            negative = not negative
            for k in range(i + 1, end - start):  # the first word it denies ("no longer jointly": "jointly")
                later = toks[start + k]
                if later.value < 0 and k not in used and is_lexical(later.low):
                    focus.add(stem(later.low))
                    break
            continue
        if not is_weighed(t.low):
            continue
        s = stem(t.low)
        if is_content(t.low):
            (names if t.cap else stems).add(s)
        words.append((s, ci))
        ci += 1
    elliptical = (
        bool(low)
        and (low[0] in NEGATORS or (len(low) > 1 and low[0] in _COORDINATORS and low[1] in NEGATORS))
        and not any(w in AUXILIARIES or w in MODAL_VERBS for w in low)
    )
    return Clause(
        start,
        end,
        frozenset(stems),
        frozenset(names),
        negative,
        frozenset(focus),
        frozenset(modality),
        frozenset(directions),
        elliptical,
        tuple(words),
        frozenset(stem(t.low) for t in toks[start:end] if t.value < 0 and is_lexical(t.low)),
    )
