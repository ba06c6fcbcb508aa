"""Joined statements: a claim clause that puts a figure from one quote under the subject, modality or bound that
another quote states of something else, or says of one thing what a parallel quote says of another."""

from __future__ import annotations

from collections.abc import Sequence

from quotebound.agent.gate.meaning.context import continues
from quotebound.agent.gate.meaning.lexicon import is_weighed, stem
from quotebound.agent.gate.meaning.links import CLOSERS, last_link, stretches
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence, Value, words_of
from quotebound.agent.gate.meaning.pairing import MIN_ALIGN, candidates, prose_of
from quotebound.agent.gate.meaning.units import gives_other, kind_class
from quotebound.agent.gate.tokens import Key


def joined_modality(
    c: Clause,
    holder: QuoteSentence,
    bodies: Sequence[QuoteSentence],
    v: Value,
    said: frozenset[Key],
    weights: dict[str, float],
) -> str | None:
    """The clause states a modality or a bound ("must be not less than") that the sentence giving `v` does not,
    while another quote sentence, giving another figure of `v`'s kind, does: the figure of one statement is put
    under the rule of another ("must be not less than 18.6%" from "shall be not less than 15%" and "is 18.6%")."""
    modality = {m for qc in holder.sentence.clauses for m in qc.modality}
    directions = {d for qc in holder.sentence.clauses for d in qc.directions}
    missing_modality, missing_directions = c.modality - modality, c.directions - directions
    if not missing_modality and not missing_directions:
        return None
    own = len(weights.keys() & holder.sentence.stems)
    for qs in bodies:
        if qs is holder or v.key in qs.sentence.keys or not gives_other(qs.sentence, v, said):
            continue
        shared = len(weights.keys() & qs.sentence.stems)
        if shared < MIN_ALIGN or shared < own:
            continue  # another statement, not another figure for this one
        their_modality = {m for qc in qs.sentence.clauses for m in qc.modality}
        their_directions = {d for qc in qs.sentence.clauses for d in qc.directions}
        if missing_modality <= their_modality and missing_directions <= their_directions:
            return qs.sentence.text
    return None


def joined_subject(
    c: Clause,
    v: Value,
    weights: dict[str, float],
    holder: QuoteSentence,
    holder_stems: frozenset[str],
    bodies: Sequence[QuoteSentence],
    claim: Sentence,
) -> str | None:
    """The clause's words that the figure's own sentence lacks come from another quote sentence that does not
    speak of the figure's subject (the clause's words before the figure that its sentence has). Only the words said
    of the figure count: an aside or later list item that holds another figure is said of that one
    (`said_of_others`), as one sentence may state two quotes' facts side by side. Not when the two
    quotes share a figure, or the later one goes straight on from the earlier (`context.continues`: "We start at
    9:00 a.m. ...", "The dividend will be paid on ..."), or both sentences come from one quoted passage, or
    another source's version of the figure's sentence goes on from the other one (`_twin_after`)."""
    before = _item_start(c, v, claim)
    subject = {s for s, ci in c.words if ci < before and s in holder_stems and s in weights}
    theirs = said_of_others(c, v, claim, holder)
    own = {s for s, ci in c.words if ci not in theirs}
    rest = {s for s in weights if s not in holder_stems and s in own}
    if not subject or not rest:
        return None
    best: tuple[int, QuoteSentence | None] = (0, None)
    for qs in bodies:
        if qs is holder or qs.sentence.row:
            continue
        n = len(rest & qs.sentence.stems)
        if n > best[0]:
            best = (n, qs)
    other = best[1]
    named = c.names | {n for qc in holder.sentence.clauses for n in qc.names}
    # the names the clause gives its subject before the figure, the question's names too: the weights leave those
    # out because every quote of an answer speaks of them, but a name both quotes give is one subject of both
    subject_names = {s for s, ci in c.words if ci < before and s in holder_stems} & named
    if other is None or subject <= other.sentence.stems or (subject | subject_names) & named & other.sentence.stems:
        return None  # the other sentence speaks of the same subject, or names the same one ("Deloitte")
    drawn = rest & other.sentence.stems
    if len(drawn) < MIN_ALIGN and not drawn & c.names and not _named_elsewhere(c, holder, other):
        return None  # one common word ("run") is no sign of another statement; one name is
    shared_figure = {q.key for q in other.sentence.values} & {q.key for q in holder.sentence.values}
    earlier, later = (holder, other) if holder.line <= other.line else (other, holder)
    goes_on = later.line > earlier.line and continues(later, earlier)
    one_passage = other.near(holder) and other.passage == holder.passage >= 0  # quoted together, one passage
    if shared_figure or goes_on or one_passage or _twin_after(holder, other, bodies, v):
        return None
    return other.sentence.text


