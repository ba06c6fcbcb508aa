"""What a quote sentence speaks of, beyond its own words: its subject may be named in another quoted line of its own
context. That context is

- the quoted heading of its section ("## Reserve fund" above "Balance on January 1, 2025: $184,250.00."), when
  the layout of its page is known;
- the names of the quoted sentences of its paragraph on the two lines before it (the topic it goes on about:
  "Fort Kent is a town in Maine." before "The population was 4,067");
- for a table row, its table's quoted heading rows (column headings, a units row such as "| | £000 | £000 |") and
  its caption (the sentence ending in a colon that introduces the table) in its section.

A sentence may also go straight on from the quoted sentence before it (`continues`): one on the line just above in
its paragraph (or two lines above) that it refers back to with a pronoun ("It was built in 1921"), or, on the line
just above, with a definite noun phrase all of whose words that sentence has ("The dividend will be paid on 25
September 2019" after "The Directors have declared a final dividend ..."). A claim may join what the two say, and
a name of the one above is a name of the one below (`antecedents`). Quotes from other sections, paragraphs or tables
are other contexts: a claim that joins them is held by the binding checks (`binding.py`, `joined.py`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.lexicon import CONTINUING, MODAL_VERBS, VERB_GROUP, is_lexical, stem, word_set
from quotebound.agent.gate.meaning.model import QuoteSentence, Sentence

_TABLE_REACH: Final = 15  # lines above a table (or a row, layout unknown) where its caption and headings stand
# Determiners that make a noun phrase point back to something already said ("the dividend", "this plan").
DEFINITE: Final = word_set("the this that these those such its their his her our")


def _above(qs: QuoteSentence, other: QuoteSentence, reach: int) -> bool:
    """`other` stands in `qs`'s paragraph, on its line or at most `reach` lines above it."""
    return other is not qs and qs.same_block(other) and 0 <= qs.line - other.end <= reach


@lru_cache(maxsize=4096)
def _definite_subject(s: Sentence) -> frozenset[str]:
    """The words of the definite noun phrase a sentence opens with ("The planned reserve expenditure is ..."), up
    to its verb; empty for any other opening."""
    toks = s.toks
    if not toks or toks[0].low not in DEFINITE:
        return frozenset()
    words: set[str] = set()
    for t in toks[1:]:
        if t.value >= 0 or t.low in VERB_GROUP or t.low in MODAL_VERBS or not t.low[:1].isalpha():
            break
        if is_lexical(t.low):
            words.add(stem(t.low))
    return frozenset(words)


@lru_cache(maxsize=4096)
def _lexicon(s: Sentence) -> frozenset[str]:
    return frozenset(w for c in s.clauses for w in c.lexicon)


def continues(later: QuoteSentence, earlier: QuoteSentence) -> bool:
    """`later` goes straight on from `earlier` (see the module docstring). A definite noun phrase refers back only
    when `earlier` has all of its words: "The monthly assessment" names another assessment than "a special
    assessment"."""
    if not _above(later, earlier, 2):
        return False
    if _opening(later.sentence) in CONTINUING:
        return True
    subject = _definite_subject(later.sentence)
    return bool(subject) and _above(later, earlier, 1) and subject <= _lexicon(earlier.sentence)


@lru_cache(maxsize=4096)
def _opening(s: Sentence) -> str:
    return next((t.low for t in s.toks if t.low[:1].isalpha()), "")


def _heading_of(qs: QuoteSentence, other: QuoteSentence) -> bool:
    """`other` is the quoted heading of `qs`'s section."""
    return other.heading and other is not qs and other.near(qs) and qs.section >= 0 and other.line == qs.section


# A note's marker at the start of its line ("** UK & Ireland only", "† Restated", "(a) Excludes ...", "[1] ..."):
# asterisks, daggers and the like, or a letter or number in brackets.
_NOTE_MARK: Final = re.compile(r"\s*(\*+|†+|‡+|§+|¶+|\(\w{1,2}\)|\[\w{1,2}\])\s")


@lru_cache(maxsize=4096)
def _note_mark(text: str) -> str:
    m = _NOTE_MARK.match(text)
    return m.group(1) if m else ""


