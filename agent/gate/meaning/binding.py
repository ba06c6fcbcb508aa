"""Value binding: a figure (number, amount, percentage, date, time, code) must sit, in its quote, in a sentence
about the claim clause's subject. The sentence that gives it must share the clause's words when another quote does;
no other quote (or, in the same sentence, the words around another figure) may match the clause better while
giving a different figure of its kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from quotebound.agent.gate.meaning.context import quote_contexts
from quotebound.agent.gate.meaning.direction import range_roles
from quotebound.agent.gate.meaning.inner import inner_rival
from quotebound.agent.gate.meaning.joined import joined_modality, joined_subject
from quotebound.agent.gate.meaning.lexicon import ATTRIBUTION, POLES, is_weighed, stem
from quotebound.agent.gate.meaning.links import ITEM_LINKS, is_link
from quotebound.agent.gate.meaning.model import Clause, Problem, QuoteSentence, Sentence, Value
from quotebound.agent.gate.meaning.periods import attached_labels, other_period
from quotebound.agent.gate.meaning.roots import BETTER_BY, overlap
from quotebound.agent.gate.meaning.rows import asked_row, better_row
from quotebound.agent.gate.meaning.swapped import swapped
from quotebound.agent.gate.meaning.units import gives_other
from quotebound.agent.gate.tokens import Key
from quotebound.agent.gate.vocabulary import ORDINALS


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
        if link < 0 and is_link(t, ITEM_LINKS):
            link = i
    return 0, 0


# The stems of the words that say a figure starts or ends something ("began", "ended"), and which.
_PHASE_STEMS: Final = {stem(w): pole for w, (axis, pole) in POLES.items() if axis == "phase"}


def _role_words(weights: dict[str, float], s: Sentence, key: Key) -> frozenset[str]:
    """The claim's words that say the figure `key` starts (or ends) something, when quote sentence `s` gives it as
    the first (or second) end of a range or an open range ("from 2003 to 2010", "1981–"): the range says them."""
    role = range_roles(s).get(key)
    return frozenset(w for w in weights if _PHASE_STEMS.get(w) == role) if role else frozenset()


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
            own = {qs: overlap(weights, context[qs] | _role_words(weights, qs.sentence, v.key)) for qs in holders}
            best_own = max(own.values())
            holder = next(qs for qs in holders if own[qs] == best_own)
            # The conditions are pure, so their order only sets the cost: the cheap ones first, and the weighed
            # overlap (the quadratic part: every clause word against every quote sentence) only for a sentence
            # that gives another figure of the kind, or shares two words with a clause its own quote shares none of.
            rivals = [
                qs
                for qs in bodies
                if v.key not in qs.sentence.keys
                # another figure for what the clause says, or, when its own quote shares none of its words,
                # another quote that shares two: not merely another wording of it
                and (gives_other(qs.sentence, v, said) or (best_own == 0 and len(weights.keys() & context[qs]) >= 2))
                and overlap(weights, context[qs]) > best_own + BETTER_BY
            ]
            rivals = [
                qs
                for qs in rivals
                if not _said_for_earlier(claim, c, v, inside, weights.keys() & context[qs], qs)
                and not other_period(labelled.get(v.key), qs.sentence)
            ]
            rivals += [qs for qs in bodies if qs.sentence.row and better_row(qs, holder, weights, context, v, said)]
            rivals += [qs for qs in bodies if qs.sentence.row and asked_row(qs, holder, weighed, asked, v, said)]
            if rivals:
                detail = (
                    f"gives {v.text} to what its quote does not say it is for"
                    if best_own == 0
                    else f"gives {v.text}, but the quote about what it says gives another figure"
                )
                problems.append(Problem("unbound", detail, rivals[0].sentence.text))
                continue
            inner = inner_rival(holder.sentence, v, weighed, said)
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


_ORDINAL_ENDS: Final = frozenset({"st", "nd", "rd", "th"})  # the ending of a figure written as an ordinal ("24th")


def in_name(s: Sentence, v: Value) -> bool:
    """Figure `v` stands beside a capitalized word that does not open the sentence, inside a name ("the 24th Rifle
    Division", "Apollo 11")."""
    after = v.pos + 2 if v.pos + 1 < len(s.toks) and s.toks[v.pos + 1].low in _ORDINAL_ENDS else v.pos + 1
    near = [s.toks[i] for i in (v.pos - 1, after) if 0 < i < len(s.toks)]
    return any(t.cap and t.value < 0 for t in near)
