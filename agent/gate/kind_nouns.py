"""The kind of a named subject: a plain noun a claim uses to say what kind of thing a name it states is ("the town
of Pilzno", "the Belleville paper", "the Canadian Cabinet post"), taken from the quote's own frame.

A capable writer names a subject's kind around a quoted fact; the quote itself often does not write it, but the
passage the quote stands in does ("Its seat is the town of Pilzno" two sentences before the quoted figure). A noun
no quote of the claim writes is supported here only when all of these hold:

- it is a plain word: no name, no polarity, modality or direction, no number or month word (`quoted.strict`,
  `quoted.meaning_word`), not a participle ("-ed", "-ing": verbal forms say what happened, not what a thing is),
  and no word of the question (an echoed premise is no fact);
- it heads a noun phrase that holds a name of the claim: a determiner opens the phrase, at most `_MAX_MODIFIERS`
  words stand between, a name is one of them or follows as "of <Name>", and the noun ends the phrase (what follows
  is punctuation or a function word that opens no other phrase). A modifier before another noun ("a leased
  facility", "the current courthouse") is no head: it narrows what the quote says and stays unsupported;
- the quote's own frame (the block it stands in, the heading of its section, its document's title: what the
  quoted sentence means, never another passage of the document) writes the noun in a sentence that writes the same
  name and states no figure (a sentence giving a value is about that value, not about what the subject is), or
  writes a closed compound the noun heads there ("the Belleville paper" for "a daily newspaper in Belleville").

Only one such noun per claim: a claim that needs two is saying more than its quotes.

The same frame may name what a quote only describes: a name the frame puts in apposition to a noun the quote uses
in a definite description ("published by DC Focus, a short-lived imprint" for "The aim of the imprint was") may
stand for that description (`described_name`), again only from a sentence that states no figure. A name from
anywhere else in the frame ("played for West Ham United" beside a quote that never refers to a club) stays held.

A pronoun's antecedent is named by its kind the same way: where a quote says "Its seat is the town of Gniewkowo"
and the sentence just before it in its block classifies its subject ("Gmina Gniewkowo is an urban-rural gmina"),
a definite description headed by that kind ("the seat of the gmina") may stand for the pronoun
(`antecedent_kind`). It counts as the claim's one kind noun.

Figures, names, polarity and the binding of values to their subjects are held by the other rules whatever this
module lets stand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from quotebound.agent.core.contracts import Locator
from quotebound.agent.gate.claims import Claim, QuoteSpan
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.layout import frames
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.quoted import Word, meaning_word, strict
from quotebound.agent.gate.vocabulary import NUMBER_WORDS, WORD, Vocabulary, fold, is_content, vocabulary_of

_MAX_MODIFIERS: Final = 4  # words between a determiner and the head noun ("the New York School's first generation")
_MIN_HEAD: Final = 4  # the shortest head (and, less one, the shortest first part) a compound is read as having
_DETERMINERS: Final = frozenset("the a an its his her their this that these those".split())
_SENTENCE: Final = re.compile(r"(?<=[.!?])\s+|\n")
_FIGURE: Final = re.compile(r"\d")
_DEFINITE: Final = re.compile(r"\b(?:[Tt]he|[Tt]his|[Tt]hat)\s+([a-z][\w-]*)\b")
_PRONOUNS: Final = frozenset("it its he his him she her they their them".split())
# A sentence classifying its subject: "... is an urban-rural gmina (", "... was an English former footballer who"
_CLASSIFIES: Final = re.compile(
    r"\b(?:is|was|are|were)\s+(?:a|an)\s+(?:[\w’'-]+\s+){0,3}?([a-z][\w-]*)"
    r"(?=\s*[,.;:()]|\s*$|\s+(?:in|of|from|and|who|which|that|with|for|on|at|by)\b)"
)
_NAME_RUN: Final = re.compile(r"[A-Z][\w’'&-]*(?:\s+(?:of\s+)?[A-Z][\w’'&-]*)*")  # "DC Focus", "Bank of America"
_APPOSITION: Final = re.compile(r",\s+(?:a|an|the)\s+([^,.;:()]{1,80})")  # ", a short-lived imprint of ..."
_PARTICIPLE: Final = re.compile(r"(?:ed|ing)$")
_OF_NAME: Final = re.compile(r"\s+of\s+(?:the\s+)?([A-Z][\w’'-]*)")
# What may follow a head noun: the end, punctuation, or a function word that does not open another noun phrase
_HEAD_END: Final = re.compile(r"\s*(?:$|[,.;:()!?\"“”]|(?P<next>[^\W\d_]+))")


def _head_phrase(text: str, found: Sequence[Word], i: int) -> tuple[str, list[re.Match[str]]] | None:
    """(the determiner, the words after it) of the noun phrase `found[i]` heads (see the module docstring), or None
    when it heads none."""
    w = found[i]
    after = _HEAD_END.match(text, w.start + len(w.text))
    nxt = after.group("next") if after is not None else None
    if after is None or (nxt is not None and (is_content(nxt) or fold(nxt) in _DETERMINERS)):
        return None
    opened = [m for m in WORD.finditer(text[: w.start])][-(_MAX_MODIFIERS + 1) :]
    start = next((k for k in range(len(opened) - 1, -1, -1) if fold(opened[k].group()) in _DETERMINERS), None)
    if start is None:
        return None
    between = opened[start + 1 :]
    if any(not is_content(m.group()) and fold(m.group()) != "of" for m in between):
        return None  # a clause, not one phrase: "the house was moved"
    return fold(opened[start].group()), between


def _phrase_names(text: str, found: Sequence[Word], i: int) -> tuple[str, ...] | None:
    """The names in the noun phrase `found[i]` heads, or None when it heads none or holds no name."""
    phrase = _head_phrase(text, found, i)
    if phrase is None:
        return None
    w, between = found[i], phrase[1]
    names = [f.text for f in found if f.name and any(f.start == m.start() for m in between)]
    of_name = _OF_NAME.match(text, w.start + len(w.text))
    if of_name is not None:
        names.append(of_name.group(1))
    return tuple(n.removesuffix("'s").removesuffix("’s") for n in names) or None


def _plain(word: str, question: Vocabulary) -> bool:
    folded = fold(word)
    if strict(word) or meaning_word(word) or folded in NUMBER_WORDS or _PARTICIPLE.search(folded):
        return False
    return not question.covers(word)


@per_draft
def _pages(inputs: GateInputs) -> dict[tuple[str, int], tuple[str, ...]]:
    """Each cited page's lines, in order (1-based line n at index n - 1)."""
    pages: dict[tuple[str, int], dict[int, str]] = {}
    for line in inputs.cited_lines:
        pages.setdefault((line.source_id, line.page), {})[line.line] = line.text
    return {key: tuple(lines.get(n, "") for n in range(1, max(lines) + 1)) for key, lines in pages.items()}


