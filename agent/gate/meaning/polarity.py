"""Polarity and modality. Negators and the deontic classes (permission, prohibition, obligation, exemption) are
composed per clause (`deontic`): "may not" and "no ... may" are a prohibition, "not required" an exemption, "not
allowed" a prohibition like "prohibited". A claim clause may not state the opposite polarity or another class than
the quote clause it pairs with, unless a negation or a turned direction makes the two say the same ("must be at
least 12" and "fewer than 12 is not allowed"). A negator counts against a claim only when the claim states what it
denies, so a claim that leaves a negated side-remark out is not blocked for it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from quotebound.agent.gate.meaning.lexicon import (
    AUXILIARIES,
    DETERMINER_NEGATORS,
    EXEMPTION,
    MODAL_VERBS,
    NEGATORS,
    OBLIGATION_MODALS,
    OBLIGATION_WORDS,
    OPPOSITE,
    PERMISSION,
    PROHIBITION,
)
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence, words_of
from quotebound.agent.gate.meaning.pairing import candidates

Modality = Literal["permission", "prohibition", "obligation", "exemption"]
_NEGATIVE_CLASSES: Final[frozenset[str]] = frozenset({"prohibition", "exemption"})
_FLIP: Final[dict[str, Modality]] = {
    "permission": "prohibition",
    "prohibition": "permission",
    "obligation_modal": "prohibition",
    "obligation_word": "exemption",
    "exemption": "obligation",
}


def _deontic_base(low: list[str], i: int) -> str | None:
    w = low[i]
    if w in PERMISSION:
        return "permission"
    if w in PROHIBITION:
        return "prohibition"
    if w in OBLIGATION_MODALS:
        return "obligation_modal"
    if w in OBLIGATION_WORDS:
        return "obligation_word"
    if w in EXEMPTION:
        return "exemption"
    if w in ("has", "have", "had") and i + 1 < len(low) and low[i + 1] == "to":
        return "obligation_word"
    return None


def deontic(low: list[str], used: set[int]) -> set[str]:
    """The clause's deontic classes, each composed with the negators that deny it (which are then used up)."""
    classes: set[str] = set()
    for i in range(len(low)):
        base = _deontic_base(low, i)
        if base is None or i in used:
            continue
        flips = 0
        j = i - 1
        while j >= 0 and (low[j] in AUXILIARIES or low[j] in MODAL_VERBS) and j not in used:
            j -= 1
        if j >= 0 and j not in used and low[j] in NEGATORS and low[j] != "without":
            flips += 1
            used.add(j)
        else:
            for k in range(i - 1, -1, -1):  # "No pet may ...": a denied subject denies its modal
                if k not in used and low[k] in DETERMINER_NEGATORS:
                    flips += 1
                    used.add(k)
                    break
        k = i + 1
        if k < len(low) and low[k] in ("not", "never") and k not in used:
            flips += 1
            used.add(k)
        used.add(i)
        cls = base
        if flips % 2:
            cls = _FLIP[base]
        classes.add("obligation" if cls in ("obligation_modal", "obligation_word") else cls)
    return classes


# Permission and prohibition speak of what may be done, obligation and exemption of what must be: a claim may turn
# one into the other of its pair by negation ("cannot ... without" for "may ... only after"), never across pairs.
_FAMILY: Final[dict[str, str]] = {
    "permission": "may", "prohibition": "may", "obligation": "must", "exemption": "must",
}  # fmt: skip


def _class_negative(c: Clause) -> bool:
    return bool(c.modality) and all(m in _NEGATIVE_CLASSES for m in c.modality)


