"""A "which/what version" question asks for a version value, bound to what the question asks the version of.

"What version of Bash is this README for?" is not answered by a heading that gives no version ("GNU Bash"), nor
by a number the quote gives as the version of something else ("..., version 3 of the License": the License's
version, not Bash's). A version value is a figure ("5.2", "2.0", "three"), a code ("v2", "GPLv3"), or a word
placing a version among others ("the latest version", "any later version"). The thing asked about is what the
question writes before "version" or after "version of" ("which bc version": bc; "what version of Bash": Bash). A
quote gives a figure as the version of another thing when it writes "<figure> of <words>" or glues a name to it
("bash-4.4") and those words share none of the thing asked about.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_text import Figure, Quoted, figures, sentences_with, shares, short
from quotebound.agent.gate.question import Question
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem

# Words that place a version among the others (a general category): "the latest version", "any later version".
_RELATIVE: Final = frozenset("latest later newest newer current earlier earliest previous older oldest".split())
_VERSION: Final = stem("version")
# What a figure is the version of, written after it: "3 of the License", "2.0 (or later) of the GNU GPL".
_OF_RE: Final = re.compile(r"^\s*(?:\([^)]{0,40}\)\s*)?of\s+((?:[\w'’.-]+\s*){1,4})", re.I)
_GLUED_RE: Final = re.compile(r"([^\W\d_][\w+]*)-$")  # a name glued to the figure: "bash-4.4"
_VERB: Final = r"(?:is|are|was|were|does|do|did|can|could|will|would|should|shall|may|must|has|have|had)"
_ASKED_RE: Final = re.compile(
    rf"\b(?:which|what)\s+(?:(?P<pre>[\w.+-]+)\s+)?versions?\b"
    rf"(?:\s+of\s+(?P<of>(?:(?!{_VERB}\b)[\w.+'’-]+\s*){{1,4}}))?"
)


def asked_thing(q: Question) -> frozenset[str]:
    """The stems of what the question asks the version of; the question's subject without "version" when its
    form does not say."""
    m = _ASKED_RE.search(fold(q.text))
    written = f"{m['pre'] or ''} {m['of'] or ''}" if m else ""
    thing = frozenset(stem(w) for w in WORD.findall(written) if fold(w) not in STOPWORDS)
    return thing or frozenset(s for s in q.subject if s != _VERSION)


def version_values(q: Question, text: str) -> list[Figure]:
    """The figures and codes of `text` that may be a version: not the question's own values, not a date, and not
    a code the tokens cut from a name glued to a figure ("bash-4" of "bash-4.4": the figure is 4.4)."""
    given = {key for key, _ in q.values}
    found = [f for f in figures(text) if f.key not in given and f.kind in ("number", "word", "code")]
    numbers = [f for f in found if f.kind != "code"]
    return [f for f in found if f.kind != "code" or not any(n.start < f.end and f.start < n.end for n in numbers)]


def gives_version(q: Question, text: str) -> bool:
    """`text` gives a version value (module docstring)."""
    return bool(version_values(q, text)) or any(fold(w) in _RELATIVE for w in WORD.findall(text))


def of_other(thing: frozenset[str], sentence: str, f: Figure) -> str | None:
    """What `sentence` gives the figure as the version of, when that shares none of `thing` ("version 3 of the
    License", "bash-4.4" for bc's version): the words after "of" or the glued name; None when it writes neither
    or names the thing there."""
    for m in re.finditer(rf"(?<![\w.]){re.escape(f.text)}(?![\w.]*\d)", sentence):
        of = _OF_RE.match(sentence[m.end() :])
        glued = _GLUED_RE.search(sentence[: m.start()])
        other = of.group(1) if of is not None else glued.group(1) if glued is not None else None
        if other is not None:
            return None if shares(thing, other) else other.strip()
    return None


def version_problem(q: Question, text: str, quotes: Sequence[Quoted], calc: Sequence[Decimal]) -> str | None:
    """The answer gives version figures its quotes write, and every quote sentence that writes one gives it as
    the version of something the question does not ask about (one figure bound to the thing is enough: an answer
    may add another thing's version as context)."""
    del calc  # the signature of the answerhood problems
    thing = asked_thing(q) if q.expects == "version" else frozenset()
    if not thing:
        return None
    readings = [
        (f, s, of_other(thing, s, f)) for f in version_values(q, text) for _, s in sentences_with(f.key, quotes)
    ]
    if not readings or any(other is None for _, _, other in readings):
        return None
    f, s, other = readings[0]
    return (
        f"the question asks for a version, but its quote gives {f.text!r} as the version of {other!r} "
        f"({short(s)!r}), not of what the question asks; give the version the quote states for it, or report that "
        "the documents do not say"
    )


__all__ = ["asked_thing", "gives_version", "of_other", "version_problem", "version_values"]
