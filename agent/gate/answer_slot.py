"""The question's answer slot: the values of the evidence that answer the question itself, in its own words.

Two documents rarely word one fact alike: "The school was founded ... in 1912" and an infobox's "Established: 1850"
share no word around their values, so `slots.same_slot` cannot pair them. The question can: asked "When was
Altrincham Grammar School established?", a line whose value stands in the question's own words ("Established:")
about the question's subject gives *the answer*, whatever other sources call it. A draft that answers with another
value from another source answers the same slot differently: the conflict rules hold the two together.

A value fills the question's slot (`fills_question`) when:

- every word the question asks with (its content words that name nothing: "established", "population", "born")
  stands in the value's clause, or is the word it is counted in ("five Units are currently leased"), compared on
  whole stems ("declarant" is not "declaration"), and one of them, other than that unit, is the word nearest the
  value, words of time aside ("Established: 1850"; not "the cap of six Units", asked how many units are leased,
  nor "Three directors are elected ...", asked how many directors are on the Board);
- the question's subject, when it names one, is named in the value's clause, or in full by its document: its
  title, or the names on its resolved passages (an infobox's lines under the school's name; a page about "Maple
  Grammar School" does not name "Altrincham Grammar School");
- no word the question does not use modifies a word it asks with ("At an adjourned meeting the quorum is ..."
  for "What is the quorum?"; a flattened infobox's label, capitalized right after a lowercase word, is no word
  that word modifies when the question uses it as its verb: "one acre Built 1885", asked when X was built), no
  noun the question does not use governs the subject's name ("a remastered edition of X", "X's reissue"), and
  the value is no name a word it asks with governs ("the annual meeting of the Owners is held ...": the Owners
  are no answer to where the meeting is held).

A pair the draft lists itself may be worded apart further (`slot_alike.answers_alike`): two documents' values each
standing where its document answers the question about the named subject, in one frame, nothing qualifying either. A
passive's agent ("published by ...") answers no question of where or when (`agent_for_place`), and a figure in a
parenthesis after the subject's name that tells which thing of that name is meant ("X (2018 TV series)") says
nothing of the subject (`tells_which`).

The draft's answer values (`answer_values`) are the values it gives as the answer: a fact's `value`, the values
its answer text states, and a fact's values when it gives no `value` and the answer mentions them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Final

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.agent.gate.inputs import GateInputs, Paraphrase, SourceInfo
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.rewording import DESCRIPTIVE_PARAPHRASE_MIN
from quotebound.agent.gate.slot_occurrence import Occurrence
from quotebound.agent.gate.slot_words import (
    PREPOSITIONS,
    WORD_OR_GAP,
    QuestionTerms,
    is_content,
    stem,
    word_key,
)
from quotebound.agent.gate.slots import GLOSS, kinds_differ, values_differ
from quotebound.agent.gate.stated import Stated, agrees
from quotebound.agent.gate.vocabulary import STOPWORDS, fold

_CAPITALIZED: Final = re.compile(r"\b[A-Z][^\W\d_]+")  # a word written with a capital: a part of a name, maybe


@per_draft
def names_by_document(inputs: GateInputs) -> Mapping[str, frozenset[str]]:
    """`document_names` of the draft's readable sources and resolved passages, once per draft."""
    return document_names(inputs.sources, inputs.bundles)


def document_names(sources: Iterable[SourceInfo], bundles: Iterable[EvidenceBundle]) -> Mapping[str, frozenset[str]]:
    """For each document: the keys of the capitalized words of its title and of its resolved passages, the names
    a value of that document may leave unsaid ("Established: 1850" on a page about the school)."""
    found: defaultdict[str, set[str]] = defaultdict(set)
    for source in sources:
        found[source.source_id] |= _capitalized_keys(source.title)
    for bundle in bundles:
        found[bundle.source_id] |= _capitalized_keys(bundle.text)
    return {source_id: frozenset(keys) for source_id, keys in found.items()}


@lru_cache(maxsize=1024)
def _capitalized_keys(text: str) -> frozenset[str]:
    """The keys of the words of `text` written with a capital (read once per passage, however many drafts)."""
    return frozenset(word_key(w) for w in _CAPITALIZED.findall(text))


