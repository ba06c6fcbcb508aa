"""Meaning: a claim must keep what the quote sentences it rests on say, not only their words.

Claim support (`support.py`) holds each word of a claim to the claim's quotes; this package holds the way the claim
puts them together. It reads a claim sentence and the sentences of its quotes (each quote read in the whole sentence
of the text at its locator, so a quote cut after "No" is read with its "No"; a table row is a sentence, read with
its table's quoted caption and headings), splits both into clauses, and pairs each claim clause with the quote
clause that shares most of its content words. Then:

1. **Polarity and modality.** Negators and the deontic classes (permission, prohibition, obligation, exemption) are
   composed per clause: "may not" and "no ... may" are a prohibition, "not required" an exemption, "not allowed" a
   prohibition like "prohibited". A claim clause may not state the opposite polarity or another class than the
   quote clause it pairs with, unless a negation or a turned direction makes the two say the same ("must be at least
   12" and "fewer than 12 is not allowed"). A negator counts against a claim only when the claim states what it
   denies, so a claim that leaves a negated side-remark out is not blocked for it.
2. **Direction and order.** Bounds (at least / minimum vs at most / maximum / within), time order (before vs
   after), change (rose vs fell), beginning and end (began, born vs ended, died), state (open vs closed) and
   superlatives (largest vs smallest), a negator flipping each ("no more than" is "at most"; a deadline such as "no
   later than" bounds nothing by itself). A claim may not state the opposite pole of its quote clause; a range
   ("from 10 p.m. to 7 a.m.") keeps the order of its ends, a start is not the second end of a quoted range; a rise
   or fall between two periods, and a largest or smallest, must agree with the quoted figures.
3. **Units.** A figure's unit (days, months, hours, inches, cc, hp ...), rate ("per year", "monthly") and scale
   ("million") must be those its quote gives the same figure, and an amount written with a currency sign is counted
   in that currency ("$18" is not "18 cents"); a table's declared scale ("in thousands", "€m", a units row "£000")
   counts for its cells.
4. **Value binding.** A figure (number, amount, percentage, date, time, code) must sit, in its quote, in a sentence
   about the claim clause's subject: the sentence that gives it must share the clause's words when another quote
   does (a word counts in part when the quote writes another form of its verb, "payable" for "paid": `roots.py`;
   a range says which of its figures starts and which ends its span, "1981–1995", "1981–present", so "began" and
   "ended" are said by it); no other quote (or, in the same sentence, the words around another figure) may match
   the clause better while giving a different figure of its kind; its subject may not be joined to words, a
   modality or a bound that another quote states of something else; and its period (a year, a date or a range
   heading its column or labelling its row, or standing after it: "1,066 at the 2010 census") must be the one the
   claim gives it. A quote's
   subject may be named in another quoted line of its own context (the heading of its section, the line above it in
   its paragraph, the sentence it goes on from: `context.py`); quotes of different sections, paragraphs or tables
   are different contexts. A clause that says of one subject what a parallel quote says of another is found the
   same way. Names in a clause that its quotes use must be in the quote sentence it pairs with (or that gives its
   figure, or its context), and a name the clause makes its subject must be the subject of its quote clause. A
   name is one subject across its particles and capitalized common words ("the Bank of Beijing China Open").

A bare "Yes" or "No" answering a yes/no question states the question's own clause, affirmed or reversed, and is
held to the quotes like any other clause (leniently: it passes when any quote clause it pairs with agrees).

The package: `lexicon.py` (the word classes), `model.py` (what is read), `reading.py` and `clauses.py` (a sentence
read), `quotes.py` (the sentences a quote is read in), `pairing.py` (claim clause to quote clause), `context.py`
(what a quote speaks of), `polarity.py`, `direction.py`, `units.py`, `periods.py`, `binding.py`, `joined.py`,
`names.py` (the checks), `roots.py` (the verb a word is a form of) and `check.py` (all of them, for one claim).

Beyond these checks, and bounded by them: who does what to whom inside one quote clause ("the Owner maintains the
roofs" where one clause names both) is parsed only for names (a name the quote gives another role may not become
the claim's subject); double negations reworded ("cannot ... without" for "may ...
only after"), antonyms outside the listed categories and a figure's period when no quote states one are not
recognized. Claim support still holds every such word to the quotes, and span alignment every figure. Every
category below is a closed class of general English, written once; the few thresholds are named constants.
"""

from __future__ import annotations

from quotebound.agent.gate.meaning.check import problems, problems_read, stems_of
from quotebound.agent.gate.meaning.lexicon import (
    ATTRIBUTION,
    AUXILIARIES,
    CONTRASTIVE,
    CURRENCY_CODES,
    EXEMPTION,
    NEGATORS,
    NUMBER_WORDS,
    OBLIGATION_MODALS,
    OBLIGATION_WORDS,
    PERMISSION,
    PROHIBITION,
    QUANTITY_WORDS,
    SCALES,
    UNITS,
    stem,
)
from quotebound.agent.gate.meaning.model import Problem, QuoteSentence, Sentence
from quotebound.agent.gate.meaning.quotes import MAX_SENTENCE_CHARS, quote_sentences, read_quotes
from quotebound.agent.gate.meaning.reading import parse

__all__ = [
    "ATTRIBUTION",
    "AUXILIARIES",
    "CONTRASTIVE",
    "CURRENCY_CODES",
    "EXEMPTION",
    "MAX_SENTENCE_CHARS",
    "NEGATORS",
    "NUMBER_WORDS",
    "OBLIGATION_MODALS",
    "OBLIGATION_WORDS",
    "PERMISSION",
    "PROHIBITION",
    "QUANTITY_WORDS",
    "SCALES",
    "UNITS",
    "Problem",
    "QuoteSentence",
    "Sentence",
    "parse",
    "problems",
    "problems_read",
    "quote_sentences",
    "read_quotes",
    "stem",
    "stems_of",
]