def _clause_problem(claim: Clause, quote: Clause, whole: bool = False) -> str | None:
    """What `claim` says otherwise than `quote`, the clause it pairs with, or None.

    Polarity is composed: a clause's negators, its modality's own polarity (a prohibition or an exemption is
    negative) and a direction turned the other way ("fewer than 12" against "at least 12") together. A claim may
    turn a permission into a prohibition, or an obligation into an exemption, only with a negation to match ("not
    open" is "closed"); it may cross between the two ("must be at least 12" and "fewer than 12 is not allowed")
    only with an inner negation or a turned direction that makes the two say the same. With `whole` (a bare "No"
    read as the question's clause denied) the claim's negation denies its whole focus: it counts only against a
    quote clause that states every word of it ("Does the Association maintain the roof?" against "The Association
    maintains the roof"), not one that shares the subject and says something else of it."""
    said = {_FAMILY[m] for m in claim.modality}
    quoted = {_FAMILY[m] for m in quote.modality}
    mine = "/".join(sorted(claim.modality)) or "plain statement"
    theirs = "/".join(sorted(quote.modality)) or "plain statement"
    flipped = sorted(
        (axis, pole)
        for axis, pole in claim.directions
        if (axis, OPPOSITE[pole]) in quote.directions and (axis, pole) not in quote.directions
    )
    claim_class, quote_class = _class_negative(claim), _class_negative(quote)
    turned = (claim.negative != claim_class) != (quote.negative != quote_class)
    if said and quoted and not (said & quoted):
        inner = claim.negative != quote.negative or bool(flipped)
        if not inner or turned == (not flipped):
            return f"states a {mine} where the quote states a {theirs}"
        return None
    if turned:
        if flipped:
            return None  # "not open" is "closed": the negation and the direction turned together
        if claim_class != quote_class:
            return f"states a {mine} where the quote states a {theirs}"
        side, other = (claim, quote) if claim.negative else (quote, claim)
        # a negator counts only against a clause that states what it denies ("brings no clients" against a claim
        # that says nothing of clients)
        denied = side.focus <= other.lexicon if whole and side is claim else bool(side.focus & other.lexicon)
        if not side.focus or denied:
            return "adds a negation the quote does not state" if side is claim else "drops the quote's negation"
        return None
    if flipped:
        axis, pole = flipped[0]
        return f"says {pole!r} ({axis}) where the quote says {OPPOSITE[pole]!r}"
    return None


def polarity_problems(claim: Sentence, quotes: Sequence[QuoteSentence], lenient: bool = False) -> list[Problem]:
    """Each clause of `claim` against the quote clause(s) it pairs with: a problem when none agrees. A clause with
    no content word of its own ("... that were signed and had already commenced") pairs, within the quote sentences
    its sentence's other clauses pair with, with the clauses that use its own words of polarity, modality or
    direction ("but not yet commenced"); a clause with content words is held to those of its quote clauses, and of
    the bare clauses of their sentences ("signed and commenced" against "signed but not yet commenced"), that use
    them, when any does. `lenient` reads a bare "Yes" / "No" as the question's clause: it passes when any quote
    clause it pairs with agrees, and, when those quotes state a negation of their own, its denial is of the clause as
    a whole (`_clause_problem`)."""
    problems: list[Problem] = []
    paired = {id(c): candidates(c, quotes, best_only=not lenient) for c in claim.clauses}
    homes = {qs for pairs in paired.values() for qs, _ in pairs}
    # a bare "No" denies the question's clause as a whole only where a quote it pairs with states a negation for it
    # to rest on; with none, any positive clause it pairs with contradicts it
    whole = lenient and any(qc.negative or _class_negative(qc) for qs in homes for qc in qs.sentence.clauses)
    for c in claim.clauses:
        pairs: Sequence[tuple[QuoteSentence, Clause]] = paired[id(c)]
        marked = _marked(c)
        if marked:
            bare = not c.stems and not c.names
            around = homes if bare else {qs for qs, _ in pairs}
            pool = [*pairs, *((qs, qc) for qs in around for qc in qs.sentence.clauses if bare or not words_of(qc))]
            pairs = [(qs, qc) for qs, qc in dict.fromkeys(pool) if marked & _marked(qc)] or pairs
        found = [(qs, _clause_problem(c, qc, whole=whole)) for qs, qc in pairs]
        if found and all(p is not None for _, p in found):
            qs, detail = found[0]
            problems.append(Problem("meaning", str(detail), qs.sentence.text))
    return problems


def _marked(c: Clause) -> frozenset[str]:
    """The clause's words that carry polarity, modality or direction (the stems of its lexicon that are not
    content words)."""
    return frozenset(w for w in c.lexicon if w not in c.stems and w not in c.names)


NEGATED_CLASS: Final[dict[str, str]] = {
    "permission": "prohibition",
    "prohibition": "permission",
    "obligation": "exemption",
    "exemption": "obligation",
}