def fills_question(occurrence: Occurrence, question: QuestionTerms, document: frozenset[str]) -> bool:
    """`occurrence` answers the question in its own words, about its subject (see the module docstring)."""
    if not question.asked or not question.asked <= occurrence.stems:
        return False
    rest = question.attribute - {occurrence.unit}  # the word a count is counted in says what, not which:
    anchors = occurrence.anchors - _previous_aside(occurrence)  # "(Treasurer) and Ellen Marsh": not hers
    if not rest & anchors:  # "Three directors are elected ..." is no answer to how many sit on the Board
        return False  # "the cap of six Units" for "How many units are leased?": the value is the cap's
    if question.names and not (question.names & occurrence.clause or question.names <= document):
        return False  # named in the value's clause, or in full by its document ("Maple Grammar School" is not it)
    return not _narrowed(occurrence, question)


def fills_reworded(
    occurrence: Occurrence, question: QuestionTerms, document: frozenset[str], asked: str, paraphrase: Paraphrase
) -> bool:
    """`occurrence` answers the question about its subject in other words than the question's: the word nearest the
    value says what a word the question asks with says ("was constructed in 1885", asked when the courthouse was
    built), as close as a word naming a slot must be (`DESCRIPTIVE_PARAPHRASE_MIN`); every other word it asks with
    stands in the clause, and nothing narrows it. Only for a pair the draft lists itself: a paraphrase never makes
    the gate demand a conflict. `asked`: the question's text."""
    missing = question.asked - occurrence.stems
    if not question.asked or len(missing) != 1:
        return False  # the question's own words: `fills_question`; more than one word reworded: another statement
    anchors = occurrence.anchors - _previous_aside(occurrence)
    if question.names and not (question.names & occurrence.clause or question.names <= document):
        return False
    wanted = [w for w in _words(asked) if stem(w) in missing]
    near = [w for w in _words(occurrence.sentence) if word_key(w) in anchors]
    if not wanted or not near:
        return False
    if max(paraphrase(w, n) for w in wanted[:1] for n in near[:2]) < DESCRIPTIVE_PARAPHRASE_MIN:
        return False
    return not _narrowed(occurrence, question)


def _words(text: str) -> list[str]:
    return [w for w in WORD_OR_GAP.findall(text) if w[0].isalpha() and is_content(w)]


# A parenthesis closing right before a value, at most a coordinator or a comma between: "Priya Raman (Treasurer)
# and Ellen Marsh (Director)". What it says describes the item before it, not the value after it.
_ASIDE_BEFORE: Final = re.compile(r"\(([^()]{1,80})\)\s*(?:,\s*)?(?:(?:and|or|&)\s+)?$")


def _previous_aside(occurrence: Occurrence) -> frozenset[str]:
    """The keys of a parenthetical that closes just before the value: the previous item's description."""
    found = _ASIDE_BEFORE.search(occurrence.sentence[: occurrence.start])
    if found is None:
        return frozenset()
    return frozenset(word_key(w) for w in re.findall(r"[^\W\d_]+", found.group(1)))


def _narrowed(occurrence: Occurrence, question: QuestionTerms, named: bool = False) -> bool:
    """Something in the value's sentence makes it the value of another thing than the one asked about. `named`: the
    sentence speaks of the question's subject by name, and what it says that subject is narrows nothing ("X is a
    television drama series", asked the language of the television series X)."""
    asked = question.attribute
    around = occurrence.context.keys()
    if any(
        head in asked
        and head in around
        and not _label_after(occurrence.sentence, mod, head, question)
        and mod not in question.words
        and not (named and mod in occurrence.described)
        for mod, head in occurrence.modifiers
    ):
        return True  # "an adjourned meeting": a narrower thing than the one asked about
    for name, head in occurrence.heads:
        if name in occurrence.name_words and head in asked:
            return True  # "the annual meeting of the Owners": a name inside the asked noun phrase is no answer
        if name in question.names and name not in occurrence.name_words and head not in question.words:
            return True  # "a remastered edition of X": the value is the edition's
    return False