@per_draft
def _block(inputs: GateInputs, source_id: str, locator: str) -> tuple[str, str]:
    """(the block a quote's locator stands in, its lines joined; the heading of its section), "" when unknown."""
    try:
        at = Locator.parse(locator)
    except ValueError:
        return "", ""
    lines = _pages(inputs).get((source_id, at.page), ())
    if at.line_end > len(lines):
        return "", ""
    framed = frames(lines)
    first, last = at.line_start - 1, at.line_end - 1
    end = last
    while end + 1 < len(lines) and framed[end + 1].block == framed[last].block and lines[end + 1].strip():
        end += 1
    heading = lines[framed[first].section] if framed[first].section >= 0 else ""
    return " ".join(lines[framed[first].block : end + 1]), heading


@per_draft
def quote_frame(inputs: GateInputs, source_id: str, locator: str) -> tuple[str, ...]:
    """The sentences of the frame a quote stands in: its block's lines, its section's heading, its source's title."""
    texts = [s.title for s in inputs.sources if s.source_id == source_id]
    texts += [t for t in _block(inputs, source_id, locator) if t]
    return tuple(s for t in texts for s in _SENTENCE.split(t) if s.strip())


def _framed(word: str, names: Sequence[str], quotes: Sequence[QuoteSpan], inputs: GateInputs) -> bool:
    """A quote's own frame writes `word` beside one of `names` in a sentence that states no figure."""
    for q in quotes:
        for sentence in quote_frame(inputs, q.source_id, q.locator):
            if _FIGURE.search(sentence):
                continue
            vocab = vocabulary_of(sentence)
            if (vocab.covers(word) or _compound_head(word, sentence)) and any(vocab.covers(n) for n in names):
                return True
    return False


