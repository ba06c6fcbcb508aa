"""The question's subject as the extractive model reads it: the names the question asks about, and whether a line
speaks of the subject itself or only of a group its name qualifies.

A name written right before a plural common noun modifies it: "the New York School abstract expressionist painters"
are painters, "the Acme board members" are members. What the line says of them ("their primary medium was ...") is
said of that group, not of the New York School or of Acme. A line whose every mention of the subject is such a
modifier answers nothing about the subject, unless the group's noun is one the question asks with ("Acme employees
number 5,000", asked how many employees Acme has). A line that names the subject on its own anywhere, or never names
it in full, is not judged here.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_words import STOPWORDS, normalize

_TOKEN: Final = re.compile(r"[\w'’-]+|[^\w\s]")
# What may follow a plural noun phrase and never a verb in the third person: an auxiliary agreeing with a plural
# ("the X painters were"), a relative pronoun ("the X poets who"), or punctuation. "Pilica amounts to 1,971" and
# "X consists of" are verbs and their complements: the name there is the subject, not a modifier.
_AFTER_PLURAL: Final = frozenset(
    "are were have had do did will would can could may might must should who whom whose".split()
)
_VERB_FORM: Final = re.compile(r"(?:ed|ing)$")  # "X produced abstract paintings": a verb and its object
_MAX_COMPOUND: Final = 4  # lowercase words a name may qualify before the noun they lead to


def subject_names(question: Question) -> frozenset[str]:
    """The question's capitalized words after its first (the names of the subject asked about), normalized."""
    found = re.findall(r"\b[A-Z][\w'’-]*", question.text)
    return frozenset(normalize(w.lower()) for w in found[1:] if w.lower() not in STOPWORDS)


def _plural(word: str) -> bool:
    """A lowercase word written as a plural ("painters", "members"), possessives aside."""
    return word.isalpha() and normalize(word) != word


def _qualified_group(words: list[str], at: int, asked: frozenset[str], owned: bool) -> bool:
    """The lowercase words from `at` are a noun phrase headed by a plural noun the question does not ask with: each
    word before the head singular and no verb form, and the head followed by what follows a plural noun only.
    `owned`: the name before them is a possessive ("X's painters worked ..."), so they are a noun phrase, ending
    at its first plural."""
    stretch: list[str] = []
    i = at
    possessive = False
    while i < len(words) and len(stretch) < _MAX_COMPOUND:
        word = words[i].rstrip("'’")  # a plural's possessive: "the X students' medium"
        if not (word.isalpha() and word.islower()) or word in STOPWORDS:
            break
        stretch.append(word)
        i += 1
        if possessive := word != words[i - 1]:
            break  # a possessive ends the noun phrase it heads
        if owned and _plural(word):
            break
    if not stretch or not _plural(stretch[-1]) or any(_plural(w) or _VERB_FORM.search(w) for w in stretch[:-1]):
        return False
    if normalize(stretch[-1]) in asked:
        return False  # "Acme employees", asked how many employees: the noun is what the question asks about
    after = words[i] if i < len(words) else ""
    return owned or possessive or not after[:1].isalnum() or after.lower() in _AFTER_PLURAL


def names_only_a_group(question: Question, text: str) -> bool:
    """Does every mention of the question's subject in `text` name it only as a modifier of a group's plural noun
    (see the module's doc)? False when the line names the subject on its own, or never in full."""
    names = subject_names(question)
    if not names:
        return False
    words = _TOKEN.findall(text)
    asked = frozenset(question.words)
    mentions = 0
    i = 0
    while i < len(words):
        if not words[i][:1].isupper():
            i += 1
            continue
        end = i
        while end < len(words) and words[end][:1].isupper():
            end += 1
        # "The New York School": a function word may open the name's run; one after it ("Tyro Both sexes", a
        # flattened table's labels) makes the run another thing than the name
        start = i
        while start < end and words[start].lower() in STOPWORDS:
            start += 1
        if {normalize(w.lower()) for w in words[start:end]} == names:
            mentions += 1
            if not _qualified_group(words, end, asked, words[end - 1].endswith(("'s", "’s"))):
                return False  # the subject named on its own: the line may speak of it
        i = end
    return mentions > 0


__all__ = ["names_only_a_group", "subject_names"]
