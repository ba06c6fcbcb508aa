"""Two documents answering one question in their own words: a pair the draft lists may be worded apart.

Documents word one fact differently ("an Indian Assamese-language television drama series" / "a 2017-2018 Indian
Finnish-language television series"; "the debut studio album by American indie rock duo Best Coast" / "... by
British rock band The Beatles"), so the words around two values need not match as `slots.same_slot` asks when the
draft itself lists them as one disagreement. What must hold instead is read here (`answers_alike`); it never makes
the gate demand a conflict.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from quotebound.agent.gate.answer_slot import narrows
from quotebound.agent.gate.slot_occurrence import Occurrence
from quotebound.agent.gate.slot_words import COPULAS, NAME_JOINERS, WORD_OR_GAP, QuestionTerms, is_content, word_key
from quotebound.agent.gate.slots import name_gloss, narrowed_apart


def answers_alike(
    mine: Occurrence, other: Occurrence, question: QuestionTerms, documents: tuple[frozenset[str], frozenset[str]]
) -> bool:
    """Two documents' values that each stand where its document answers the question about its named subject, in
    one frame: the draft's answer `mine` and `other`, of two documents (`documents`: their `document_names`).
    Documents word one fact differently ("an Indian Assamese-language television drama series" / "a 2017-2018
    Indian Finnish-language television series"; "the debut studio album by American indie rock duo Best Coast" /
    "... by British rock band The Beatles"), so the words around the two values need not match as `same_slot` asks.
    What must hold instead (only for a pair the draft lists itself; never a reason to demand a conflict):

    - each names the question's subject in full, in its sentence or through its document, and in its clause unless
      its document names it; the subject's names in the two sentences are one name ("Belleville News-Democrat" is
      not "News-Democrat & Leader": two things of one name);
    - nothing narrows either value (`answer_slot.narrows`; a description of the named subject, or a qualifier both
      carry, aside: two documents calling it a "mini album" disagree about one thing) and no
      qualifier in one sentence only parts them (`slots.narrowed_apart`: "an adjourned meeting");
    - the two stand in one frame: under the same preposition, or none, and sharing the word nearest each (both
      "television", both "newspaper in"), or both hang on the same word through that preposition ("album by").
    Marks, units, range ends, bounds and periods are compared before (`answers_apart`): the 2000 and the 2010
    census, a birth and a death date stay apart."""
    if not question.names or not question.attribute or mine.lead != other.lead:
        return False
    for occurrence, document in ((mine, documents[0]), (other, documents[1])):
        if not question.names <= occurrence.words | document:
            return False  # about the subject: named in full by its sentence or its document
        if not (question.names & occurrence.clause or question.names <= document):
            return False
    common = mine.modifiers & other.modifiers  # a qualifier both sides carry parts neither from the other
    for occurrence in (mine, other):
        if narrows(replace(occurrence, modifiers=occurrence.modifiers - common), question, named=True):
            return False
    if narrowed_apart(_subject_side(mine, question), _subject_side(other, question), question, named=True):
        return False
    if not _one_entity(mine, other, question):
        return False
    shared = (mine.anchors & other.anchors) - question.names - mine.name_words - other.name_words
    attached = _attachment(mine, question.names)
    return bool(shared) or (bool(attached) and attached == _attachment(other, question.names))


def _subject_side(occurrence: Occurrence, question: QuestionTerms) -> Occurrence:
    """The occurrence without the modifiers of the value's own phrase, the words between its preposition and it
    ("by American indie rock duo Best Coast"): they describe the answer, not the subject it is the answer about;
    nor those of a gloss of the subject's name ("Choorian (Urdu: ... meaning "Bangles")"): it says what the name
    means, not which thing it is."""
    phrase = _own_phrase(occurrence) | name_gloss(occurrence.sentence, question.names)
    if not phrase:
        return occurrence
    kept = frozenset(m for m in occurrence.modifiers if not (m[0] in phrase or m[1] in phrase))
    return replace(occurrence, modifiers=kept)


def _own_phrase(occurrence: Occurrence) -> frozenset[str]:
    """The keys of the words between the preposition governing the value and the value itself."""
    words = WORD_OR_GAP.findall(occurrence.sentence[: occurrence.start])
    if not occurrence.lead or occurrence.lead not in (w.casefold() for w in words):
        return frozenset()
    at = max(i for i, w in enumerate(words) if w.casefold() == occurrence.lead)
    if any(w.casefold() in COPULAS for w in words[at + 1 :]):
        return frozenset()  # "at an adjourned meeting is 15%": the preposition's phrase ended; the value is no part
    return frozenset(word_key(w) for w in words[at + 1 :] if w[0].isalpha() and is_content(w))


# A run of capitalized words, joined by the words that join the words of one name ("News-Democrat & Leader").
_NAME_RUN: Final = re.compile(
    r"[A-Z][^\s,;:()\[\]]*(?:\s+(?:(?:" + "|".join(re.escape(j) for j in sorted(NAME_JOINERS)) + r")\s+)*"
    r"[A-Z][^\s,;:()\[\]]*)*"
)


def _subject_names(occurrence: Occurrence, question: QuestionTerms) -> list[tuple[frozenset[str], frozenset[str]]]:
    """For each run of capitalized words of the value's sentence holding a word of the subject's name: the keys of
    its words before the subject's words and after them that the question does not use ("Belleville" in "The
    Belleville News-Democrat", "Leader" in "News-Democrat & Leader"; not "Film" in "Film Choorian", asked about
    the film Choorian)."""
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    for m in _NAME_RUN.finditer(occurrence.sentence):
        keys = [word_key(w) for w in WORD_OR_GAP.findall(m.group()) if w[0].isalpha() and is_content(w)]
        at = [n for n, k in enumerate(keys) if k in question.names]
        if at:
            before, after = set(keys[: at[0]]), set(keys[at[-1] + 1 :])
            out.append((frozenset(before - question.words), frozenset(after - question.words)))
    return out


def _one_entity(mine: Occurrence, other: Occurrence, question: QuestionTerms) -> bool:
    """The subject's names in the two sentences are one name: nothing added after the subject's words in one only
    ("News-Democrat & Leader" is another paper), and words before them in one only, or the same ("The Belleville
    News-Democrat" is "News-Democrat"); or one sentence leaves the name to its document."""
    first, second = _subject_names(mine, question), _subject_names(other, question)
    return (
        not first
        or not second
        or any(
            a_after == b_after and (a_before == b_before or not a_before or not b_before)
            for a_before, a_after in first
            for b_before, b_after in second
        )
    )


def _attachment(occurrence: Occurrence, names: frozenset[str] = frozenset()) -> str:
    """The key of the content word right before the preposition governing the value ("album" in "album by ... The
    Beatles"), or "" when no content word stands there. The subject's name standing in apposition right before the
    preposition is skipped (`names`: the question's): in "the album "VII" by The Beatles" the credit is the album's,
    as in "VII is an album by ...", not the name's."""
    if not occurrence.lead:
        return ""
    words = [w for w in WORD_OR_GAP.findall(occurrence.sentence[: occurrence.start])]
    for at in range(len(words) - 1, 0, -1):
        if words[at].casefold() == occurrence.lead:
            before = at - 1
            while before > 0 and words[before][0].isalpha() and word_key(words[before]) in names:
                before -= 1
            word = words[before]
            return word_key(word) if word[0].isalpha() and is_content(word) and word_key(word) not in names else ""
    return ""


__all__ = ["answers_alike"]
