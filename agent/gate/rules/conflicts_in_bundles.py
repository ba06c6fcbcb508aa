"""Conflicts in the bundles: when a readable line of another document of the resolved evidence gives, for the slot of
a value the draft states, a different value, the draft lists the two values together in `evidence.conflicts`.

The model was given that line. Answering from one passage while another document it was given says otherwise is
an omitted conflict, even if the model never quoted the other one and whatever `key` it wrote. Three ways find
the other line, all reading the sentences themselves, never a `key`:

- its value stands in the same words as the stated one (`slots.same_slot`): "the monthly regular assessment at
  $340.00" against "Monthly regular assessment per Unit: $325.00", "born in Paris" against "born in Lyon";
- its sentence is a copy of the stated value's, word for word on both sides of the value, with another value in its
  place (`slot_copy.copied_frame`): "... electronic music band Cut Copy, released on 1 November 2013 by Modular
  Recordings." against "The electronic music band The Beatles, released on 1 November 2013 by Modular Recordings.",
  though the copy has lost the subject's name; a copy swapping words no slot reads as a value ("the yellow lantern
  banksia" / "the red lantern banksia") counts where the draft's answer gives one side's words (`copied.py`);
- it answers the question in the question's own words, about its subject (`answer_slot.fills_question`), while the
  draft answers with another value: "Established: 1850" on the school's page against the draft's "founded ... in
  1912", asked when the school was established.

Numbers, money, percentages and dates compare within `tolerance_pct`, names by spelling. Values of one document are
that document's own slots (a release date and a reissue date): a conflict is two documents disagreeing. Lines
flagged as instructional text are never read, a value another fact of the draft states is left to
`conflicts_reported`, a sentence giving a value the draft lists is accounted for: its other values are about
other things, and a value telling which thing of the subject's name a line is about ("Ardhangini (2018 TV series)",
`answer_slot.tells_which`) says nothing of the subject: in another document it is no rival value, and where the draft
quotes it its slot is read where the line says it ("... is the fourth studio album by ... Cut Copy", not
"Free Your Mind (Cut Copy album)", whose one word "album" would pair it with any list of albums).

A figure a wh-question writes itself ("When did version 2.0 come out?") says which thing is asked about; it answers
nothing (`Question.values`), so it has no rival, and another document's sentence giving another figure in its slot
("Version 3, 29 June 2007" against "Version 2.0, January 2004") is about another thing: none of its values rivals
the answer (`_pinned`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from quotebound.agent.core.contracts import Conflict
from quotebound.agent.gate.answer_slot import (
    agent_for_place,
    answer_values,
    answers_apart,
    fills_question,
    names_by_document,
    tells_which,
)
from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.copied import swapped_pairs
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.question import read_question
from quotebound.agent.gate.slot_copy import copied_frame
from quotebound.agent.gate.slot_words import QuestionTerms
from quotebound.agent.gate.slots import Occurrence, question_terms, same_slot, title_keys, values_differ
from quotebound.agent.gate.stated import Evidence, Stated, agrees, evidence_values, is_subject, needles, stated_values


def listed_together(conflicts: Sequence[Conflict], a: Occurrence, b: Occurrence, tolerance_pct: float) -> bool:
    """Some listed conflict gives both values (each side is verified by `listed_conflicts`)."""
    return any(
        any(agrees(v.value, a, tolerance_pct) for v in c.values)
        and any(agrees(v.value, b, tolerance_pct) for v in c.values)
        for c in conflicts
    )


def _stated_elsewhere(stated: Sequence[Stated], other: Occurrence, tolerance_pct: float) -> bool:
    """The draft itself states `other`'s value (a name at least as fully: "Louisiana" does not state "New
    Orleans, Louisiana")."""
    return any(
        s.occurrence.family == other.family
        and not values_differ(s.occurrence, other, tolerance_pct)
        and other.name_words <= s.occurrence.name_words
        for s in stated
    )


