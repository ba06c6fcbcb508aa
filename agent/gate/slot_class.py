"""Two documents naming different things of the class a "what <noun>" question asks for: one disagreement.

"What sport is Tim Martin associated with?" asks for a sport. One document says he is "a former American football
lineman", another that he is "a renowned figure in cricket": the two sentences share no frame, so `slots.same_slot`
cannot pair them, and neither uses the question's words around its value, so `answer_slot.fills_question` cannot
either. What makes them one disagreement is the question's class noun ("sport"): each value is a thing of that
class, said of the question's named subject, in another document. Whether a value is a thing of a class is a
question of meaning, so only a scorer that models meaning may judge it (`CLASS_MIN`, calibrated with MiniLM:
"cricket", "American football", "ice hockey" against "sport" score 0.60-0.64; a team ("Navy Midshipmen" 0.16), a
league ("Arena Football League" 0.38), a position ("lineman" 0.42), a date (0.29) stay below). Without one the
rule is off.

What must hold (`classed_alike`; only for a pair the draft lists itself, never a reason to demand a conflict):

- the question opens with a wh-determiner ("what", "which": a closed class) followed by a common noun, its class
  noun; a question about a value's own words ("what is ...") has none;
- both values are names or plain words (figures and dates have their own slots, read by `slots.same_slot`) and
  neither is the class noun itself ("the sport" names no sport);
- each names the question's subject in full, in its sentence or through its document, and in its clause unless its
  document names it; nothing narrows either (`answer_slot.narrows`: "his brother's sport");
- each value scores at least `CLASS_MIN` against the class noun.

Two documents about one subject giving values of different slots (a team and a sport, a league and a sport) are
kept apart by the last check; two values of one document are never paired here (the caller passes two documents).
"""

from __future__ import annotations

from typing import Final

from quotebound.agent.gate.answer_slot import narrows
from quotebound.agent.gate.inputs import Paraphrase
from quotebound.agent.gate.slot_occurrence import Occurrence
from quotebound.agent.gate.slot_words import WORD_OR_GAP, QuestionTerms, is_content, stem

CLASS_MIN: Final = 0.55  # cosine of a value and the question's class noun for "a thing of that class"
_WH_DETERMINERS: Final = frozenset({"what", "which"})  # the wh-words that can determine a noun (a closed class)


def asked_class(question: str) -> str | None:
    """The common noun a question opening "what <noun>" / "which <noun>" asks a thing of ("sport" in "What sport is
    Tim Martin associated with?"); None when the wh-word stands alone ("What is the population ...?")."""
    words: list[str] = [w for w in WORD_OR_GAP.findall(question) if w[0].isalpha()]
    if len(words) < 2 or words[0].casefold() not in _WH_DETERMINERS:
        return None
    noun = words[1]
    if noun[0].isupper() or not is_content(noun):
        return None  # an auxiliary or a pronoun ("What is", "Which of"), or a name
    return noun.casefold()


def of_class(value: str, noun: str, paraphrase: Paraphrase) -> bool:
    """`value` is a thing of the class `noun` names (not the class word itself)."""
    wanted = stem(noun)
    if any(stem(w) == wanted for w in WORD_OR_GAP.findall(value) if w[0].isalpha()):
        return False  # "the sport", "sports": the class, not a thing of it
    return paraphrase(value, noun) >= CLASS_MIN


def classed_alike(
    mine: Occurrence,
    other: Occurrence,
    question: QuestionTerms,
    documents: tuple[frozenset[str], frozenset[str]],
    noun: str | None,
    paraphrase: Paraphrase | None,
    values: tuple[str | None, str | None] = (None, None),
) -> bool:
    """Two documents' values, each a thing of the question's class said of its named subject (see the module
    docstring). `documents`: the `document_names` of the two values' documents; `values`: the values as the draft
    gives them, when known (a name is read at its capitals: "American" in "American football"), each one's
    occurrence text by default."""
    if noun is None or paraphrase is None or not question.names:
        return False
    for occurrence, document in ((mine, documents[0]), (other, documents[1])):
        if occurrence.family != "name":
            return False
        if not question.names <= occurrence.words | document:
            return False  # about the subject: named in full by its sentence or its document
        if not (question.names & occurrence.clause or question.names <= document):
            return False
        if narrows(occurrence, question, named=True):
            return False
    return of_class(values[0] or mine.text, noun, paraphrase) and of_class(values[1] or other.text, noun, paraphrase)


__all__ = ["CLASS_MIN", "asked_class", "classed_alike", "of_class"]