@lru_cache(maxsize=4096)
def _marks(text: str, mark: str) -> bool:
    """`text` carries note mark `mark` on one of its words ("FY19**", "Revenue (a)"), not a longer mark holding it
    ("FY18***")."""
    symbol = mark[0]
    gap = r"\s?" if mark[0] in "([" else ""
    pattern = rf"(?<=\w){gap}{re.escape(mark)}" + (rf"(?!{re.escape(symbol)})" if symbol not in "([" else "")
    return re.search(pattern, text) is not None


def _note_of(qs: QuoteSentence, other: QuoteSentence, quotes: Sequence[QuoteSentence]) -> bool:
    """`other` is a quoted note on `qs`'s page whose marker `qs` carries, or the quoted heading rows of its table
    do: the note qualifies the figures it is marked on ("| Emissions from: | FY19** |" and "** UK & Ireland
    only")."""
    mark = _note_mark(other.sentence.text)
    if not mark or other is qs or not other.near(qs) or other.sentence.row:
        return False
    framing = [qs] + [h for h in quotes if h.sentence.header and qs.sentence.row and _table_frame(qs, h)]
    return any(_marks(h.sentence.text, mark) for h in framing)


def _context_stems(
    qs: QuoteSentence, quotes: Sequence[QuoteSentence], framing: Sequence[QuoteSentence]
) -> frozenset[str]:
    """What a quote sentence speaks of: its words and those of its context (the module docstring). `framing` is
    the headings and note lines among `quotes` (`_framing`): only they can be a heading or a note of `qs`."""
    stems_ = set(qs.sentence.stems)
    for other in framing:
        if _heading_of(qs, other) or _note_of(qs, other, quotes):
            stems_ |= other.sentence.stems
    if not qs.sentence.row:
        for other in quotes:
            if _above(qs, other, 2):
                stems_.update(name for qc in other.sentence.clauses for name in qc.names)
        return frozenset(stems_)
    for other in quotes:
        if _table_frame(qs, other):
            stems_ |= other.sentence.stems
    return frozenset(stems_)


def _table_frame(row: QuoteSentence, other: QuoteSentence) -> bool:
    """`other` is a quoted heading row of `row`'s table, or its caption. When the layout is known, the reach is
    counted from the table's first line, so a long table's headings frame its last rows (a "Total" row far below
    them); when it is not, from the row itself."""
    known = row.block >= 0 and other.block >= 0
    top = row.block if known else row.line
    if not other.near(row) or not top - _TABLE_REACH <= other.line < row.line:
        return False
    if other.sentence.header:
        return row.same_block(other)
    caption = not other.sentence.row and other.sentence.text.rstrip().endswith(":")
    return caption and (not known or (other.section == row.section and other.line < row.block))


def _framing(quotes: Sequence[QuoteSentence]) -> list[QuoteSentence]:
    """The sentences of `quotes` that may frame another: headings, and lines that open with a note's marker. Every
    other sentence fails both `_heading_of` (it is no heading) and `_note_of` (it has no marker), so leaving it out
    of the pairwise pass changes no context and spares a quadratic pass over a draft's quotes."""
    return [o for o in quotes if o.heading or _note_mark(o.sentence.text)]


@lru_cache(maxsize=512)
def quote_contexts(quotes: tuple[QuoteSentence, ...]) -> dict[QuoteSentence, frozenset[str]]:
    """`_context_stems` of every sentence of `quotes` that is not a heading row (once per set of quotes)."""
    framing = _framing(quotes)
    return {qs: _context_stems(qs, quotes, framing) for qs in quotes if not qs.sentence.header}


def antecedents(qs: QuoteSentence, quotes: Sequence[QuoteSentence]) -> tuple[QuoteSentence, ...]:
    """The quoted sentences that name what `qs` speaks of: the heading of its section, the sentence it goes on
    from, and the sentence on the line just above it in its paragraph ("Paul is a town in Collin County, Texas."
    above "The population was 1,066 at the 2010 census.")."""
    return _antecedents(tuple(quotes)).get(qs, ())


@lru_cache(maxsize=512)
def _antecedents(quotes: tuple[QuoteSentence, ...]) -> dict[QuoteSentence, tuple[QuoteSentence, ...]]:
    return {
        qs: tuple(
            other
            for other in quotes
            if _heading_of(qs, other) or continues(qs, other) or (_above(qs, other, 1) and other.end < qs.line)
        )
        for qs in quotes
    }
