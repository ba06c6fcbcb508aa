"""Support of a claim's words by the claim's own quotes: which content words of a claim no quote it rests on says.

A content word (`vocabulary.is_content`) of a claim is supported when:

- one of the claim's quotes has it, up to inflection and derivation (`vocabulary.stems`), or, for a table row, the
  table's header, group row or caption does (a cell means what its column says); light verbs ("run", "puts") and
  words about evidence ("according", "table") are free (`quoted.Evidence.says`);
- it is an acronym of words its quotes spell out ("VAT" for "Value added tax", "SG&A");
- it names a cited document (`naming`): a word of a cited source's id or a run of its title, or its title's month
  beside a reporting word; or it talks about the documents rather than the world (`source_talk`: "another copy of
  the article says", "a near-identical document", "the two biographies agree");
- it is a name the question gives its subject ("Fort Kent", "GPLv3", 'the album "Girls' Generation"') where no
  quote puts another name, or a name of the question the cited documents write. Any other word of the question
  supports nothing: "Is the late charge waived?" does not make "waived" a fact;
- it names the organization a quote speaks for in the first person ("the company" for "we", "our");
- it says what a verified calc of the claim did (`calc_words`): its direction, its operation, a period it converts
  to, or the scale of a figure its quotes give ("million" for a table "in millions");
- it spells a figure its quotes or calc give ("twelve" for "12" or "12-month"), names the kind of a value the claim
  states ("the release date" beside a date), a biography's birth or death its quoted span gives, ranks the dated
  periods its quotes give ("the second period"), counts the years a quote lists ("the three years"), or is a
  superlative its quoted figures bear out ("largest" for the largest of a row);
- in a field that only names a slot (a fact's or conflict's key, a gap's need, a report of insufficient evidence,
  the label of a "Label: value" claim) it names an attribute, or is a word of the question; a key is
  a label, so there any word the model read will do and ordinals rank the slot. Words of polarity, modality and
  direction, months and number words still need the quotes there (a label's "Waived: $25" asserts);
- it names the kind of a subject the claim names, as the passage its quote stands in does ("the town of Pilzno":
  `kind_nouns`), or is the name that passage gives what the quote calls by a definite description ("DC Focus" for
  "the imprint" where the passage says "DC Focus, a short-lived imprint");
- it is the one plain word of the writer's own a claim that says enough of its quotes may add (`allowance`);
- or the paraphrase scorer rates it close to a word of its quotes the claim did not use (`PARAPHRASE_MIN`), unless
  it is a word whose meaning closeness cannot be trusted with (polarity, modality, direction, months, number
  words: `vocabulary.STRICT_WORDS`) or a name, or the claim misses more words than a rewording would.

Only the quotes count, never the rest of a cited source: a word from another paragraph of the same document
("boats" beside "pets") is exactly what a model carries in by mistake, or what an instruction in the document tells
it to add.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cached_property
from typing import Final

from quotebound.agent.gate.allowance import own_words, plain_vocabulary
from quotebound.agent.gate.calc_words import (
    ABOVE_WORDS,
    BELOW_WORDS,
    DIRECTION_WORDS,
    LEAST_WORDS,
    MOST_WORDS,
    SUBTRACTION_WORDS,
    calc_figure,
    converts_period,
    direction_supported,
    rounds_to,
    subtracts,
    superlative_supported,
    verified_calcs,
)
from quotebound.agent.gate.claim_forms import (
    as_change,
    compound_label,
    key_label,
    names_year,
    on_disputed,
    places_after,
    ranks_column,
)
from quotebound.agent.gate.claims import Claim
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.kind_nouns import antecedent_kind, described_name, kind_noun
from quotebound.agent.gate.naming import (
    dates_document,
    named_elsewhere,
    question_names,
    question_subject,
    source_words,
    title_named,
    written_in,
)
from quotebound.agent.gate.quoted import (
    Evidence,
    Word,
    evidence_of,
    initials,
    meaning_word,
    strict,
    text_axes,
    word_axes,
    words,
)
from quotebound.agent.gate.rewording import (
    PARAPHRASE_MIN,
    PARAPHRASE_WORDS,
    Unsupported,
    candidates,
    closest,
    settle,
)
from quotebound.agent.gate.source_talk import (
    about_sources,
    counted_values,
    counts_documents,
    life_event,
    ranks_periods,
    refers_back,
    states_kind,
)
from quotebound.agent.gate.vocabulary import (
    ATTRIBUTE_WORDS,
    DERIVATION_WORDS,
    DIMENSIONS,
    DISPUTE_WORDS,
    NUMBER_WORDS,
    ORDINALS,
    ORGANIZATION_WORDS,
    PERIOD_WORDS,
    PRIVATIVES,
    Vocabulary,
    fold,
    in_category,
    stem,
    vocabulary_of,
)

# The fields that name a slot, or describe a listed disagreement, rather than state a fact: a question's words and
# attribute words are fine there ("the sources give different amounts"). A report of insufficient evidence answers
# nothing: its summaries say what is missing, in the question's words.
DESCRIPTIVE_FIELDS: Final = frozenset({"fact_key", "conflict_key", "gap", "conflict_notes"})
_KEYS: Final = frozenset({"fact_key", "conflict_key"})
_SUMMARIES: Final = frozenset({"level1", "level2", "answer", "analysis"})
_YES_NO: Final = frozenset("yes no true false".split())
_LABEL: Final = re.compile(r"^([^:]{1,60}):\s+(\S.*)$")
_ACRONYM: Final = re.compile(r"[A-Z][A-Za-z&]*[A-Z]s?")
_CALENDAR: Final = frozenset(
    "january february march april june july august september october november december monday tuesday wednesday "
    "thursday friday saturday sunday".split()
)


def _measured(word: str, vocab: Vocabulary) -> bool:
    """`word` names a dimension its quotes measure with an adjective ("height" for "38 meters tall")."""
    return any(vocab.covers(adjective) for adjective in DIMENSIONS.get(stem(word), DIMENSIONS.get(fold(word), ())))


def unsupported_words(claim: Claim, inputs: GateInputs) -> list[str]:
    """The content words of `claim` its quotes do not support (see the module docstring), each once, in order."""
    return settle([assess(claim, inputs)], inputs.paraphrase)[0]


class _Reading:
    """How one claim is read: which of its words only name a slot, and what else may support them (what costs more
    than a lookup is worked out on first need: most claims never need it)."""

    def __init__(self, claim: Claim, inputs: GateInputs, found: tuple[Word, ...], evidence: Evidence) -> None:
        self.claim, self.inputs, self.found, self.evidence = claim, inputs, found, evidence
        label = _LABEL.match(claim.text)
        reporting = inputs.draft.evidence.mode == "report_insufficient_evidence" and claim.field in _SUMMARIES
        # words before this offset name a slot: the whole text of a key, a gap, a report; a label's name
        self.descriptive_until = len(claim.text) if claim.field in DESCRIPTIVE_FIELDS or reporting else 0
        self.labelled = label is not None and fold(label.group(2).strip(" .")) not in _YES_NO
        self.labelled = self.labelled and not self.descriptive_until
        if label is not None and self.labelled:
            # "Location: Cloutierville": a slot, then its value; the slot's name states no polarity ("Waived: $25")
            self.descriptive_until = label.end(1)
        self.question = vocabulary_of(inputs.question or "")
        self.sources = frozenset(q.source_id for q in claim.quotes)
        self.ids, self._titles, self.title_months = source_words(inputs, self.sources)

    @cached_property
    def titled(self) -> frozenset[int]:
        """Indexes of the words in a run of a cited source's title."""
        return frozenset(title_named(self.found, self._titles) if self._titles else ())

    @cached_property
    def free(self) -> frozenset[int]:
        """Offsets of the words the claim says about its documents, or that count the values a quote lists."""
        found, claim = self.found, self.claim
        free = about_sources(claim, self.inputs, self.question)
        for i in range(len(found) - 1):
            if counted_values(claim.text, found, i, claim):
                free |= {found[i].start, found[i + 1].start}
        return frozenset(free)


