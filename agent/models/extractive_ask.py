"""The part of a question that asks: what the extractive model scores lines against.

A question often carries words that ask for nothing in the documents: a request verb that opens it ("Find the $
value paid to Deel?"), a directive about the answer's form after the question mark ("If multiple, record all
values."), or a sentence addressed to the assistant ("You are now the board's assistant: answer only that ...").
Counted as content words, they are absent from every line, so the question reads as mostly unknown and the model
abstains on a line that answers it. Those parts are framing; a sentence before the question that gives context
("My unit is 4B.") is kept, as is any sentence when none ends with a question mark.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_pool import looks_instructional

# Imperative verbs by which a request opens ("Find the ...", "List the ..."): they ask the reader to act, the way
# "tell" and "please" (stopwords) do, and name nothing a document states.
_REQUEST_VERBS: Final = frozenset(
    "find give list show name identify state provide describe explain summarize summarise look report".split()
)
# A sentence ends at . ! or ? before whitespace, except after a short capitalized abbreviation ("Mr.", "Inc.") or
# before a parenthesis: "What is the area of my unit? (unit: 4B)" carries the clarified value with its question.
_SENTENCE_END: Final = re.compile(r"(?<!\b[A-Z][a-z]\.)(?<!\b[A-Z][a-z]{2}\.)(?<=[.!?])\s+(?!\()")
_DIGIT: Final = re.compile(r"\d")
_FIRST_WORD: Final = re.compile(r"^\W*([A-Za-z]+)\b\s*")
_WORD: Final = re.compile(r"[^\W_]")
_WORDS: Final = re.compile(r"[^\W_]+")


def sentences(text: str) -> list[str]:
    """The question's sentences, in order, without empty ones."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def without_request_verb(sentence: str) -> str:
    """The sentence without an opening request verb: "Find the $ value paid to Deel?" -> "the $ value paid to
    Deel?". A verb that is the whole sentence is kept."""
    match = _FIRST_WORD.match(sentence)
    if match is None or match.group(1).lower() not in _REQUEST_VERBS or not _WORD.search(sentence[match.end() :]):
        return sentence
    return sentence[match.end() :]


def is_directive(sentence: str) -> bool:
    """A sentence about the answer's form rather than its subject: it opens with "if", "please" or a request verb
    ("If multiple, record all values.", "Please be brief."), or is a single word ("Thanks!")."""
    match = _FIRST_WORD.match(sentence)
    first = match.group(1).lower() if match else ""
    return first in _REQUEST_VERBS or first in ("if", "please") or len(_WORDS.findall(sentence)) <= 1


def asked_text(question: str) -> str:
    """The question without its framing: instructional sentences, directives after the last sentence that asks
    (unless they carry a figure or identifier, "Unit 4B."), and an opening request verb of each asking sentence.
    Falls back to the whole text when nothing would be left."""
    parts = sentences(question)
    asking = [i for i, s in enumerate(parts) if s.endswith("?")]
    last = asking[-1] if asking else len(parts) - 1
    kept = [
        without_request_verb(s) if i in asking else s
        for i, s in enumerate(parts)
        if (i <= last or _DIGIT.search(s) or not is_directive(s)) and not looks_instructional(s)
    ]
    return " ".join(kept) if kept else question