def _candidates(evidence: Sequence[Evidence]) -> Callable[[Occurrence], list[Evidence]]:
    """For a stated value, the evidence values `same_slot` may pair it with (a nearest word of one in the other's
    context) or that stand in its own sentence, in reading order: an index built once per draft, so each stated
    value is compared with the few lines that can concern its slot, not with every value of every bundle."""
    by_context: dict[str, list[int]] = defaultdict(list)
    by_nearest: dict[str, list[int]] = defaultdict(list)
    by_sentence: dict[str, list[int]] = defaultdict(list)
    for n, e in enumerate(evidence):
        for k in e.occurrence.context:
            by_context[k].append(n)
        for k in e.occurrence.nearest:
            by_nearest[k].append(n)
        by_sentence[e.occurrence.sentence].append(n)

    def find(mine: Occurrence) -> list[Evidence]:
        found: set[int] = set(by_sentence.get(mine.sentence, ()))
        for k in mine.nearest:
            found.update(by_context.get(k, ()))
        for k in mine.context:
            found.update(by_nearest.get(k, ()))
        return [evidence[n] for n in sorted(found)]

    return find


def _listed_sentences(
    conflicts: Sequence[Conflict], evidence: Sequence[Evidence], tolerance: float
) -> frozenset[tuple[str, str]]:
    """(source, sentence) of the evidence sentences that give a value the draft lists, from that value's document.
    The draft has paired that sentence's value for the slot; its other values are about other things ("operated
    ... by the private railway operator JR East on Asagiri limited express services", where JR East is listed)."""
    listed = [(v.source_id, v.value) for c in conflicts for v in c.values]
    if not listed:
        return frozenset()
    return frozenset(
        (e.source_id, e.occurrence.sentence)
        for e in evidence
        if any(source == e.source_id and agrees(value, e.occurrence, tolerance) for source, value in listed)
    )


def _same_words(
    stated: Sequence[Stated],
    evidence: Sequence[Evidence],
    question: QuestionTerms,
    titles: Mapping[str, frozenset[str]],
    tolerance: float,
    listed: frozenset[tuple[str, str]] = frozenset(),
) -> list[tuple[Stated, Evidence]]:
    """(stated, evidence) pairs of one slot read from the words around both values, across documents; a sentence
    giving a value the draft lists is accounted for (`_listed_sentences`)."""
    candidates = _candidates(evidence)
    pairs: list[tuple[Stated, Evidence]] = []
    for s in stated:
        check_deadline()
        mine = s.occurrence
        if tells_which(mine, question):
            continue  # "Free Your Mind (Cut Copy album)": a label telling which thing; read where the line says it
        found = [e for e in candidates(mine) if e.occurrence.family == mine.family]
        # A sentence that also states the draft's value for its slot agrees with it: its other values are about
        # something else ("the seventh studio album by the American music duo Carpenters").
        agreeing = {
            e.occurrence.sentence
            for e in found
            if not values_differ(mine, e.occurrence, tolerance)
            and mine.name_words <= e.occurrence.name_words
            and (e.occurrence.sentence == mine.sentence or same_slot(mine, e.occurrence, question) is None)
        }
        for e in found:
            other = e.occurrence
            if (
                e.source_id == s.source_id
                or other.sentence in agreeing
                or (e.source_id, other.sentence) in listed
                or is_subject(other, question)
                or tells_which(other, question)
            ):
                continue  # (one document's values are its own slots: a conflict is two documents disagreeing)
            if not values_differ(mine, other, tolerance):
                continue
            documents = (titles.get(s.source_id, frozenset()), titles.get(e.source_id, frozenset()))
            if same_slot(mine, other, question, documents=documents) is None or copied_frame(mine, other):
                pairs.append((s, e))
    return pairs


def _question_slot(
    answers: Sequence[Stated],
    stated: Sequence[Stated],
    conflicts: Sequence[Conflict],
    evidence: Sequence[Evidence],
    question: QuestionTerms,
    names: Mapping[str, frozenset[str]],
    tolerance: float,
    asked: str = "",
) -> list[tuple[Stated, Evidence]]:
    """(answer value, evidence) pairs where another document answers the question itself otherwise. A sentence that
    also gives a value the draft states or lists is accounted for ("located on Main Street ... in New Orleans",
    where the draft lists New Orleans), and a passive's agent answers no question of where or when (`asked`: the
    question's text)."""
    fillers = [
        e
        for e in evidence
        if fills_question(e.occurrence, question, names.get(e.source_id, frozenset()))
        and not agent_for_place(e.occurrence, asked)
    ]
    if not fillers:
        return []
    by_sentence: defaultdict[str, list[Occurrence]] = defaultdict(list)
    for e in evidence:
        by_sentence[e.occurrence.sentence].append(e.occurrence)

    def reported(sentence: str) -> bool:
        return any(
            any(agrees(v.value, o, tolerance) for c in conflicts for v in c.values)
            or _stated_elsewhere(stated, o, tolerance)
            for o in by_sentence[sentence]
        )

    return [
        (s, e)
        for e in fillers
        if not is_subject(e.occurrence, question)
        and not tells_which(e.occurrence, question)
        and not reported(e.occurrence.sentence)
        for s in answers
        if e.source_id != s.source_id and answers_apart(s.occurrence, e.occurrence, tolerance)
    ]