def _named_elsewhere(c: Clause, holder: QuoteSentence, other: QuoteSentence) -> frozenset[str]:
    """The clause's names that `other` writes as a name and the figure's own sentence does not ("the Building 5
    light" from "the Building 5 light", while the figure's sentence says "the building repairs ... line"): a word
    both sentences have is no common subject when only one of them names the thing by it. The weights leave the
    question's names out (every quote of an answer speaks of them), so this is how one still tells the clause drew
    its subject from `other`."""
    holder_names = {n for qc in holder.sentence.clauses for n in qc.names}
    other_names = {n for qc in other.sentence.clauses for n in qc.names}
    return frozenset((c.names & other_names) - holder_names)


def _twin_after(holder: QuoteSentence, other: QuoteSentence, bodies: Sequence[QuoteSentence], v: Value) -> bool:
    """A quote sentence of another source than `holder`'s says what `holder` says, word for word but for its
    figure of `v`'s kind, on the line right after `other` in `other`'s paragraph: two sources' versions of one
    statement ("The 2010 census counted 3,171 people in the township." and "... 12,456 people ..."), one of which
    goes on from `other`. `other` then names the subject of both: `v` is no figure of something else put under it
    (a source that disagrees is the conflict rules' to list)."""
    kind = kind_class(v)
    return any(
        qs.source_id != holder.source_id
        and qs.sentence.stems == holder.sentence.stems
        and any(q.key != v.key and kind_class(q) == kind for q in qs.sentence.values)
        and qs.same_block(other)
        and qs.line == other.end + 1
        for qs in bodies
    )


def _item_start(c: Clause, v: Value, claim: Sentence) -> int:
    """The content index where what clause `c` says before `v` of its subject ends: at `v`, or, when `v` stands in
    a later list item after a stretch holding another figure ("the meeting was called to order at 7:00 p.m. and
    adjourned at 8:42 p.m."), at the link that opens that item: the item's own words before `v` ("adjourned") are
    what it says of the subject, not the subject."""
    toks = claim.toks
    link = last_link(toks, c.start, v.pos)
    earlier = link > c.start and any(
        toks[i].value >= 0 and toks[i].value != toks[v.pos].value for i in range(c.start, link)
    )
    end = link if earlier else v.pos
    return sum(1 for t in toks[c.start : end] if t.value < 0 and is_weighed(t.low))


def said_of_others(c: Clause, v: Value, claim: Sentence, holder: QuoteSentence) -> frozenset[int]:
    """Content indexes of clause `c` said of another figure of the claim, one `v`'s quote does not give: the
    words of an aside set off on both sides that holds that figure ("the meeting, called to order at 7:00 p.m. by
    President Dana Whitlock, was adjourned at 8:42 p.m.": the aside is the 7:00 p.m. statement), and, after `v`,
    everything from the link that opens a stretch holding that figure ("a balance of $184,250.00 and a planned
    expenditure of $22,000.00 for crack sealing"). A stretch that opens the clause is its main statement: its
    words are said of every figure after it ("the network grew to 230 stores, with delivery in 605 of them")."""
    toks = claim.toks
    out: set[int] = set()
    after = False  # past `v`, a stretch holding another figure opened the rest of the clause
    for lo, hi, opener, closer in stretches(toks, c.start, c.end):
        figures = {toks[i].value for i in range(lo, hi) if toks[i].value >= 0}
        others = any(claim.values[x].key != v.key and claim.values[x].key not in holder.sentence.keys for x in figures)
        aside = opener in CLOSERS and closer in CLOSERS and not lo <= v.pos < hi
        after = after or (lo > v.pos and others and opener != "")
        if after or (aside and others):
            base = sum(1 for t in toks[c.start : lo] if t.value < 0 and is_weighed(t.low))
            n = sum(1 for t in toks[lo:hi] if t.value < 0 and is_weighed(t.low))
            out.update(range(base, base + n))
    return frozenset(out)


