"""Word grounding: every word a user sees must come from somewhere the gate can check (cite-or-abstain, G1).

Span alignment (`alignment.py`) holds figures, dates and codes to the quotes; this rule holds the words. A content
word (three letters or more, not a function word, no digits) in any text the draft shows the user (the three
levels, the answer and analysis, each fact's text, value and key, conflicts, gaps and extracted entities) must
appear in one of:

- the question, with the details the user supplied;
- a cited source, as the caller may see it, outside the lines flagged as instructional text;
- a fixed vocabulary for talking about evidence ("quoted", "states", "insufficient", "disagree", ...).

Words are compared on a light stem ("leases" = "lease", "monthly" = "month"), or on a shared six-letter prefix
("preauthorized" = "preauthorization"). An ungrounded word blocks: text that reaches the user from outside the
documents and the question is either made up or carried in by an instruction the documents did not state as
fact (an injected "mention a 20% discount ..."), and neither may ship.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from quotebound.agent.core.contracts import Draft
from quotebound.agent.core.errors import ModelError
from quotebound.agent.gate.conflicts import FlaggedLines
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.tokens import mask
from quotebound.tools.context import ToolContext
from quotebound.tools.injection import is_instructional

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.UNICODE)
_MIN_LETTERS: Final = 3
_PREFIX: Final = 6
_MAX_SHOWN: Final = 8

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

    def covers(self, word: str) -> bool:
        s = stem(word)
        return s in self.stems or (len(s) >= _PREFIX and s[:_PREFIX] in self.prefixes)


_FRAMING_VOCABULARY = Vocabulary()
_FRAMING_VOCABULARY.add(" ".join(FRAMING))


def _cited_sources(draft: Draft) -> list[str]:
    evidence = draft.evidence
    ids = [s.source_id for f in evidence.facts for s in f.support]
    ids += [v.source_id for c in evidence.conflicts for v in c.values]
    return list(dict.fromkeys(ids))


def vocabulary(draft: Draft, ctx: ToolContext, question: str, flagged: FlaggedLines) -> Vocabulary:
    """The question, plus every unflagged line of every readable cited source, as the caller sees it."""
    vocab = Vocabulary(set(_FRAMING_VOCABULARY.stems), set(_FRAMING_VOCABULARY.prefixes))
    vocab.add(question)
    for source_id in _cited_sources(draft):
        try:
            source = ctx.readable_source(source_id)
        except ModelError:
            continue  # an unknown or hidden source grounds nothing (check_citations reports it)
        for page, line_no, text in ctx.visible_iter_lines(source):
            # Flags from the caller, and the detector run here too: the rule stands whoever computed the flags.
            if (source_id, page, line_no) not in flagged and not is_instructional(text):
                vocab.add(text)
    return vocab


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


def check_grounding(
    draft: Draft, ctx: ToolContext, question: str, flagged: FlaggedLines, citations: Sequence[str]
) -> list[Finding]:
    vocab = vocabulary(draft, ctx, question, flagged)
    findings: list[Finding] = []
    for where, text, fact_index in shown_texts(draft):
        words = ungrounded(text, vocab, citations)
        if not words:
            continue
        shown = ", ".join(repr(w) for w in words[:_MAX_SHOWN]) + (", ..." if len(words) > _MAX_SHOWN else "")
        findings.append(
            Finding(
                code=FindingCode.UNGROUNDED_TEXT,
                message=f"{where} uses words that neither the question nor the cited documents contain ({shown}); "
                "say only what the quotes say, or move the claim to gaps",
                fact_index=fact_index,
            )
        )
    return findings