def _pinned(
    inputs: GateInputs, stated: Sequence[Stated], evidence: Sequence[Evidence], question: QuestionTerms
) -> tuple[list[Stated], frozenset[tuple[str, str]]]:
    """The stated values a wh-question writes itself (the thing it asks about, "version 2.0"), and the (source,
    sentence) of other documents' sentences that give another figure in such a value's slot: about another thing.
    A yes/no question, or one offering a choice ("2018 or 2019"), may be answered by its own values: none pinned."""
    asked = read_question(inputs.question or "")
    if asked.expects == "polarity" or asked.offers_choice or not asked.values:
        return [], frozenset()
    pins = [s for s in stated if any(agrees(written, s.occurrence, 0.0) for _, written in asked.values)]
    other: set[tuple[str, str]] = set()
    for pin in pins:
        for e in evidence:
            o = e.occurrence
            if e.source_id == pin.source_id or o.family != pin.occurrence.family:
                continue
            if not values_differ(pin.occurrence, o, 0.0) or any(agrees(written, o, 0.0) for _, written in asked.values):
                continue
            if same_slot(pin.occurrence, o, question) is None:
                other.add((e.source_id, o.sentence))
    # A sentence that also gives the pinned figure is about the asked thing whatever else it names.
    also = {(e.source_id, e.occurrence.sentence) for e in evidence for p in pins if _same_value(p, e)}
    return pins, frozenset(other - also)


def _same_value(pin: Stated, e: Evidence) -> bool:
    return pin.occurrence.family == e.occurrence.family and not values_differ(pin.occurrence, e.occurrence, 0.0)


def check(inputs: GateInputs) -> list[Finding]:
    question = question_terms(inputs.question)
    tolerance = inputs.tolerance_pct
    conflicts = inputs.draft.evidence.conflicts
    stated = stated_values(inputs)
    pairs = swapped_pairs(inputs)
    if not stated and not pairs:
        return []
    names = any(s.occurrence.family == "name" for s in stated)
    wanted = needles(stated) | {k[:4] for k in question.attribute}
    evidence = list(evidence_values(inputs.bundles, inputs.flagged, names, wanted))
    titles = {source.source_id: title_keys(source.title) for source in inputs.sources}
    listed = _listed_sentences(conflicts, evidence, tolerance)
    pins, elsewhere = _pinned(inputs, stated, evidence, question)
    if pins or elsewhere:
        stated = tuple(s for s in stated if s not in pins)
        evidence = [e for e in evidence if (e.source_id, e.occurrence.sentence) not in elsewhere]
    pairs += _same_words(stated, evidence, question, titles, tolerance, listed)
    answers = answer_values(inputs, stated)
    if answers and question.attribute:
        names_of = names_by_document(inputs)
        pairs += _question_slot(
            answers, stated, conflicts, evidence, question, names_of, tolerance, inputs.question or ""
        )
    findings: list[Finding] = []
    reported: set[tuple[str, str, str]] = set()
    for s, e in pairs:
        mine, other = s.occurrence, e.occurrence
        if _stated_elsewhere(stated, other, tolerance) or listed_together(conflicts, mine, other, tolerance):
            continue
        seen = (s.where, mine.text.casefold(), other.text.casefold())
        if seen in reported:
            continue
        reported.add(seen)
        findings.append(
            Finding(
                code=FindingCode.CONFLICT_OMITTED,
                message=f"{e.source_id} {e.locator} states {other.text!r} where {s.where} states {mine.text!r} "
                f"({s.source_id} {s.locator}), for the same subject; list both values in evidence.conflicts "
                "with their quotes and locators, or answer with both",
                fact_index=s.fact_index,
                token=other.text,
            )
        )
    return findings
