"""Slots: what a value in a sentence is the value of, read from the words around it (never from a model's `key`).

Two documents disagree when they give different values *for the same slot*: "Monthly regular assessment per Unit:
$325.00." and "the budget sets the monthly regular assessment at $340.00 per Unit" do; "A quorum ... is present
when Owners holding at least 25% ... attend" and "At an adjourned meeting the quorum is ... at least 15%" do not,
nor do "five Units are currently leased" and "No more than six (6) Units may be leased". The conflict rules ask
this module both ways: a draft stating one value while a readable line gives another for the same slot must list
the conflict, and a conflict a draft lists must be such a pair.

A value (a figure, a date, a number word, a capitalized name; not a reference mark such as "[5]") is read in its
sentence (`occurrences`, `slot_occurrence.py`: the sentence's items in `slot_items.py`, the clause in
`slot_clause.py`, the word categories in `slot_words.py`) with:

- its context: the content words of its clause, weighted by closeness (1 for the nearest word on each side, then
  1/2, 1/3 ...). To the left a figure's clause runs back to the previous figure of its family ("founded in 1856,
  the present building was completed in 1951" gives 1951 only the building's words), unless only connecting
  words stand between them ("at least 10 and not more than 50 days"); a name's clause stops at a comma, unless
  the name is an appositive renaming the phrase before it ("The house's first owner, <name>, was"). To the
  right a clause stops at the first comma, bracket, cell bar or figure. The word an amount is counted in ("15
  days", "five Units") is its unit, not its context;
- its bound ("at least", "not less than", "no more than", "up to", "or more" make it a limit, not an amount), its
  period ("per month", "monthly", "annual" make it a rate), its place in a range (the end of "1865 - 1920" is a
  death date, the start a birth date), the preposition governing it ("based in", "directed by"), and its marks:
  identifiers ("Unit 3A", "FY19") and, for an amount, the years of its clause;
- the modifiers of its sentence: each content word standing right before another ("adjourned meeting"), a verb
  after its subject ("the manager reported") excepted.

Two values are of one slot (`same_slot`) when all of this holds:

- they are of one family, in two sentences (a sentence never contradicts itself), and from one document they are
  not the rows of one list (the same clause with other figures); two names are not one a passive's agent ("published
  by the Acme Company") and the other under another preposition ("published in Belleville");
- the question's subject (its capitalized or quoted words) is named in both clauses or in neither, and their
  marks, units, places in a range, bounds and periods do not differ (`kinds_differ`);
- their contexts share a nearest word and overlap by `SAME_SLOT_OVERLAP` (Dice over the weights, the question's
  words counting `QUESTION_WEIGHT` times; the subject's name is compared on its own, so two copies of "Joseph
  Lafontaine (Berthier MLA) Joseph Lafontaine (<date> - ...)" are read by "MLA"). Two names may instead give the
  question's words under the same preposition ("is the seventh studio album by ... Carpenters", "is an album by
  The Beatles"): a name says nothing of its role itself. A figure's clause must say it alike ("A reissue ... was
  subsequently released on" is not "It was released by ... on"); two names share a word of the question;
- no word of the question stands in one sentence only ("Who maintains the roofs?": the line about windows is
  another slot), unless the two values stand in the same words ("commenced practice in Boston" / "... in New York
  City": "studied law" earlier in one sentence does not part them), and two names standing in one whole frame
  ("is a public high school in Thimphu" / "... in Kathmandu") need no word of the question around them;
- no qualifier separates them: a word modifying a shared word in one sentence and absent from the other makes a
  narrower subject ("adjourned meeting" against "meeting of the Owners", even when the question names the
  Owners). When both name the question's subject, a description *of that name* the question does not use does
  not narrow it ("X is the seventh studio album": still that album); a modifier the question uses always does
  ("general liability insurance" against "directors and officers liability insurance"). A noun governing the
  named subject in one sentence only ("a remastered edition of X", "X's reissue") makes the value that of
  another thing (the edition's release date is not the work's); a noun governing the value itself ("the towns of
  Vernon, Verona") does not.

The rules that demand a conflict hold values of two documents together only: one document's values are its own
slots. The subject check depends on who pairs the values. Unasked (a conflict the gate would demand), both clauses
name the question's subject or neither does. Listed by the draft, a side may leave the subject to its document's
title ("Established: 1850"), and only two sides naming different parts of the question's subjects are two things.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.conflicts import levenshtein, numbers_differ
from quotebound.agent.gate.slot_items import family_of
from quotebound.agent.gate.slot_occurrence import Occurrence, occurrences, stated_in
from quotebound.agent.gate.slot_words import (
    NO_QUESTION,
    WORD_OR_GAP,
    Family,
    QuestionTerms,
    is_content,
    question_terms,
    title_keys,
    word_key,
)
from quotebound.agent.gate.tokens import Key, Token, TokenKind

SAME_SLOT_OVERLAP: Final = 0.55  # Dice overlap of two weighted contexts for one slot
NAME_EDITS: Final = 2  # edits tolerated between two spellings of one name ("Acme Corp" / "Acme Corp.")
QUESTION_WEIGHT: Final = 2.0  # a context word the question uses counts this much
_FRAME_WORDS: Final = 3  # context words two names must share, and nothing else, to be read as one frame


def values_differ(a: Occurrence, b: Occurrence, tolerance_pct: float) -> bool:
    """Distinct values of one family: numbers beyond the tolerance, dates by day (a year alone agrees with any date
    of that year, a month with any day of it), names when neither names the other ("Marsh" is "Ellen Marsh";
    "Louisiana" is no other place)."""
    if a.family == "name" or a.value.token is None or b.value.token is None:
        x, y = a.name_words, b.name_words
        if x and y and (x <= y or y <= x):
            return False
        p, q = " ".join(a.text.casefold().split()), " ".join(b.text.casefold().split())
        return levenshtein(p, q, NAME_EDITS) > NAME_EDITS
    ta, tb = a.value.token, b.value.token
    return _figures_differ(a.family, ta.kind, ta.key, tb.kind, tb.key, tolerance_pct)


@lru_cache(maxsize=16384)
def _figures_differ(
    family: Family, kind_a: TokenKind, key_a: Key, kind_b: TokenKind, key_b: Key, tolerance_pct: float
) -> bool:
    """`values_differ` for two figures, read from their tokens' kinds and keys alone (a rule compares the same
    pairs many times over: each stated value against every sentence of every quote and bundle)."""
    ta, tb = Token("", kind_a, key_a), Token("", kind_b, key_b)
    if family == "date":
        ya, yb = _year_of(ta), _year_of(tb)
        if (ta.kind == "number") != (tb.kind == "number"):  # a year against a full date: compare the years
            return ya != yb
        if ta.kind == tb.kind == "number":
            return ya != yb
        x, y = str(ta.key[1]), str(tb.key[1])
        shorter = min(len(x), len(y))  # "October 1900" agrees with "22 October 1900": compared to the month
        return x[:shorter] != y[:shorter]
    x_num, y_num = ta.number, tb.number
    if x_num is not None and y_num is not None:
        return numbers_differ(x_num, y_num, tolerance_pct)
    return ta.key != tb.key


def _year_of(token: Token) -> str:
    if token.kind == "number" and token.number is not None:
        return str(int(token.number))
    return str(token.key[1])[:4]


def same_slot(
    a: Occurrence,
    b: Occurrence,
    question: QuestionTerms = NO_QUESTION,
    one_source: bool = False,
    listed: bool = False,
    documents: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
) -> str | None:
    """None when `a` and `b` are values of one slot, else why not (a short phrase for a finding's message).
    `one_source`: both come from one document, where one clause repeated with other figures is a list's rows
    ("Vote: 5 in favor" and "Vote: 4 in favor" under two motions), not a document contradicting itself.
    `listed`: the draft itself pairs the two values as one disagreement. A document often names its subject once (in
    its title, or a sentence earlier) and then says "The population was 4,233": the subject check is then lenient,
    and only two clauses each naming a part of the question's subjects the other does not are different subjects.
    Unasked, the check is strict both ways: a value is held against another only where both name the question's
    subject, in their clauses or in the titles of their documents (`documents`, `title_keys`: a page titled
    "Hillcrest School" that says "Established: 1850" names the school)."""
    if a.family != b.family:
        return "values of different kinds"
    if one_source and a.frame == b.frame:
        return "rows of one list"
    subject_a, subject_b = question.names & (a.clause | documents[0]), question.names & (b.clause | documents[1])
    if listed:
        if subject_a and subject_b and not (subject_a <= subject_b or subject_b <= subject_a):
            return "different subjects"  # "Hillcrest School" and "Maple School": each names another part
    elif (subject_a or subject_b) and not subject_a & subject_b:
        return "different subjects"  # or only one names what the question is about
    if a.sentence == b.sentence:
        return "one sentence giving two values"
    named = bool(subject_a and subject_b)
    return (
        kinds_differ(a, b, words=False)
        or _words_differ(a, b, question)
        or kinds_differ(a, b, words=True)
        or _roles_differ(a, b)
        or ("a qualifier that narrows one subject" if _narrowed(a, b, question, named) else None)
    )


_AGENT: Final = "by"  # the preposition marking a passive's agent: who did it ("published by the Acme Company")


def _roles_differ(a: Occurrence, b: Occurrence) -> str | None:
    """Two names, one a passive's agent ("published by the Acme Company") and the other governed by another
    preposition ("published in Belleville"): who did it and where or when, two roles."""
    if a.family == b.family == "name" and a.lead and b.lead and (a.lead == _AGENT) != (b.lead == _AGENT):
        return "an agent against a place or time"
    return None


def kinds_differ(a: Occurrence, b: Occurrence, words: bool | None = None) -> str | None:
    """Why two values of one family are not values of one kind of thing, read from their marks, their units, their
    place in a range, their bounds and their periods; None when nothing parts them. `words`: only the checks read
    from the words around the values (bound, period: True) or only the others (False); both by default."""
    if words is not True:
        if a.marks and b.marks and not a.marks & b.marks:
            return "different things or periods named beside the values"  # "Unit 3A" / "Unit 2C", "FY18" / "FY19"
        if a.unit and b.unit and a.unit != b.unit:
            return "amounts counted in different units"
        if a.range_end != b.range_end:
            return "the start and the end of a range"  # "(1865 - 1920)": a birth date and a death date
    if words is not False:
        if a.bound != b.bound:
            return "a limit against an amount" if "" in (a.bound, b.bound) else "a minimum against a maximum"
        if a.period and b.period and a.period != b.period:
            return "rates over different periods"
    return None


def _words_differ(a: Occurrence, b: Occurrence, question: QuestionTerms) -> str | None:
    """Why the words around two values do not say they are values of one thing (see the module docstring)."""
    if not a.context or not b.context:
        return "no words saying what the value is"
    if not (a.nearest & b.context.keys() or b.nearest & a.context.keys()):
        return "different words around the values"  # (cheap first: the weighted contexts are parts of these)
    ctx_a = _weighted(a, b, question)
    ctx_b = _weighted(b, a, question)
    if not ctx_a or not ctx_b:
        return "no words saying what the value is"
    if not (_nearest(a, ctx_a) & ctx_b.keys() or _nearest(b, ctx_b) & ctx_a.keys()):
        return "different words around the values"  # the nearest words once the subject's name is set aside
    shared = sum(min(w, ctx_b[k]) for k, w in ctx_a.items() if k in ctx_b)
    overlap = 2 * shared / (sum(ctx_a.values()) + sum(ctx_b.values()))
    asked_a = {k for k in ctx_a if k in question.words}
    asked = bool(asked_a) and asked_a == {k for k in ctx_b if k in question.words} and a.lead == b.lead != ""
    if overlap < SAME_SLOT_OVERLAP and not (asked and a.family == "name"):
        # unless two names stand in the question's words under one preposition ("an album by The Beatles"); a
        # figure's clause says more ("A reissue ... was subsequently released on"), and must say it alike
        return "different words around the values"
    # Two values standing in the same words ("commenced practice in Boston" / "... in New York City") fill one
    # frame: a word of the question elsewhere in one sentence ("studied law, was admitted ...") does not part them,
    # and two names in one whole frame ("is a public high school in Thimphu" / "... in Kathmandu") have one role.
    frame = ctx_a.keys() == ctx_b.keys() and a.lead == b.lead
    whole_frame = frame and len(ctx_a) >= _FRAME_WORDS
    if a.family == "name" and question.words and not ctx_a.keys() & ctx_b.keys() & question.words and not whole_frame:
        return "no word of the question around both names"  # a name says nothing of its role by itself
    if not frame:
        for x, y in ((a, b), (b, a)):
            own = x.name_words | y.name_words
            if any(k in question.attribute and k not in y.words and k not in own for k in x.words):
                return "only one speaks of what the question asks"
    return None


def narrowed_apart(a: Occurrence, b: Occurrence, question: QuestionTerms, named: bool) -> bool:
    """A qualifier in one sentence only makes its subject narrower than the other's (see the module docstring).
    `named`: both values are said of the question's named subject, whose descriptions then narrow nothing."""
    return _narrowed(a, b, question, named)


def _narrowed(a: Occurrence, b: Occurrence, question: QuestionTerms, named: bool) -> bool:
    """A qualifier in one sentence only makes its subject narrower than the other's (see the module docstring)."""
    return any(_qualified(x, y, question, named) or (named and _governed(x, y, question)) for x, y in ((a, b), (b, a)))


def _governed(x: Occurrence, y: Occurrence, question: QuestionTerms) -> bool:
    """In `x`'s sentence a noun the question does not use, and `y`'s sentence lacks, governs the question's name: "a
    remastered edition of X was released on ..." gives the edition's date, not X's."""
    return any(
        n in question.names and n not in x.name_words and h not in question.words and h not in y.words
        for n, h in x.heads
    )  # ("the towns of Vernon, Verona": the noun governs the value itself, not the subject)


def _nearest(x: Occurrence, weighted: dict[str, float]) -> frozenset[str]:
    """The nearest words of `x`'s context among those `_weighted` kept: "Joseph Lafontaine (Berthier MLA) Joseph
    Lafontaine (March 15, 1870 - ...)" is read by "MLA" once the name the question gives is set aside."""
    if x.nearest & weighted.keys():
        return x.nearest & weighted.keys()
    closest = max((x.context[k] for k in weighted), default=0.0)
    return frozenset(k for k in weighted if x.context[k] == closest)


def _weighted(x: Occurrence, other: Occurrence, question: QuestionTerms) -> dict[str, float]:
    """`x`'s context without the other value's own words and the question's names (the subject, compared on its
    own), the question's other words counting double: they say which slot the question is about."""
    return {
        k: w * (QUESTION_WEIGHT if k in question.words else 1.0)
        for k, w in x.context.items()
        if k not in other.name_words and not (k in question.names and k in x.capitalized)
    }


GLOSS: Final = re.compile(r"([^\W\d_]+)\s*\(([^()]{1,120})\)")  # a word, and a parenthesis right after it


@lru_cache(maxsize=4096)
def name_gloss(sentence: str, names: frozenset[str]) -> frozenset[str]:
    """The keys of the words of each parenthesis that opens right after a word of the question's subject: a gloss
    of the name ("Choorian (Urdu: ... meaning "Bangles")") says what the name means or which thing it is, and its
    words qualify nothing the sentence says of the subject."""
    return frozenset(
        word_key(w)
        for m in GLOSS.finditer(sentence)
        if word_key(m.group(1)) in names
        for w in WORD_OR_GAP.findall(m.group(2))
        if w[0].isalpha() and is_content(w)
    )


def _qualified(x: Occurrence, y: Occurrence, question: QuestionTerms, named: bool) -> bool:
    """A word modifying a word both contexts share, in `x`'s sentence only, narrows `x`'s subject (a gloss of the
    subject's name aside)."""
    shared = x.context.keys() & y.context.keys()
    gloss = name_gloss(x.sentence, question.names) if question.names else frozenset()
    for modifier, head in x.modifiers:
        if head not in shared or modifier in y.words or modifier in x.name_words or modifier in y.name_words:
            continue
        if modifier in gloss and head in gloss:
            continue
        if named and modifier not in question.words and (modifier in x.described or head in question.names):
            continue  # a named subject is not narrowed by a description of it the question does not use
        return True
    return False


__all__ = [
    "GLOSS",
    "Occurrence",
    "QuestionTerms",
    "family_of",
    "name_gloss",
    "narrowed_apart",
    "occurrences",
    "question_terms",
    "same_slot",
    "stated_in",
    "title_keys",
    "values_differ",
    "word_key",
]
