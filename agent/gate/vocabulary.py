"""Words and vocabularies for the grounding rule (`rules/grounding.py`): which words of a text are checked, how
two spellings of a word are matched, and which texts of a draft the user sees.

Words are compared on a light stem ("leases" = "lease", "monthly" = "month"), or on a shared six-letter prefix
("preauthorized" = "preauthorization"). A content word has three letters or more, no digits, and is not a
function word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Final

from quotebound.agent.core.contracts import Draft
from quotebound.agent.gate.tokens import mask

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_MIN_LETTERS: Final = 3
_PREFIX: Final = 6

STOPWORDS: Final = frozenset(
    """about above after again against all also although among and any are aren't because been before being below
    between both but can cannot could couldn't did didn't does doesn't doing done down during each either else
    ever every few for from further had hadn't has hasn't have haven't having her here hers herself him himself his
    how however into its itself just let's may might more most must mustn't myself neither nor not now off once
    one only other others ought our ours ourselves out over own per same shall shan't she should shouldn't since
    some such than that that's the their theirs them themselves then there there's therefore these they this those
    though through thus too under until upon very was wasn't were weren't what what's when where whether which while
    who whom whose why will with within without won't would wouldn't yet you you're your yours yourself yourselves
    its it's i'm i've we're we've they're they've""".split()
)

# How answers talk about evidence: what quotebound's own drafts and a careful model say around the quotes.
FRAMING: Final = frozenset(
    """according amount amounts analysis annual annually answer answered answers apply applies asked available
    based beyond calc calculated calculation citation citations cite cited cites compute computed conclude
    confirm conflict conflicting contextual could cover covered covers daily defer defers depend depends derived
    detail details difference differ differs disagree disagreement disagrees divided document documents enough
    evidence exact explicitly figure figures find found full gap gaps given give hundred indicate indicates
    information insufficient less line lines list listed lists marked mention mentioned mentions missing monthly
    multiplied none note noted notes number numbers partial partially passage passages percent percentage plus
    points precise precisely primary provide provided question questions quote quoted quotes quoting record
    recorded records relying rely replace replacing report reported reports response result results retrieved
    said say says secondary section see share shown shows source sources specified specify state stated statement
    states still supplied supply support supported supports term terms tolerance total twelve unclear unknown
    value values verbatim verified weekly weight yearly minus times""".split()
)


def stem(word: str) -> str:
    """A light suffix-stripping stem: enough to match plurals, past tenses, -ing forms and -ly adverbs."""
    w = word.casefold().replace("’", "'").removesuffix("'s").removesuffix("'")
    for suffix, keep in (("sses", "ss"), ("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("ly", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith(("ss", "us", "is"))):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w  # "charge" = "charged" = "charg"


def content_words(text: str) -> list[str]:
    """The words of `text` the rule checks: letters only, three or more, no function words."""
    return [
        w for w in _WORD.findall(text) if len(w) >= _MIN_LETTERS and w.casefold().replace("’", "'") not in STOPWORDS
    ]


@dataclass
class Vocabulary:
    """Stems (and long-word prefixes) of every word that may be shown."""

    stems: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)

    def add(self, text: str) -> None:
        for word in _WORD.findall(text):
            s = stem(word)
            self.stems.add(s)
            if len(s) >= _PREFIX:
                self.prefixes.add(s[:_PREFIX])

    def copy(self) -> Vocabulary:
        return Vocabulary(set(self.stems), set(self.prefixes))

    def covers(self, word: str) -> bool:
        s = stem(word)
        return s in self.stems or (len(s) >= _PREFIX and s[:_PREFIX] in self.prefixes)


FRAMING_VOCABULARY: Final = Vocabulary()
FRAMING_VOCABULARY.add(" ".join(FRAMING))


def shown_texts(draft: Draft) -> Iterator[tuple[str, str, int | None]]:
    """(where, text, fact index) of everything model-written the user may see."""
    levels, evidence = draft.levels, draft.evidence
    yield from (("level1", levels.level1, None), ("level2", levels.level2, None), ("level3", levels.level3, None))
    yield ("evidence.answer", evidence.answer, None)
    yield ("evidence.analysis", evidence.analysis, None)
    for i, fact in enumerate(evidence.facts):
        yield from ((f"fact {i} text", fact.text, i), (f"fact {i} value", fact.value or "", i))
        yield (f"fact {i} key", fact.key or "", i)
    for k, conflict in enumerate(evidence.conflicts):
        yield (f"conflict {k} key", conflict.key, None)
        yield (f"conflict {k} notes", f"{conflict.delta} {conflict.notes}", None)
        for m, value in enumerate(conflict.values):
            yield (f"conflict {k} value {m}", value.value, None)
    for j, gap in enumerate(evidence.gaps):
        yield (f"gap {j}", gap.need, None)
    yield ("extractions", " ".join(evidence.extractions.entities), None)


def ungrounded(text: str, vocab: Vocabulary, citations: Iterable[str]) -> list[str]:
    """The words of `text` (citations blanked out) that `vocab` does not cover, each once, in order."""
    missing = [w for w in content_words(mask(text, citations)) if not vocab.covers(w)]
    return list(dict.fromkeys(w.casefold() for w in missing))
