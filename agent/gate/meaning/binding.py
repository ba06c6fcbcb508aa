"""Value binding: a figure (number, amount, percentage, date, time, code) must sit, in its quote, in a sentence
about the claim clause's subject. The sentence that gives it must share the clause's words when another quote does;
no other quote (or, in the same sentence, the words around another figure) may match the clause better while
giving a different figure of its kind."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.meaning.context import quote_contexts
from quotebound.agent.gate.meaning.direction import range_roles
from quotebound.agent.gate.meaning.joined import joined_modality, joined_subject
from quotebound.agent.gate.meaning.lexicon import ATTRIBUTION, POLES, is_weighed, stem
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence, Value
from quotebound.agent.gate.meaning.periods import attached_labels, follows, other_period
from quotebound.agent.gate.meaning.roots import ROOT_WEIGHT, root_match, same_count
from quotebound.agent.gate.meaning.swapped import swapped
from quotebound.agent.gate.meaning.units import gives_other, kind_class
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import ORDINALS

_BETTER_BY: Final = 0.2  # how much better another quote must match a figure's clause than the figure's own quote


# Marks and words that open the next item of a list or a contrasted clause ("$232 and trademarks 25", "$5m, while
# services 3m"): words after one and before the next figure are that figure's own.
_NEXT_ITEM: Final = frozenset({",", ";", "and", "or", "while", "whereas", "but"})


def _weights(c: Clause, pos: int, claim: Sentence, exempt: frozenset[str]) -> dict[str, float]:
    """Each content word of clause `c` (a document's or the question's names aside) weighted by its nearness to
    the figure at token `pos`: 1 for the next word on either side, 1/2 for the one after, and so on. The words that
    open the clause's next figure after a list link are that figure's, not this one's (`_next_item`)."""
    toks = claim.toks
    before = sum(1 for t in toks[c.start : pos] if t.value < 0 and is_weighed(t.low))
    lo, hi = _next_item(c, pos, claim)
    reported = _reported(c, pos, claim)
    out: dict[str, float] = {}
    for s, ci in c.words:
        if s in exempt or lo <= ci < hi or ci in reported:
            continue
        distance = before - ci if ci < before else ci - before + 1
        out[s] = max(out.get(s, 0.0), 1.0 / distance)
    return out


def _reported(c: Clause, pos: int, claim: Sentence) -> frozenset[int]:
    """Content indexes of clause `c` inside a bracket that reports what a source says ("five poets (one source says
    abstract expressionist painting)") and that does not hold the figure at `pos`: the words are that source's,
    set apart from the figure, not what the claim says the figure is for."""
    out: set[int] = set()
    ci = 0
    start = -1
    inside: list[int] = []
    for i in range(c.start, c.end):
        t = claim.toks[i]
        if t.low in ("(", "["):
            start, inside = i, []
        elif t.low in (")", "]") and start >= 0:
            words = {claim.toks[j].low for j in range(start, i)}
            if not start < pos < i and words & ATTRIBUTION:
                out.update(inside)
            start = -1
        if t.value < 0 and is_weighed(t.low):
            if start >= 0:
                inside.append(ci)
            ci += 1
    return frozenset(out)


def _next_item(c: Clause, pos: int, claim: Sentence) -> tuple[int, int]:
    """[lo, hi) content indexes of the words that lead the clause's next figure after the one at `pos`, past a
    list link ("purchased technology $232 and trademarks and tradenames 25": "trademarks tradenames" lead 25);
    (0, 0) when there are none."""
    toks = claim.toks
    link = -1
    for i in range(pos + 1, c.end):
        t = toks[i]
        if (
            t.value >= 0
            and not claim.values[t.value].label
            and claim.values[t.value].key != claim.values[toks[pos].value].key
        ):
            if link < 0:
                return 0, 0
            lo = sum(1 for u in toks[c.start : link] if u.value < 0 and is_weighed(u.low))
            hi = sum(1 for u in toks[c.start : i] if u.value < 0 and is_weighed(u.low))
            return lo, hi
        if link < 0 and t.value < 0 and t.low in _NEXT_ITEM:
            link = i
    return 0, 0


# The stems of the words that say a figure starts or ends something ("began", "ended"), and which.
_PHASE_STEMS: Final = {stem(w): pole for w, (axis, pole) in POLES.items() if axis == "phase"}


def _role_words(weights: dict[str, float], s: Sentence, key: Key) -> frozenset[str]:
    """The claim's words that say the figure `key` starts (or ends) something, when quote sentence `s` gives it as
    the first (or second) end of a range or an open range ("from 2003 to 2010", "1981–"): the range says them."""
    role = range_roles(s).get(key)
    return frozenset(w for w in weights if _PHASE_STEMS.get(w) == role) if role else frozenset()