def _names_a_slot(w: Word, r: _Reading) -> bool:
    """`w` stands where a field names a slot, and names it without asserting (see the module docstring)."""
    if w.start >= r.descriptive_until:
        return False
    if in_category(w.text, ATTRIBUTE_WORDS):
        return True
    folded = fold(w.text)
    if r.claim.field in _KEYS:
        if folded in ORDINALS:
            return True
        if meaning_word(folded) or folded in _CALENDAR or folded in NUMBER_WORDS:
            return False
        return key_label(w.text, r.question, r.inputs) or compound_label(folded, r.question, r.inputs)
    return r.question.covers(w.text) and not (r.labelled and strict(w.text))


def _named(i: int, r: _Reading) -> bool:
    """`found[i]` names a cited document or the question's subject, or is an acronym its quotes spell out."""
    w = r.found[i]
    folded = fold(w.text)
    if i in r.titled or r.ids.covers(w.text):
        return True
    if folded in r.title_months and dates_document(r.found, i, r.ids, set(r.titled)):
        return True
    if question_subject(r.claim.text, r.found, i, r.inputs, [q.quote for q in r.claim.quotes]):
        return True
    if folded in question_names(r.inputs.question).every and written_in(r.inputs, folded, r.sources):
        return True  # the question's name for a subject the cited documents write
    if not _ACRONYM.fullmatch(w.text):
        return False
    if len(w.text) == 2:  # "US" for "United States", "FY" for a cited budget's "Fiscal Year" (no plural "s" here)
        titles = (s.title for s in r.inputs.sources if s.source_id in r.sources)
        return folded in r.evidence.initials or any(folded in initials(t) for t in titles)
    return folded.removesuffix("s").replace("&", "") in r.evidence.initials


