"""A value stated for a differently qualified thing: the question asks for "the monthly assessment", and the quote
gives its date to "the special assessment". Both sentences share the head noun ("assessment"), so a check that only
asks whether the quote names the question's subject finds it about the subject; but the quote's own qualifier
("special") makes it another thing of that kind, and the question's ("monthly") is nowhere in it.

A phrase of the question is two adjacent content words, a qualifier and its head ("monthly assessment"). A quote
sentence states its value for another thing when:

- the question's qualifier is nowhere in the sentence (any inflection: "monthly installments" keeps "monthly");
- the head stands in the value's own clause (`answer_binding.figure_clause`), and every time the sentence writes
  it, a content word the question does not use stands right before it ("special assessment");
- the question's qualifier is no word of a derivation ("total", "average": they say what to compute, not which
  thing), which a quote may leave unsaid, nor a capitalized word (a name: the name rules read it);
- the resolved evidence writes the question's own phrase ("The monthly assessment is due on the first day of each
  month."): the documents name the asked thing apart, so a differently qualified one is another thing. Without it a
  qualifier may only describe the asked thing ("each complete application" for "an architectural application").

An answer value is not an answer when every quote sentence that gives it states it so. One quote that does not
("Regular assessments are payable in monthly installments") is enough: an answer may cite context beside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from functools import lru_cache
from itertools import pairwise
from typing import Final

from quotebound.agent.gate.answer_binding import figure_clause, figure_in
from quotebound.agent.gate.answer_text import VALUE_KINDS, Quoted, answer_figures, root, sentences_with, short, stems
from quotebound.agent.gate.question import FAMILIES, Question
from quotebound.agent.gate.vocabulary import is_content

_DERIVING: Final = frozenset(root(w) for ws in FAMILIES.values() for w in ws)
_WORD: Final = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def _pairs(text: str) -> Iterator[tuple[str, str, str]]:
    """(qualifier root, head root, qualifier as written) of each two adjacent content words of `text`, only a space
    or a hyphen between them."""
    words = list(_WORD.finditer(text))
    for a, b in pairwise(words):
        gap = text[a.end() : b.start()]
        if gap.strip(" -") or not gap or not (is_content(a.group()) and is_content(b.group())):
            continue
        yield root(a.group()), root(b.group()), a.group()


@lru_cache(maxsize=1024)
def phrases(text: str) -> frozenset[tuple[str, str]]:
    """(qualifier root, head root) of every two adjacent content words of a passage (read once per passage)."""
    return frozenset((a, b) for line in text.split("\n") for a, b, _ in _pairs(line))


def other_qualifier(
    q: Question, sentence: str, clause: str, written: frozenset[tuple[str, str]] | None = None
) -> str | None:
    """The sentence's qualifier of a head noun the question qualifies otherwise (module docstring), or None.
    `written`: the phrases of the resolved evidence (None: not required)."""
    asked = stems(q.text)
    own = stems(sentence)
    in_clause = stems(clause)
    for qualifier, head, word in _pairs(q.text):
        if qualifier in own or qualifier in _DERIVING or head not in in_clause or word[:1].isupper():
            continue
        if written is not None and (qualifier, head) not in written:
            continue
        before = [m for _, h_root, m in _pairs(sentence) if h_root == head]
        heads = sum(1 for w in _WORD.findall(sentence) if root(w) == head)
        others = [m for m in before if root(m) not in asked]
        if heads and len(others) == heads:
            return others[0]
    return None


def qualifier_problem(
    q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal], evidence: Iterable[str]
) -> str | None:
    """Every quote sentence giving the answer's figure states it for a differently qualified thing than the one
    the question asks about (module docstring; `evidence`: the resolved passages' texts). A verified calc's result
    is the calc rule's to check."""
    written = frozenset().union(*(phrases(t) for t in evidence))
    for f in (f for f in answer_figures(q, text) if f.kind in VALUE_KINDS):
        if any(f.number is not None and f.number == c for c in calc):
            return None
        found = sentences_with(f.key, quotes)
        if not found:
            continue
        verdicts = [(s, other_qualifier(q, s, figure_clause(s, figure_in(s, f.key) or f), written)) for _, s in found]
        if all(word is not None for _, word in verdicts):
            s, word = verdicts[0]
            return (
                f"the answer gives {f.text!r}, which its quote states for the {word} one ({short(s)!r}), not for "
                "what the question asks; quote the line that gives it for what is asked, or report that the "
                "documents do not say"
            )
    return None


__all__ = ["other_qualifier", "phrases", "qualifier_problem"]