def _overlap(weights: dict[str, float], stems_: frozenset[str]) -> float:
    """How much of the clause's weighted words `stems_` says: a word in full, another form of it by root in part
    (`roots.py`: "paid" for "payable"); the words naming a place's headcount are one word ("population", "people")."""
    return sum(
        w if s in stems_ or same_count(s, stems_) else ROOT_WEIGHT * w if root_match(s, stems_) else 0.0
        for s, w in weights.items()
    )


def binding_problems(
    claim: Sentence,
    quotes: Sequence[QuoteSentence],
    exempt: frozenset[str],
    asked: frozenset[str] = frozenset(),
    named: frozenset[Key] = frozenset(),
) -> list[Problem]:
    """Each figure of `claim` against the quote sentences that give it (words in `exempt`, the documents' ids, are
    not weighed). The names the question asks about (`asked`) do not tell one quote from another (every quote of an
    answer is about them), but they do tell apart two figures of one quote sentence ("the population of Gniewkowo
    amounts to 7,254"). A figure of such a name (`named`: "24th Rifle Division") is the name, not a figure the
    claim gives. A quote about another period than the one the claim gives the figure ("42,800 for 2010" against
    "the 2000 census population was 428") is no rival: the period tells them apart."""
    problems: list[Problem] = []
    labelled = attached_labels(claim)
    bodies = [qs for qs in quotes if not qs.sentence.header]
    context = quote_contexts(tuple(quotes))
    said = frozenset(v.key for v in claim.values)
    for c in claim.clauses:
        inside = [v for v in claim.values if c.start <= v.pos < c.end]
        quantities = any(not v.label for v in inside)
        for v in inside:
            if v.label and quantities:
                continue  # a period label of the clause's figures, held by `label_problems`
            if v.key in named and in_name(claim, v):
                continue  # part of a name the question asks about ("24th Rifle Division"), not a figure it gives
            holders = [qs for qs in bodies if v.key in qs.sentence.keys]
            weighed = _weights(c, v.pos, claim, exempt)
            weights = {w: x for w, x in weighed.items() if w not in asked}
            if not holders or not weighed:
                continue
            own = {qs: _overlap(weights, context[qs] | _role_words(weights, qs.sentence, v.key)) for qs in holders}
            best_own = max(own.values())
            holder = next(qs for qs in holders if own[qs] == best_own)
            rivals = [
                qs
                for qs in bodies
                if v.key not in qs.sentence.keys
                and _overlap(weights, context[qs]) > best_own + _BETTER_BY
                # another figure for what the clause says, or, when its own quote shares none of its words,
                # another quote that shares two: not merely another wording of it
                and (gives_other(qs.sentence, v, said) or (best_own == 0 and len(weights.keys() & context[qs]) >= 2))
            ]
            rivals = [
                qs
                for qs in rivals
                if not _said_for_earlier(claim, c, v, inside, weights.keys() & context[qs], qs)
                and not other_period(labelled.get(v.key), qs.sentence)
            ]
            rivals += [qs for qs in bodies if qs.sentence.row and _better_row(qs, holder, weights, context, v, said)]
            rivals += [qs for qs in bodies if qs.sentence.row and _asked_row(qs, holder, weighed, asked, v, said)]
            if rivals:
                detail = (
                    f"gives {v.text} to what its quote does not say it is for"
                    if best_own == 0
                    else f"gives {v.text}, but the quote about what it says gives another figure"
                )
                problems.append(Problem("unbound", detail, rivals[0].sentence.text))
                continue
            inner = _inner_rival(holder.sentence, v, weighed, said)
            if inner:
                problems.append(Problem("unbound", f"gives {v.text} to another part of its quote sentence", inner))
                continue
            borrowed = joined_modality(c, holder, bodies, v, said, weights)
            if borrowed:
                problems.append(
                    Problem(
                        "unbound",
                        f"gives {v.text} with a modality or bound that its quote does not give it, but another does",
                        borrowed,
                    )
                )
                continue
            joined = joined_subject(c, v, weights, holder, context[holder], bodies, claim)
            if joined:
                problems.append(
                    Problem(
                        "unbound",
                        f"joins {v.text}, from one quote, to what another quote says about something else",
                        joined,
                    )
                )
                continue
            other = swapped(c, v, claim, holder, context[holder], bodies, exempt)
            if other:
                problems.append(Problem("unbound", f"says of {v.text} what another quote says of its figure", other))
    return problems


