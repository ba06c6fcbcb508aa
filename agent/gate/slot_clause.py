"""A value's clause, read from the items of its sentence (`slot_items.py`): the content words on each side that say
what the value is of, the comparison word that makes it a limit, the period that makes it a rate, the preposition
governing it, the word it is counted in, and what the sentence says of the names in it (a description, or a noun
governing a name: "an edition of X").
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Final

from quotebound.agent.gate.slot_items import LABELLED, Item
from quotebound.agent.gate.slot_words import (
    BOUND_AFTER,
    BOUND_BEFORE,
    COPULAS,
    DETERMINERS,
    PAST,
    PER,
    PREPOSITIONS,
    RATE_ADJECTIVES,
    TIME_UNITS,
    Bound,
    Family,
    is_content,
)

LEFT_WORDS: Final = 12  # content words read to the left of a value
RIGHT_WORDS: Final = 4  # and to the right (English puts a value's subject before it more often than after)
_LEAD_REACH: Final = 6  # items read to the left of a value for its preposition
_REACH_ITEMS: Final = 40  # items (words, values, punctuation) a clause is read over on each side: bounded work
RIGHT_STOP: Final = frozenset(",;()[]|")
_LEFT_STOP: Final = frozenset(";|")


def read_bound(sentence: str, start: int, end: int) -> Bound:
    """Whether the value at `sentence[start:end]` is a limit: "at least 10" (lower), "up to 50" (upper), or neither."""
    before = BOUND_BEFORE.search(sentence[max(0, start - 30) : start])
    if before is not None:
        return "upper" if before.group("upper") else "lower"
    after = BOUND_AFTER.search(sentence[end : end + 20])
    if after is not None:
        return "upper" if after.group("upper") else "lower"
    return ""


def read_period(items: list[Item], at: int, left: Iterable[Item]) -> str:
    """The time unit the value at `items[at]` is a rate per: "per month" / "a year" after it, "monthly" near it."""
    ahead = [i for i in items[at + 1 : at + 5] if i.kind != "gap"]
    for first, second in itertools.pairwise(ahead):
        if first.text.casefold() in PER and second.text.casefold() in TIME_UNITS:
            return TIME_UNITS[second.text.casefold()]
    for item in [*left, *ahead[:2]]:
        unit = RATE_ADJECTIVES.get(item.text.casefold())
        if unit is not None:
            return unit
    return ""


def _range_joint(items: list[Item], near: int, far: int) -> bool:
    """Only connecting words (no content word, no punctuation) stand between two values: "at least 10 and not
    more than 50 days", "from 10 to 50". The later value shares the earlier one's subject."""
    between = items[min(near, far) + 1 : max(near, far)]
    return all(i.kind == "word" and not is_content(i.text) for i in between)


def read_side(items: list[Item], at: int, step: int, family: Family, skip: int | None) -> tuple[list[Item], int]:
    """The content words on one side of `items[at]` that belong to its clause, nearest first (`skip`: its unit),
    and the index of the last item of the clause read on that side."""
    out: list[Item] = []
    stops = RIGHT_STOP if step > 0 else (_LEFT_STOP | {","} if family == "name" else _LEFT_STOP)
    limit = RIGHT_WORDS if step > 0 else LEFT_WORDS
    i, last = at + step, at
    crossed = at - 1 if step < 0 and family == "name" and renames_phrase(items, at) else None
    while 0 <= i < len(items) and abs(i - at) <= _REACH_ITEMS:
        item = items[i]
        if item.kind == "gap" and item.text in stops and i != crossed:
            break
        figure = item.kind == "value" and item.family != "name"
        crossing = figure and family != "name" and (step > 0 or item.family == family)
        if crossing and not (step < 0 and item.family == family and _range_joint(items, i, at)):
            break
        last = i
        if item.kind in ("word", "value") and not figure and item.keys and i != skip:  # words and names
            out.append(item)
            if len(out) >= limit:
                break
        i += step
    return out, last


def renames_phrase(items: list[Item], at: int) -> bool:
    """The name at `items[at]` is an appositive: set off by commas right after a phrase that holds no other value
    ("The house's first owner, George Washington Short, was ..."). The phrase says what the name is the value of,
    as "owner" would right before it; a list ("Vernon, Verona, ...") or a fronted date ("In 1850, Smith, ...") has a
    value in that phrase and is not read so."""
    if not 0 < at < len(items) - 1 or items[at - 1].text != "," or items[at + 1].text != ",":
        return False
    phrase: list[Item] = []
    for item in reversed(items[: at - 1]):
        if item.kind == "gap" and item.text in _LEFT_STOP | {","}:
            break
        phrase.append(item)
    return bool(phrase) and all(i.kind == "word" or i.kind == "gap" for i in phrase) and any(i.keys for i in phrase)


