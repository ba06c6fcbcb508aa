"""Amounts that pass between parties: "how much was paid to X" is answered by a line where X receives the amount.

The words of a payment rarely match the question's ("paid to Deel" is stated "charged $8,803.15 by Deel"), and the
direction is the whole answer: "received $2,657.81 from Stripe" is money Stripe paid, not money paid to Stripe. A
party's role in a clause comes from the English argument structure of the transfer word that governs it:
- give words (pay, send, transfer, credit): the active subject and a passive "by" gives, "to" receives, "from" gives;
- take words (receive, collect, earn): the active subject and a passive "by" receives, "from" gives;
- bill words (charge, bill, invoice, debit, preauthorize): the active subject and a passive "by" (the biller)
  receives, the passive subject and "to" (the card charged) gives, "a charge from" the biller receives.
The question's party gets its role the same way ("paid to X" receives, "paid by X" gives). A line answers only
when the party holds the asked role in a clause that states an amount; a party whose role no transfer word fixes
("Hi David, you have $0.00") answers nothing. The table is the general category, not any corpus's wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from quotebound.agent.models.extractive_ask import sentences
from quotebound.agent.models.extractive_pool import LinePool
from quotebound.agent.models.extractive_question import Question
from quotebound.agent.models.extractive_score import Scored
from quotebound.agent.models.extractive_values import Value, extract_values, value_differs
from quotebound.agent.models.extractive_words import tokens

Role = Literal["giver", "receiver"]
Kind = Literal["give", "take", "bill"]

_STEMS: Final[dict[Kind, tuple[str, ...]]] = {
    "give": ("pay", "paid", "send", "sent", "transfer", "wire", "remit", "refund", "credit", "donat", "gave", "give"),
    "take": ("receiv", "collect", "earn", "accept"),
    "bill": ("charg", "bill", "invoic", "debit", "preauthori", "pre-authori"),
}
# (kind, marker) -> role; "subject" / "passive subject" are the clause's subject before the word.
_ROLES: Final[dict[tuple[Kind, str], Role]] = {
    ("give", "subject"): "giver", ("give", "passive subject"): "receiver", ("give", "by"): "giver",
    ("give", "to"): "receiver", ("give", "from"): "giver",
    ("take", "subject"): "receiver", ("take", "by"): "receiver", ("take", "from"): "giver",
    ("bill", "subject"): "receiver", ("bill", "passive subject"): "giver", ("bill", "by"): "receiver",
    ("bill", "to"): "giver", ("bill", "from"): "receiver",
}  # fmt: skip
_PASSIVE_AUX: Final = frozenset({"is", "are", "was", "were", "be", "been", "being", "got"})
_WORD: Final = re.compile(r"[\w'’.&-]*\w\.?|\S")
_PREPOSITIONS: Final = frozenset("of for to from by in on at via with into".split())
_CLAUSE_BREAK: Final = re.compile(r"[;|]")
_NAME: Final = re.compile(r"\b(?:to|by|from)\s+((?:[A-Z0-9][\w'’&.-]*\s*)+)")
_SPACE_GROUPED: Final = re.compile(r"^\s\d{3}\b")  # "$4 939.07": an amount grouped by spaces reads as "$4"


def transfer_kind(word: str) -> Kind | None:
    """The kind of transfer a word names ("charged": bill), or None."""
    folded = word.lower()
    for kind, stems in _STEMS.items():
        if folded.startswith(stems):
            return kind
    return None


def _governs(words: list[str], at: int) -> Kind | None:
    """The transfer kind of the word at `at`, unless it only qualifies the noun after it ("debit card", "payment
    method"): a bare noun or verb stem followed by a lowercase word that is no preposition."""
    kind = transfer_kind(words[at])
    if kind is None:
        return None
    word = words[at].lower().rstrip(".")
    following = words[at + 1] if at + 1 < len(words) else ""
    inflected = word.endswith(("ed", "ing", "paid", "sent", "gave", "given"))
    if not inflected and following.isalpha() and following.islower() and following not in _PREPOSITIONS:
        return None
    return kind


def _passive(words: list[str], at: int) -> bool:
    """A participle after a form of "be" ("has been charged", "was preauthorized") or right before "by" ("the
    amount paid by X"): its subject undergoes it."""
    if not words[at].lower().endswith(("ed", "paid", "sent")):
        return False
    after = words[at + 1].lower() if at + 1 < len(words) else ""
    return after == "by" or any(w.lower() in _PASSIVE_AUX for w in words[max(0, at - 2) : at])


def _clauses(text: str) -> list[str]:
    return [c for s in sentences(text) for c in _CLAUSE_BREAK.split(s) if c.strip()]


def party_pattern(name: str) -> re.Pattern[str] | None:
    """A party's name as a pattern: its words of two or more letters, in order ("Mr. Zoy" is "Zoy"); None when
    it has none."""
    words = [w for w in re.findall(r"[\w'’-]+\.?", name) if not w.endswith(".") and len(w) > 1]
    if not words:
        return None
    return re.compile(r"\b" + r"\W+".join(re.escape(w) for w in words) + r"\b", re.IGNORECASE)


def roles(clause: str, party: re.Pattern[str]) -> set[Role]:
    """The roles the clause's transfer words give the party (empty when none fixes one)."""
    found: set[Role] = set()
    for match in party.finditer(clause):
        before = _WORD.findall(clause[: match.start()])
        after = _WORD.findall(clause[match.end() :])
        while before and (before[-1][:1].isupper() or before[-1] == "&"):
            before.pop()  # the rest of the name ("to John Zoy", "to Mr. Zoy"): the marker is before it
        marker = before[-1].lower() if before else ""
        if marker in ("to", "by", "from"):
            governing = next((i for i in range(len(before) - 2, -1, -1) if _governs(before, i)), None)
            if governing is None:
                continue
            kind = _governs(before, governing)
            assert kind is not None
            if marker == "by" and not _passive(before, governing):
                continue  # "received $5 by ACH": a means, not the agent
            role = _ROLES.get((kind, marker))
        else:
            governing = next((i for i in range(len(after)) if _governs(after, i)), None)
            if governing is None or any(w.lower() in ("to", "by", "from") for w in after[:governing]):
                continue
            kind = _governs(after, governing)
            assert kind is not None
            passive = _passive(after, governing)
            role = _ROLES.get((kind, "passive subject" if passive else "subject"))
        if role is not None:
            found.add(role)
    return found


@dataclass(frozen=True)
class Ask:
    party: re.Pattern[str]
    role: Role
    name: frozenset[str]  # the party's name as normalized words ("mr", "zoy")


def transfer_ask(question: str) -> Ask | None:
    """The party a question asks an amount for and its role ("the $ value paid to Deel": Deel, receiver)."""
    for match in _NAME.finditer(question):
        party = party_pattern(match.group(1))
        if party is None:
            continue
        asked = {r for c in _clauses(question) for r in roles(c, party)}
        if len(asked) == 1:
            return Ask(party, asked.pop(), frozenset(tokens(match.group(1))))
    return None


def transfer_amount(line: str, ask: Ask) -> Value | None:
    """The amount a line states in a clause where the party holds the asked role, else None. A clause with an
    amount grouped by spaces answers nothing: its value would be read as its first group."""
    for clause in _clauses(line):
        money = [v for v in extract_values(clause) if v.kind == "money"]
        if any(_SPACE_GROUPED.match(clause[v.start + len(v.text) :]) for v in money):
            continue
        if money and ask.role in roles(clause, ask.party):
            return money[0]
    return None


def transfer_lines(question: Question, pool: LinePool, limit: int) -> list[Scored]:
    """The readable lines where the question's party holds the asked role beside an amount, one per distinct
    amount (two amounts are then a conflict to list, never one picked), in reading order. The question's other
    words ("for the January invoice") must be stated by the line or its context (heading, document name): the
    role reading stands in for the transfer word only."""
    ask = transfer_ask(question.text)
    if ask is None:
        return []
    rest = {w for w in question.words if w not in ask.name and transfer_kind(w) is None}
    found: list[Scored] = []
    for line in pool.candidates():
        if ask.party.search(line.text) is None:
            continue  # most lines never name the party: skip reading their clauses
        if not rest <= tokens(line.text) | tokens(pool.context_text(line)):
            continue
        value = transfer_amount(line.text, ask)
        if value is None or any(not value_differs(value, s.value, 0.0) for s in found if s.value is not None):
            continue
        found.append(Scored(line, 1.0, 1.0, value, None, True, None))
    return found[:limit]