def _said_for_earlier(
    claim: Sentence, c: Clause, v: Value, inside: list[Value], shared: set[str], qs: QuoteSentence
) -> bool:
    """The words clause `c` shares with quote `qs` all stand before another figure of the clause that `qs` gives,
    which stands before `v`: they are said of that figure, and `v` follows it in a list that says them once ("a
    date of birth of 22 October 1900 and a third 22 October 1885")."""
    if not shared:
        return False
    last = max(
        (i for i in range(c.start, v.pos) if claim.toks[i].value < 0 and stem(claim.toks[i].low) in shared),
        default=-1,
    )
    if last < 0 or any(  # a shared word after `v` is said of it
        claim.toks[i].value < 0 and stem(claim.toks[i].low) in shared for i in range(v.pos + 1, c.end)
    ):
        return False
    return any(
        last < x.pos < v.pos and x.key != v.key and x.key in qs.sentence.keys and _listed(claim, x.pos, v.pos)
        for x in inside
    )


# What may stand between two items of a list that says its words once ("22 October 1900 and a third 22 October
# 1885", "$9.0, $12.2 and $12.8"): list links, articles, and ordinals or "other" words counting the items.
_LIST_WORDS: Final = frozenset({",", "and", "or", "&", "a", "an", "the", "another", "other"}) | frozenset(ORDINALS)


def _listed(claim: Sentence, a: int, b: int) -> bool:
    """Only list words (`_LIST_WORDS`) stand between tokens `a` and `b`: the two figures are items of one list."""
    return all(t.value < 0 and t.low in _LIST_WORDS for t in claim.toks[a + 1 : b])


def _better_row(
    qs: QuoteSentence,
    holder: QuoteSentence,
    weights: dict[str, float],
    context: dict[QuoteSentence, frozenset[str]],
    v: Value,
    said: frozenset[Key],
) -> bool:
    """Another row of the same table whose label the claim names as fully, with fewer words left over ("Free cash
    flow" against "Free cash flow (pre-spectrum)" for a claim about free cash flow), giving another figure."""
    if not holder.sentence.row or qs is holder or v.key in qs.sentence.keys or qs.source_id != holder.source_id:
        return False
    mine, theirs = _overlap(weights, holder.sentence.stems), _overlap(weights, qs.sentence.stems)
    left_mine = len(holder.sentence.stems - weights.keys())
    left_theirs = len(qs.sentence.stems - weights.keys())
    return theirs > 0 and theirs >= mine and left_theirs < left_mine and gives_other(qs.sentence, v, said)


def _asked_row(
    qs: QuoteSentence,
    holder: QuoteSentence,
    weighed: dict[str, float],
    asked: frozenset[str],
    v: Value,
    said: frozenset[Key],
) -> bool:
    """Another row of the holder's table labelled with a name the claim gives its figure and the question asks about,
    which the holder's row does not have, giving another figure: the claim moved the figure from the row it is in to
    the row it names ("Germany sales were 90,795" where 90,795 is Mexico's row and Germany's row gives 78,062). The
    question's names are set aside when weighing quotes (every quote of an answer is about them), but a table's
    rows are labelled by them."""
    if not holder.sentence.row or qs is holder or v.key in qs.sentence.keys or qs.source_id != holder.source_id:
        return False
    named = weighed.keys() & asked
    return bool(named & qs.sentence.stems) and not named & holder.sentence.stems and gives_other(qs.sentence, v, said)


_PHRASE_MARKS: Final = frozenset({",", ";", "(", ")", "—", "–"})  # marks that end the phrase a figure stands in


@lru_cache(maxsize=2048)
def _segments(s: Sentence) -> tuple[tuple[Value, frozenset[str]], ...]:
    """Each figure of a sentence with the content words of its own phrase: back to the figure before it and on to
    the figure after it, stopping at a comma, a semicolon, a bracket or a dash between ("its total
    population is 14,719 (out of which the population of Gniewkowo amounts to 7,254, ..."); the words from the
    figure before it to the figure after it when its phrase has none of its own. A period label after a figure
    ("$62.6 million in FY18", "1,066 at the 2010 census") belongs to it; any other year stands as a figure
    ("founded in 1856, ... completed in 1951")."""
    figures: list[Value] = []
    compared: list[Value] = []
    for v in s.values:
        attached = v.label and any(not q.label and follows(s, q, v) for q in s.values)
        if _comparative(s, v):
            compared.append(v)
        elif not attached:
            figures.append(v)
    out: list[tuple[Value, frozenset[str]]] = []
    for n, v in enumerate(figures):
        lo = figures[n - 1].pos + 1 if n else 0
        hi = figures[n + 1].pos if n + 1 < len(figures) else len(s.toks)
        start, end = v.pos, v.pos + 1
        while start > lo and s.toks[start - 1].low not in _PHRASE_MARKS:
            start -= 1
        while end < hi and (s.toks[end].low not in _PHRASE_MARKS or _skips(s, end)):
            end += 3 if _skips(s, end) else 1
        end = min(end, hi)
        words = {stem(t.low) for t in s.toks[start:end] if t.value < 0 and is_weighed(t.low)}
        if not words:
            words = {stem(t.low) for t in s.toks[lo:hi] if t.value < 0 and is_weighed(t.low)}
        out.append((v, frozenset(words)))
    for v in compared:  # the figure it is compared with speaks of the same thing
        out.append((v, next((w for q, w in out if q.pos == v.pos - 2), frozenset())))
    return tuple(sorted(out, key=lambda x: x[0].pos))