def _borne_out(i: int, r: _Reading, direction: list[bool]) -> bool:
    """`found[i]` is borne out by the form of the quotes or by a verified calc rather than by a word of them."""
    w, claim, inputs, evidence = r.found[i], r.claim, r.inputs, r.evidence
    folded = fold(w.text)
    if any(in_category(w.text, frozenset({scale})) for scale in evidence.scales):
        return True
    if (folded in ORDINALS or folded in NUMBER_WORDS) and counts_documents(r.found, i, claim, inputs):
        return True  # "a second source says", "the two sources give": counting documents, not asserting a figure
    if ranks_periods(r.found, i, claim, evidence) or states_kind(w.text, claim.text) or life_event(w.text, claim):
        return True
    if refers_back(claim.text, r.found, i) or names_year(folded, w.start + len(w.text), claim):
        return True
    if _measured(w.text, evidence.vocab) or (evidence.negated and in_category(w.text, PRIVATIVES)):
        return True
    if (axes := word_axes(folded)) and axes <= evidence.axes:
        return True  # "aren't allowed" for "prohibited", "starting" for "begins": the meaning rule holds the pole
    if folded in NUMBER_WORDS:
        n = NUMBER_WORDS[folded]
        if places_after(claim.text, w.start + len(w.text)) and rounds_to(claim, inputs, n):
            return True  # "rounding to two places": how many places the verified calc keeps
        return Decimal(n) in evidence.figures or calc_figure(claim, inputs, n)
    if folded in ORDINALS:
        return ORDINALS[folded] in evidence.ranks or ranks_column(folded, w.start + len(w.text), claim)
    if in_category(w.text, PERIOD_WORDS):
        return converts_period(claim, inputs)
    if folded in MOST_WORDS or folded in LEAST_WORDS:
        return superlative_supported(claim, folded in MOST_WORDS)
    if folded in SUBTRACTION_WORDS and subtracts(claim, inputs, w.start):
        return True  # "136.4 less 131.7 = 4.7": the verified calc's operator, written between its operands
    if (folded in ABOVE_WORDS or folded in BELOW_WORDS) and not verified_calcs(claim, inputs):
        return as_change(folded, evidence)
    if folded in DIRECTION_WORDS:
        if not direction:  # computed once per claim, and only for a claim that has a direction word
            direction.append(bool(direction_supported(claim, inputs)))
        return direction[0]
    if in_category(w.text, DERIVATION_WORDS):
        return bool(verified_calcs(claim, inputs))
    return False


def _supported(i: int, r: _Reading, direction: list[bool]) -> bool:
    w = r.found[i]
    if r.evidence.says(w.text) or _names_a_slot(w, r) or _named(i, r) or w.start in r.free:
        return True
    if r.inputs.draft.evidence.conflicts and (
        in_category(w.text, DISPUTE_WORDS)
        or (in_category(w.text, ATTRIBUTE_WORDS) and on_disputed(r.claim.text, w.start))
    ):
        return True  # "disputed: 15 June 1745", "the sources disagree on the date": what the listed conflict says
    if r.evidence.first_person and in_category(w.text, ORGANIZATION_WORDS):
        return True  # "the company's assets" for a quote's "our assets" (never a party the document names)
    if _borne_out(i, r, direction):
        return True
    # a gap names what the quotes do not say, in the words of the documents the model read
    return r.claim.field == "gap" and plain_vocabulary(r.inputs).covers(w.text)


def assess(claim: Claim, inputs: GateInputs) -> Unsupported:
    """The words of `claim` its quotes do not support, before any paraphrase (see the module docstring)."""
    found = words(claim.text)
    if not found:
        return Unsupported(())
    evidence = evidence_of(claim.quotes)
    if all(evidence.says(w.text) for w in found):
        return Unsupported(())  # the common case: every word is the quotes' own, or free
    r = _Reading(claim, inputs, found, evidence)
    direction: list[bool] = []
    missing = [i for i in range(len(found)) if not _supported(i, r, direction)]
    if missing:
        # a word free only as a word about evidence ("column") is no quoted part of a name
        unwritten = frozenset(
            i for i, w in enumerate(found) if not evidence.vocab.covers(w.text) and evidence.says(w.text)
        )
        missing = named_elsewhere(claim.text, inputs, found, missing, r.sources, unwritten)
        kind = kind_noun(claim, found, missing, inputs) if missing else None
        if kind is None and missing:
            kind = antecedent_kind(claim, found, missing, inputs)
        if kind is not None:  # the kind of a subject, as the quote's own passage names it (one per claim)
            missing = [i for k, i in enumerate(missing) if k != kind]
        # the name the quote's own passage gives what the quote calls "the imprint"
        missing = [i for i in missing if not described_name(claim, found, i, inputs)]
    if own_words(claim.text, found, missing, inputs, r.question):
        return Unsupported(())
    unsupported = tuple(dict.fromkeys(fold(found[i].text) for i in missing))
    if not unsupported or inputs.paraphrase is None or len(unsupported) > PARAPHRASE_WORDS:
        return Unsupported(unsupported)  # several words missing: no rewording, another statement
    closeness = candidates(claim.text, found, missing, evidence, inputs.question or "", r.descriptive_until)
    return Unsupported(unsupported, closeness)


__all__ = [
    "DESCRIPTIVE_FIELDS",
    "PARAPHRASE_MIN",
    "Unsupported",
    "assess",
    "closest",
    "direction_supported",
    "settle",
    "text_axes",
    "unsupported_words",
    "word_axes",
    "words",
]