def _compound_head(word: str, sentence: str) -> bool:
    """`sentence` writes a closed compound whose head is `word`: English compounds are headed on the right, and
    the head names their kind ("newspaper" is a paper, "farmhouse" a house)."""
    folded = fold(word).removesuffix("s")
    if len(folded) < _MIN_HEAD:
        return False
    for w in WORD.findall(sentence):
        x = fold(w).removesuffix("s")
        if len(x) - len(folded) >= _MIN_HEAD - 1 and x.endswith(folded):
            return True
    return False


def kind_noun(claim: Claim, found: Sequence[Word], missing: Sequence[int], inputs: GateInputs) -> int | None:
    """The index (into `missing`) of the one missing word of `claim` that names the kind of a named subject as its
    quotes' frame does (see the module docstring), or None."""
    question = vocabulary_of(inputs.question or "")
    for k, i in enumerate(missing):
        w = found[i]
        if w.name or not _plain(w.text, question):
            continue
        names = _phrase_names(claim.text, found, i)
        if names and _framed(w.text, names, claim.quotes, inputs):
            return k
    return None


def _lead_in(inputs: GateInputs, q: QuoteSpan) -> str:
    """The sentence of the quote's block just before the quote, when the quote starts a sentence; else ""."""
    text = " ".join(_block(inputs, q.source_id, q.locator)[0].split())
    at = text.find(" ".join(q.quote.split()))
    before = text[:at].rstrip() if at > 0 else ""
    if not before.endswith((".", "!", "?")):
        return ""
    return [s for s in _SENTENCE.split(before) if s.strip()][-1]


def antecedent_kind(claim: Claim, found: Sequence[Word], missing: Sequence[int], inputs: GateInputs) -> int | None:
    """The index (into `missing`) of the one missing word of `claim` that heads a definite description ("the
    gmina") of what its quote calls by a pronoun ("Its seat is ..."), as the sentence just before the quote
    classifies its subject ("Gmina Gniewkowo is an urban-rural gmina ..."), or None."""
    question = vocabulary_of(inputs.question or "")
    leads = [
        _lead_in(inputs, q) for q in claim.quotes if _PRONOUNS.intersection(fold(t) for t in WORD.findall(q.quote))
    ]
    kinds = [m.group(1) for lead in leads if (m := _CLASSIFIES.search(lead))]
    if not kinds:
        return None
    for k, i in enumerate(missing):
        w = found[i]
        phrase = None if w.name or not _plain(w.text, question) else _head_phrase(claim.text, found, i)
        if phrase is not None and phrase[0] == "the" and any(vocabulary_of(kind).covers(w.text) for kind in kinds):
            return k
    return None


def _descriptions(quote: str) -> frozenset[str]:
    """The nouns `quote` refers to a subject by with a definite description ("the imprint", "this fund")."""
    return frozenset(fold(m.group(1)) for m in _DEFINITE.finditer(quote) if is_content(m.group(1)))


def described_name(claim: Claim, found: Sequence[Word], i: int, inputs: GateInputs) -> bool:
    """`found[i]`, a name, is the name the quote's own frame gives what the quote calls by a definite description:
    the frame puts the name, and no other, in apposition to the same noun, in a sentence without a figure
    ("published by DC Focus, a short-lived imprint of DC Comics" names "the imprint" of the quote "The aim of the
    imprint was"; a frame with two towns names neither "the town")."""
    w = found[i]
    if not w.name:
        return False
    for q in claim.quotes:
        nouns = _descriptions(q.quote)
        if nouns:
            named = {n for noun in nouns for n in _apposed(quote_frame(inputs, q.source_id, q.locator), noun)}
            if len(named) == 1 and w.text in named.pop().split():
                return True
    return False


def _apposed(frame: Sequence[str], noun: str) -> set[str]:
    """Every name `frame` puts in apposition to `noun` ("DC Focus, a short-lived imprint"), in sentences without a
    figure."""
    names: set[str] = set()
    for sentence in frame:
        if _FIGURE.search(sentence):
            continue
        for m in _NAME_RUN.finditer(sentence):
            apposed = _APPOSITION.match(sentence, m.end())
            if apposed and noun in (fold(x) for x in WORD.findall(apposed.group(1))[:_MAX_MODIFIERS]):
                names.add(m.group())
    return names


__all__ = ["antecedent_kind", "described_name", "kind_noun", "quote_frame"]