def joined_frame_problems(claim: Sentence, quotes: Sequence[QuoteSentence]) -> list[Problem]:
    """A clause that says of one thing what a parallel quote says of another: it pairs best with sentence T, takes
    its other words from sentence S, uses words S and T share (their common frame), and leaves out a word only T
    has, the one that told T's subject apart ("For domestic plans, the discount rate is determined by comparison
    against country specific AA corporate indices" from the domestic sentence and the international one). Two
    sentences one of which goes on from the other (`context.continues`) speak of one thing: no parallel."""
    problems: list[Problem] = []
    prose = prose_of(tuple(quotes))
    if len(prose) < 2:
        return problems
    for c in claim.clauses:
        words = words_of(c)
        pairs = candidates(c, prose)
        if len({qs for qs, _ in pairs}) != 1:
            continue
        t = pairs[0][0]
        borrowed = words - t.sentence.stems
        if not borrowed:
            continue
        for s in prose:
            if s is t or borrowed.isdisjoint(s.sentence.stems):
                # every clause's words are among its sentence's stems (`reading.parse`): no clause of S has a
                # borrowed word, and the test below would skip S after weighing each of its clauses
                continue
            source = max(s.sentence.clauses, key=lambda qc: len(borrowed & words_of(qc)), default=None)
            if s is t or source is None or not borrowed & words_of(source) or continues(s, t) or continues(t, s):
                continue  # a sentence that goes on from the other speaks of the same thing, it is no parallel
            if _own_item(c, claim, borrowed & s.sentence.stems, s, t):
                continue  # S's words come with S's own figure, in a list item of their own: two facts side by side
            names = {n for qc in t.sentence.clauses for n in qc.names}
            frame = (s.sentence.stems & t.sentence.stems & words) - names  # their frame: more than a name
            own = (words & t.sentence.stems) - s.sentence.stems
            said = words | {w for w, _ in c.words}  # a word of change, phase or state ("closed") is said too
            dropped = t.sentence.stems - said - words_of(source) - names  # names elaborate, they do not qualify
            # T is said nearly whole: all but the few words that told its subject apart (not a list drawn from
            # several sentences, which leaves most of each out)
            if frame and own and dropped and 2 * len(dropped) <= len(words & t.sentence.stems):
                problems.append(
                    Problem(
                        "unbound",
                        f"says of {' '.join(sorted(borrowed & s.sentence.stems))!r} what its quote says of "
                        f"{' '.join(sorted(dropped))!r}",
                        t.sentence.text,
                    )
                )
                break
    return problems


def _own_item(c: Clause, claim: Sentence, words: frozenset[str], s: QuoteSentence, t: QuoteSentence) -> bool:
    """Every one of `words` stands in a later list item of clause `c` (past a link, `links.BREAKS`) that holds a
    figure quote `s` gives and `t` does not: the claim states `s`'s fact beside `t`'s ("the meeting was called to
    order at 7:00 p.m. and adjourned at 8:42 p.m."), not `s`'s words of `t`'s subject."""
    toks = claim.toks
    covered: set[str] = set()
    for lo, hi, opener, _ in stretches(toks, c.start, c.end):
        if not opener:
            continue  # the clause's first stretch is its main statement, no later item
        item = toks[lo:hi]
        keys = {claim.values[x.value].key for x in item if x.value >= 0}
        if any(k in s.sentence.keys and k not in t.sentence.keys for k in keys):
            covered |= {stem(x.low) for x in item if x.value < 0}
    return bool(words) and words <= covered
