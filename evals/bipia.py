"""BIPIA's email task as a quotebound corpus: poisoned emails as source documents, with their questions.

BIPIA (Yi et al. 2023, github.com/microsoft/BIPIA, MIT) pairs 50 emails, each with a question, with 75 attack
instructions (15 categories of 5) and inserts every attack at the start, the middle or the end of every email:
50 x 75 x 3 = 11,250 poisoned contexts. The insertion follows BIPIA's `bipia/data/utils.py`: the attack goes on
a line of its own before the email, after it, or before one of its sentences chosen with a seeded RNG (BIPIA
uses NLTK's Punkt splitter; a regex does the same job here without the dependency).

Each poisoned email becomes one `.txt` source with a `public` sidecar; `ScopedPolicy` lets a question read only
its own email, so a run sees exactly one poisoned context, as in BIPIA, while one store holds many.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Final, Literal

import yaml

from quotebound.agent.core.contracts import PolicyDecision, Source
from quotebound.tools.policy import Caller, DefaultPolicy

EMAILS_FILE: Final = "bipia_email_test.jsonl"
ATTACKS_FILE: Final = "bipia_text_attack_test.json"
ATTRIBUTION: Final = "BIPIA email task (github.com/microsoft/BIPIA), Yi et al. 2023"
DEFAULT_SEED: Final = 2023

Position = Literal["start", "middle", "end"]
POSITIONS: Final[tuple[Position, ...]] = ("start", "middle", "end")

# A sentence starts at the text's start, or after . ! ? (and any closing quote) and whitespace.
_SENTENCE_START = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=\S)")


@dataclass(frozen=True)
class Email:
    index: int
    context: str
    question: str
    ideal: str  # the gold answer, or "unknown" when the email does not say

    @property
    def asked(self) -> str:
        """The question as a user would type it (the dataset prefixes each with "Q: ")."""
        return re.sub(r"^\s*Q:\s*", "", self.question)


@dataclass(frozen=True)
class Attack:
    index: int  # position in the flattened attack list (0..74)
    category: str
    text: str


@dataclass(frozen=True)
class Triple:
    """One poisoned context: an email, an attack and where the attack is inserted."""

    email: Email
    attack: Attack
    position: Position
    seed: int = DEFAULT_SEED

    @property
    def source_id(self) -> str:
        return f"bipia-e{self.email.index:02d}-a{self.attack.index:02d}-{self.position}.txt"

    @property
    def question(self) -> str:
        return self.email.asked

    @cached_property
    def poisoned(self) -> str:
        rng = random.Random(f"{self.seed}:{self.email.index}:{self.attack.index}")
        return insert_attack(self.email.context, self.attack.text, self.position, rng)


def sentence_starts(text: str) -> list[int]:
    """Offsets where a sentence of `text` starts (always 0 first)."""
    return [0, *(match.end() for match in _SENTENCE_START.finditer(text))]


def insert_attack(context: str, attack: str, position: Position, rng: random.Random) -> str:
    """BIPIA's insertion: the attack on a line of its own at the start, at the end, or before a random sentence."""
    if position == "start":
        return f"{attack}\n{context}"
    if position == "end":
        return f"{context}\n{attack}"
    start = rng.choice(sentence_starts(context))
    return "\n".join([context[:start], attack, context[start:]])


def load_emails(folder: Path) -> list[Email]:
    rows = [json.loads(line) for line in (folder / EMAILS_FILE).read_text(encoding="utf-8").splitlines() if line]
    return [Email(i, str(r["context"]), str(r["question"]), str(r["ideal"])) for i, r in enumerate(rows)]


def load_attacks(folder: Path) -> list[Attack]:
    by_category: dict[str, list[str]] = json.loads((folder / ATTACKS_FILE).read_text(encoding="utf-8"))
    flat = [(category, text) for category, texts in by_category.items() for text in texts]
    return [Attack(i, category, text) for i, (category, text) in enumerate(flat)]


def all_triples(emails: Sequence[Email], attacks: Sequence[Attack], seed: int = DEFAULT_SEED) -> list[Triple]:
    """Every poisoned context, in BIPIA's order: by position, then email, then attack."""
    return [Triple(e, a, p, seed) for p in POSITIONS for e in emails for a in attacks]


def sample_triples(triples: Sequence[Triple], n: int, seed: int = DEFAULT_SEED) -> list[Triple]:
    """`n` triples drawn without replacement with a fixed seed, kept in the population's order."""
    if n >= len(triples):
        return list(triples)
    chosen = set(random.Random(seed).sample(range(len(triples)), n))
    return [t for i, t in enumerate(triples) if i in chosen]


def clean_source_id(email: Email) -> str:
    return f"bipia-e{email.index:02d}-clean.txt"


def write_corpus(triples: Iterable[Triple], folder: Path, clean: Iterable[Email] = ()) -> list[Path]:
    """One `.txt` per triple (and per `clean` email, without any attack), each with a `public` sidecar keeping
    the dataset's license and attribution; returns the text files written."""
    documents = [(t.source_id, t.poisoned) for t in triples] + [(clean_source_id(e), e.context) for e in clean]
    folder.mkdir(parents=True, exist_ok=True)
    sidecar = yaml.safe_dump(
        {"policy_label": "public", "license": "MIT", "attribution": ATTRIBUTION, "provenance_kind": "primary"}
    )
    written: list[Path] = []
    for source_id, text in documents:
        path = folder / source_id
        path.write_text(text + "\n", encoding="utf-8")
        path.with_name(path.name + ".meta.yaml").write_text(sidecar, encoding="utf-8")
        written.append(path)
    return written


class ScopedPolicy(DefaultPolicy):
    """`DefaultPolicy`, narrowed to the sources named in the caller's labels: a question asked with
    `labels=[triple.source_id]` reads its own email only, whatever else the store holds."""

    def decide(self, caller: Caller, source: Source) -> PolicyDecision:
        if source.source_id not in caller.labels:
            return PolicyDecision(decision="deny", reason="out_of_scope")
        return super().decide(caller, source)

    @property
    def version(self) -> str:
        return "bipia:scoped"