def _label_after(sentence: str, mod: str, head: str, question: QuestionTerms) -> bool:
    """`head` is the question's verb ("When was X built?") and the line writes it with a capital right after the
    lowercase `mod` ("Area less than one acre Built 1885"): a field label starting where the previous field ended,
    not a word `mod` qualifies. Lowercase, "a replica built in 1990" still says the replica's date."""
    if head not in question.verbs:
        return False
    words = [w for w in WORD_OR_GAP.findall(sentence) if w[0].isalpha()]
    return any(
        a[0].islower() and b[0].isupper() and word_key(a) == mod and word_key(b) == head for a, b in pairwise(words)
    )


def counts_alike(mine: Occurrence, other: Occurrence, question: QuestionTerms) -> bool:
    """Two counts of one thing about the question's subject: counted in the same word ("1,791 people", "2,500
    people"), `other`'s clause naming the subject the question names ("... who live in Kensett"), and nothing
    narrowing it. What a count is of is the word it is counted in; a draft listing two such counts from two
    documents as one disagreement is taken at its word (never demanded: a count of directors elected each year is
    no answer to how many sit on the Board)."""
    return (
        bool(mine.unit)
        and mine.unit == other.unit
        and bool(question.names & other.clause)
        and not _narrowed(other, question)
    )


def narrows(occurrence: Occurrence, question: QuestionTerms, named: bool = False) -> bool:
    """Something in the value's sentence makes it the value of another thing than the one asked about
    (`_narrowed`; `named`: a description of the named subject narrows nothing)."""
    return _narrowed(occurrence, question, named)


def answer_values(inputs: GateInputs, stated: Sequence[Stated]) -> list[Stated]:
    """The stated values the draft gives as its answer (see the module docstring)."""
    evidence = inputs.draft.evidence
    answer = evidence.answer or inputs.draft.levels.level1
    out: list[Stated] = []
    for s in stated:
        fact = evidence.facts[s.fact_index] if s.fact_index is not None else None
        if fact is None:
            out.append(s)  # stated by the answer text itself
        elif fact.value is not None and fact.value.strip():
            if agrees(fact.value, s.occurrence, inputs.tolerance_pct):
                out.append(s)
        elif s.occurrence.text.casefold() in answer.casefold():
            out.append(s)
    return out


def answers_apart(mine: Occurrence, other: Occurrence, tolerance_pct: float) -> bool:
    """Two values that would answer one question differently: of one family and kind, and different values."""
    return (
        mine.family == other.family and values_differ(mine, other, tolerance_pct) and kinds_differ(mine, other) is None
    )


# A question asking where or when (its wh-word, a closed class) is answered by a place or a time. The preposition
# marking the agent of a passive verb ("published by The McClatchy Company") governs who did it: no answer to it.
_PLACE_OR_TIME: Final = re.compile(r"^\W*(?:where|when)\b", re.IGNORECASE)
_AGENT: Final = "by"


def agent_for_place(occurrence: Occurrence, question: str) -> bool:
    """`occurrence` is a passive's agent ("published by ...") and the question asks where or when."""
    return occurrence.lead == _AGENT and bool(_PLACE_OR_TIME.search(question))


def tells_which(occurrence: Occurrence, question: QuestionTerms) -> bool:
    """The value stands in a parenthesis right after the question's subject's name and modifies a noun there
    ("Ardhangini (2018 TV series)"): it tells which of the things of that name a line is about, it says nothing of
    the subject. (A date alone in such a parenthesis, "X (born 15 May 1885)", is a fact about X.)"""
    for m in GLOSS.finditer(occurrence.sentence):
        if word_key(m.group(1)) in question.names and m.start(2) <= occurrence.start < occurrence.end <= m.end(2):
            after = WORD_OR_GAP.match(occurrence.sentence[occurrence.end : m.end(2)].lstrip())
            word = after.group() if after is not None else ""
            return word[:1].isalpha() and fold(word) not in STOPWORDS and word.casefold() not in PREPOSITIONS
    return False


__all__ = [
    "agent_for_place",
    "answer_values",
    "answers_apart",
    "counts_alike",
    "document_names",
    "fills_question",
    "fills_reworded",
    "names_by_document",
    "narrows",
    "tells_which",
]