def _comparative(s: Sentence, v: Value) -> bool:
    """`v` stands alone in brackets right after another figure: the same measure for a period compared with ("49%
    (53%) of the total trade receivables", "$5.2 million ($4.8 million)"), whose phrase is that figure's."""
    p = v.pos
    if p < 2 or p + 1 >= len(s.toks) or s.toks[p - 1].low != "(" or s.toks[p + 1].low != ")":
        return False
    before = s.toks[p - 2]
    return before.value >= 0 and not s.values[before.value].label and not v.label


def _skips(s: Sentence, i: int) -> bool:
    """Token `i` opens the brackets of a comparative figure (`_comparative`): the phrase reads on past them."""
    t = s.toks[i]
    if t.low != "(" or i + 1 >= len(s.toks):
        return False
    inner = s.toks[i + 1]
    return inner.value >= 0 and _comparative(s, s.values[inner.value])


def _inner_rival(s: Sentence, v: Value, weights: dict[str, float], said: frozenset[Key]) -> str | None:
    """Within the prose sentence that gives `v`, the words just before `v` say something the claim does not, and
    the words around another figure of its kind (one the claim does not give) match the claim better: "Intel
    provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid $316 million to Intel in 2019" gives
    $316 million as repaid, not provided."""
    if s.row:
        return None  # a row's figures are told apart by their columns (`label_problems`)
    segments = _segments(s)
    own = [(words, _overlap(weights, words)) for q, words in segments if q.key == v.key]
    if not own or len(segments) < 2:
        return None
    mine = next(q for q, _ in segments if q.key == v.key)
    if not _own_words(s, mine) - weights.keys():
        return None  # nothing of its own beside it ("from $62.6 million to $85.1 million")
    best_own = max(score for _, score in own)
    for q, words in segments:
        rival = q.key != v.key and q.key not in said and kind_class(q) == kind_class(v) and not _one_range(s, q, v)
        if rival and _overlap(weights, words) > best_own + _BETTER_BY:
            return s.text
    return None


_ORDINAL_ENDS: Final = frozenset({"st", "nd", "rd", "th"})  # the ending of a figure written as an ordinal ("24th")


def in_name(s: Sentence, v: Value) -> bool:
    """Figure `v` stands beside a capitalized word that does not open the sentence, inside a name ("the 24th Rifle
    Division", "Apollo 11")."""
    after = v.pos + 2 if v.pos + 1 < len(s.toks) and s.toks[v.pos + 1].low in _ORDINAL_ENDS else v.pos + 1
    near = [s.toks[i] for i in (v.pos - 1, after) if 0 < i < len(s.toks)]
    return any(t.cap and t.value < 0 for t in near)


def _one_range(s: Sentence, a: Value, b: Value) -> bool:
    """`a` and `b` are the two ends of one range of `s` ("a 2017–2018 series"): one span, not two figures."""
    return (a.key, b.key) in s.ranges or (b.key, a.key) in s.ranges


def _own_words(s: Sentence, v: Value) -> frozenset[str]:
    """The content words (names aside) that are figure `v`'s own: those between it and the figure before it, from
    the last list link on when the words before the link follow that figure ("2,202 students and 160 classroom
    teachers": "students" is 2,202's), and those after it up to the next list link or phrase mark ("160 classroom
    teachers (on an FTE basis)"), unless they run on into the next figure, which they may lead."""
    figures = [q.pos for q, _ in _segments(s)]
    previous = max((p for p in figures if p < v.pos), default=-1)
    following = min((p for p in figures if p > v.pos), default=len(s.toks))
    lo = previous + 1
    if previous >= 0:
        lo = max((i + 1 for i in range(previous + 1, v.pos) if s.toks[i].low in _NEXT_ITEM), default=lo)
    hi = v.pos + 1
    while hi < following and s.toks[hi].low not in _NEXT_ITEM and s.toks[hi].low not in _PHRASE_MARKS:
        hi += 1
    if hi == following < len(s.toks):
        hi = v.pos + 1  # words running on into the next figure may lead it ("fiscal 2019 compared to fiscal 2018")
    return frozenset(
        stem(t.low)
        for i, t in enumerate(s.toks[lo:hi], start=lo)
        if i != v.pos and t.value < 0 and not t.cap and is_weighed(t.low)
    )