def read_lead(items: list[Item], at: int) -> str:
    """The preposition governing the value at `items[at]`: the nearest one before it, within a few items."""
    for item in reversed(items[max(0, at - _LEAD_REACH) : at]):
        if item.kind == "gap" and item.text in RIGHT_STOP:
            return ""
        if item.kind == "word" and item.text.casefold() in PREPOSITIONS:
            return item.text.casefold()
    return ""


def period_mark(item: Item) -> tuple[str, ...]:
    """A year or date standing in an amount's clause: the period the amount is for ("$316 million ... in 2019")."""
    if item.kind == "value" and item.family == "date" and item.token is not None:
        return (f"@{str(item.token.key[1])[:4]}",)
    return ()


def read_unit(items: list[Item], at: int, sentence: str) -> int | None:
    """The index of the word an amount is counted in, right after it ("15 days", "five Units", "$693 million")."""
    if at + 1 >= len(items) or items[at].family not in ("amount", "percent"):
        return None
    nxt = items[at + 1]
    counted = nxt.kind == "word" or (nxt.kind == "value" and nxt.family == "name" and len(nxt.keys) == 1)
    counted = counted and not PAST.search(nxt.text)  # "0 opposed" is a count and what it did, not a unit
    if counted and nxt.keys and not sentence[items[at].end : nxt.start].strip():
        return at + 1
    return None


def is_label(items: list[Item], at: int, sentence: str) -> bool:
    """A name right before a figure or code labels it ("Unit 3A", "Route 31"): an identifier, not a value."""
    following = LABELLED.match(sentence, items[at].end)
    return items[at].family == "name" and following is not None


def _named(item: Item) -> bool:
    """A name, or (when names are not read as values) a capitalized word, which may be part of one."""
    return (item.kind == "value" and item.family == "name") or (item.kind == "word" and item.text[:1].isupper())


_ASIDE_REACH: Final = 12  # items a parenthesis after a name may hold and still be read as its gloss


def descriptions(items: list[Item]) -> frozenset[str]:
    """The keys of the words of every noun phrase a sentence predicates of a name or sets beside it: after "<name>
    is/was (a/the)" or "<name>, (a/the)", up to the first word that is no part of a noun phrase (a preposition, a
    verb, punctuation). They describe the named thing; they do not make it another thing."""
    out: set[str] = set()
    for at, item in enumerate(items):
        if not _named(item):
            continue
        i = _past_aside(items, at + 1)  # "Choorian (meaning "Bangles") is a ...": the aside glosses the name
        if i < len(items) and (items[i].text.casefold() in COPULAS or items[i].text == ","):
            i += 1
            while i < len(items) and items[i].text.casefold() in DETERMINERS:
                i += 1
            while i < len(items) and (items[i].keys or _is_figure(items[i])):
                if items[i].kind != "word" and items[i].family != "name" and not _is_figure(items[i]):
                    break
                if items[i].text.casefold() in PREPOSITIONS or PAST.search(items[i].text):
                    break
                out |= items[i].keys  # a figure in the phrase ("a 1998 film") is part of it, and says no word
                i += 1
    return frozenset(out)


def _past_aside(items: list[Item], at: int) -> int:
    """The index after a parenthesis opening at `at` (a gloss of what stands before it), or `at`."""
    if at < len(items) and items[at].text == "(":
        for i in range(at + 1, min(len(items), at + _ASIDE_REACH)):
            if items[i].text == ")":
                return i + 1
    return at


def _is_figure(item: Item) -> bool:
    """A date or an amount standing as an item: in a noun phrase, it modifies ("a 1998 film")."""
    return item.kind == "value" and item.family in ("date", "amount")


def heads(items: list[Item]) -> frozenset[tuple[str, str]]:
    """(name word key, head key) for every name a noun governs in the sentence: "a remastered edition of X", "the
    remake of X", "X's reissue". A value of that clause belongs to the edition or the remake, not to X itself."""
    out: set[tuple[str, str]] = set()
    for at, item in enumerate(items):
        if not _named(item):
            continue
        head: Item | None = None
        before = [i for i in items[max(0, at - 3) : at] if i.text.casefold() not in DETERMINERS]
        if len(before) >= 2 and before[-1].text.casefold() == "of" and before[-2].kind == "word":
            head = before[-2]
        elif item.text.endswith(("'s", "’s")) and at + 1 < len(items) and items[at + 1].kind == "word":
            head = items[at + 1]
        if head is not None and head.keys and not PAST.search(head.text):
            out |= {(n, h) for n in item.keys for h in head.keys}
    return frozenset(out)
