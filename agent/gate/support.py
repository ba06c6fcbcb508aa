"""Support of a claim's words by the claim's own quotes: which content words of a claim no quote it rests on says.

A content word (`vocabulary.is_content`) of a claim is supported when:

- one of the claim's quotes has it, up to inflection and derivation (`vocabulary.stems`, a shared long prefix),
  or, for a table row, the table's header, group row or caption does (a cell means what its column says);
- it is an acronym of words its quotes spell out ("VAT" for "Value added tax", "SG&A");
- it names a cited document: a word about evidence and documents ("according", "table", "footnote"), a word of a
  cited source's id ("the Declaration" for declaration.md), a run of two or more words of its title ("the March
  Board meeting" for the minutes so titled), or the month of its title next to a reporting word or its name ("noted
  in March"): a document's date is metadata, never the date of what the claim is about;
- it is a name or identifier the question uses for its subject ("GPLv3", "IMFT"), capitalized or mixed case in the
  question and written in a cited source. Any other word of the question supports nothing: "Is the late charge
  waived?" does not make "waived" a fact, and a month in the question is a value, not a name;
- it names the organization a quote speaks for in the first person ("the company" for "we", "our");
- it says what a verified calc of the claim did: its direction ("rose", "went up", "exceeds": `direction_supported`),
  its operation ("the change", "averaged", "a ratio of"), a period it converts to ("monthly" for an annual figure
  divided by 12), or the scale of a figure its quotes give ("million" for a table "in millions" or "€m");
- it spells a figure its quotes or calc give ("twelve" for "12"), it is an ordinal counting documents ("a second
  source says"), or a superlative its quoted figures bear out ("largest" for the largest of a row);
- in a descriptive text (a fact's or conflict's key, a gap's need, a report of insufficient evidence, the label of a
  "Label: value" claim) it names an attribute ("method", "size") or is a word of the question: those name what is
  asked or missing, they state no value (a label's polarity words excepted: "Waived: $25.00" asserts);
- or the paraphrase scorer rates it close to a word of its quotes the claim did not use (`PARAPHRASE_MIN`), unless
  it is a word whose meaning closeness cannot be trusted with (polarity, modality, direction, months, number
  words: `vocabulary.STRICT_WORDS`) or a name, or the claim misses more words than a rewording would.

Light verbs ("run", "puts", "sets aside") and function words are free. Only the quotes count, never the rest of a
cited source: a word from another paragraph of the same document ("boats" beside "pets") is exactly what a model
carries in by mistake, or what an instruction in the document tells it to add.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.calc_words import (
    DIRECTION_WORDS,
    LEAST_WORDS,
    MOST_WORDS,
    calc_figure,
    converts_period,
    direction_supported,
    superlative_supported,
    verified_calcs,
)
from quotebound.agent.gate.claims import Claim, QuoteSpan, sentences
from quotebound.agent.gate.inputs import GateInputs, Paraphrase
from quotebound.agent.gate.meaning import NEGATORS, parse
from quotebound.agent.gate.tokens import quote_keys
from quotebound.agent.gate.vocabulary import (
    ATTRIBUTE_WORDS,
    DERIVATION_WORDS,
    DIMENSIONS,
    DOCUMENT_NOUNS,
    EVIDENCE_WORDS,
    FIRST_PERSON_PLURAL,
    LIGHT_VERBS,
    NUMBER_WORDS,
    ORGANIZATION_WORDS,
    PERIOD_WORDS,
    PRIVATIVES,
    SCALES,
    STOPWORDS,
    STRICT_WORDS,
    WORD,
    Vocabulary,
    fold,
    in_category,
    is_content,
    stem,
    vocabulary_of,
)

# How close (the shipped embedder's cosine of the two words) a claim word must be to a word of its quotes to count
# as a paraphrase of it. Calibrated on the gate calibration set with all-MiniLM-L6-v2 (see the CHANGELOG).
PARAPHRASE_MIN: Final = 0.88
# In a field that only names a slot (a key, a gap's need) a word asserts nothing: closeness to a word of the quotes
# or the question may be looser there ("birth" for "born").
DESCRIPTIVE_PARAPHRASE_MIN: Final = 0.80
# A claim with more unsupported words than this is another statement, not a rewording: paraphrase is not tried
# (which also bounds what one draft may cost the embedder). A word is compared with at most this many quote words.
_PARAPHRASE_WORDS: Final = 3
_PARAPHRASE_CANDIDATES: Final = 256

# The fields that name a slot, or describe a listed disagreement, rather than state a fact: a question's words and
# attribute words are fine there ("the sources give different amounts"). A report of insufficient evidence answers
# nothing: its summaries say what is missing, in the question's words.
DESCRIPTIVE_FIELDS: Final = frozenset({"fact_key", "conflict_key", "gap", "conflict_notes"})
_SUMMARIES: Final = frozenset({"level1", "level2", "answer", "analysis"})
_YES_NO: Final = frozenset("yes no true false".split())
_REPORTING: Final = frozenset("says said states stated reads gives gave lists shows records notes".split())
_ORDINALS: Final = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth last next".split())
_LABEL: Final = re.compile(r"^([^:]{1,60}):\s+(\S.*)$")
_TITLE_RUN: Final = 2
_DATING_WINDOW: Final = 1  # content words between a title's month and the reporting word or name it dates
_CACHED_TEXTS: Final = 32
_REWORDING_CONTEXT: Final = 3  # supported content words a claim needs before one word of its own may stand
_SENTENCE_START: Final = re.compile(r"(?:^|[.:;!?\"“(]\s*)$")
_ACRONYM: Final = re.compile(r"[A-Z][A-Za-z&]*[A-Z]s?")


@dataclass(frozen=True)
class Word:
    text: str
    start: int
    name: bool  # capitalized where a sentence does not start, or mixed case / all capitals: a name


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[Word, ...]:
    """The content words of `text`, each marked as a name or not (cached: quotes and questions recur)."""
    out: list[Word] = []
    for m in WORD.finditer(text):
        w = m.group()
        if not is_content(w):
            continue
        inner_caps = any(c.isupper() for c in w[1:])
        capitalized = w[0].isupper() and not _SENTENCE_START.search(text[max(0, m.start() - 3) : m.start()])
        out.append(Word(w, m.start(), inner_caps or capitalized))
    return tuple(out)


@lru_cache(maxsize=256)
def question_names(question: str | None) -> frozenset[str]:
    """The names and identifiers the question uses (capitalized inside a sentence, mixed case, all capitals), months
    and weekdays aside: a date is a value, and a value in the question never supports a claim."""
    if not question:
        return frozenset()
    return frozenset(fold(w.text) for w in words(question) if w.name and not _strict(w.text))


_MONTH_NAMES: Final = frozenset(
    "january february march april may june july august september october november december".split()
)


def _months(text: str) -> set[str]:
    return {w for w in (fold(m) for m in WORD.findall(text)) if w in _MONTH_NAMES}


@dataclass(frozen=True)
class Evidence:
    """What a claim's quotes can support: their words (with their tables' headers), their acronyms, whether they
    speak in the first person, the scales they state, and the words a paraphrase may be measured against."""

    vocab: Vocabulary
    initials: frozenset[str]
    first_person: bool
    scales: frozenset[str]
    plain: tuple[str, ...]
    figures: frozenset[Decimal]  # every number the quotes write (a date's or a time's parts included)
    axes: frozenset[str]  # the meaning rule's axes the quotes state: "deontic", "phase", "change", "magnitude" ...
    negated: bool  # a quote states a negation ("no quorum is present", "not paid")
    _said: dict[str, bool] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def says(self, word: str) -> bool:
        """The quotes have `word` (up to inflection), or it is a free word: remembered, words recur across claims."""
        known = self._said.get(word)
        if known is None:
            known = self._said[word] = (
                self.vocab.covers(word) or in_category(word, EVIDENCE_WORDS) or fold(word) in LIGHT_VERBS
            )
        return known


def _initials(text: str) -> set[str]:
    """Every run of initials of consecutive content words of `text` ("value added tax" gives "va", "vat", "at")."""
    letters = [fold(w)[0] for w in WORD.findall(text) if fold(w) not in STOPWORDS]
    return {"".join(letters[i:j]) for i in range(len(letters)) for j in range(i + 2, min(len(letters), i + 7) + 1)}


_evidences: OrderedDict[int, tuple[tuple[QuoteSpan, ...], Evidence]] = OrderedDict()


def _evidence_of(quotes: tuple[QuoteSpan, ...]) -> Evidence:
    """`_evidence(quotes)`, looked up by the tuple's identity first: the claims of a draft share a few tuples (a
    fact's quotes, every quote), and hashing them whole for each claim would cost more than the check."""
    hit = _evidences.get(id(quotes))
    if hit is not None and hit[0] is quotes:
        return hit[1]
    found = _evidence(quotes)
    _evidences[id(quotes)] = (quotes, found)  # the tuple is held, so its id cannot be reused while cached
    while len(_evidences) > _CACHED_TEXTS * 4:
        _evidences.popitem(last=False)
    return found


@lru_cache(maxsize=1024)
def _evidence(quotes: tuple[QuoteSpan, ...]) -> Evidence:
    vocab = Vocabulary()
    texts = [t for q in quotes for t in (q.quote, q.header) if t]
    for text in texts:
        vocab.stems |= vocabulary_of(text).stems
        vocab.prefixes |= vocabulary_of(text).prefixes
    initials = frozenset(i for q in quotes for i in _initials(f"{q.quote} {q.header}"))
    first = any(FIRST_PERSON_PLURAL.search(t) for t in texts)  # the quotes, their tables and captions
    scales = frozenset(scale for scale, pattern in SCALES.items() if any(pattern.search(t) for t in texts))
    plain = tuple(dict.fromkeys(fold(w.text) for q in quotes for w in words(q.quote) if not _strict(w.text)))
    figures = frozenset(
        v for q in quotes for kind, v in quote_keys(q.quote) if kind == "num" and isinstance(v, Decimal)
    )
    axes = frozenset(a for q in quotes for sentence in sentences(q.quote) for a in text_axes(sentence))
    negated = any(fold(w) in NEGATORS or fold(w).endswith("n't") for q in quotes for w in WORD.findall(q.quote))
    return Evidence(vocab, initials, first, scales, plain, figures, axes, negated)


@lru_cache(maxsize=4096)
def text_axes(text: str) -> frozenset[str]:
    """The axes of meaning `text` states, as the meaning rule reads them: "deontic" for a permission, prohibition,
    obligation or exemption, and each axis of a direction (magnitude, order, change, phase, state, extreme)."""
    found: set[str] = set()
    for clause in parse(text).clauses:
        found.update(["deontic"] if clause.modality else [])
        found.update(axis for axis, _ in clause.directions)
    return frozenset(found)


def word_axes(word: str) -> frozenset[str]:
    """The axes a single word states (read as written, else as its stem: "starting" as "start")."""
    return text_axes(word) or text_axes(stem(word))


def _measured(word: str, vocab: Vocabulary) -> bool:
    """`word` names a dimension its quotes measure with an adjective ("height" for "38 meters tall")."""
    return any(vocab.covers(adjective) for adjective in DIMENSIONS.get(stem(word), DIMENSIONS.get(fold(word), ())))


def _strict(word: str) -> bool:
    return in_category(word, STRICT_WORDS)


def _source_words(
    inputs: GateInputs, source_ids: Iterable[str]
) -> tuple[Vocabulary, tuple[Vocabulary, ...], frozenset[str]]:
    """(the words of the cited sources' ids, each cited source's title, the months of their titles: a document's
    date is metadata that may be cited like its text)."""
    wanted = frozenset(source_ids)
    titles = tuple(sorted((s.source_id, s.title) for s in inputs.sources if s.source_id in wanted))
    return _named_sources(tuple(sorted(wanted)), titles)


@lru_cache(maxsize=512)
def _named_sources(
    source_ids: tuple[str, ...], titles: tuple[tuple[str, str], ...]
) -> tuple[Vocabulary, tuple[Vocabulary, ...], frozenset[str]]:
    ids = Vocabulary()
    for source_id in source_ids:
        name = re.sub(r"\.[A-Za-z0-9]+$", "", source_id)  # the extension names a format, not the document
        ids.add(" ".join(w for w in re.findall(r"[A-Za-z0-9]+", name) if _id_word(w)))
    months = frozenset(m for _, title in titles for m in _months(title))
    return ids, tuple(vocabulary_of(title) for _, title in titles), months


def _id_word(part: str) -> bool:
    """A part of a source id that is a word: letters only, three or more, and not a run of hex digits from a hash
    or uuid ("bfb", "face")."""
    return part.isalpha() and len(part) >= 3 and not set(part.lower()) <= set("abcdef")


def _counts_documents(found: Sequence[Word], i: int) -> bool:
    """`found[i]` (a number or an ordinal) counts documents: the next content word names one ("two sources", "a
    second table"), or is a word of reporting ("a second says")."""
    if i + 1 >= len(found):
        return False
    after = found[i + 1].text
    return in_category(after, DOCUMENT_NOUNS) or in_category(after, _REPORTING)


def _dates_document(found: Sequence[Word], i: int, ids: Vocabulary, titled: set[int]) -> bool:
    """The month `found[i]` dates the document that says something (the month of its title, next to a reporting
    word or the document's name: "noted in March", "the March minutes"), rather than the subject of the claim."""
    near = range(max(0, i - _DATING_WINDOW), min(len(found), i + _DATING_WINDOW + 1))
    return any(
        j != i and (j in titled or ids.covers(found[j].text) or in_category(found[j].text, EVIDENCE_WORDS))
        for j in near
    )


def _name_runs(text: str, found: Sequence[Word]) -> list[list[int]]:
    """Runs of two or more consecutive capitalized words in `found` (initials such as "M." may sit between them),
    a sentence's first word included: one multi-word name each ("General Blackshear M. Bryan")."""
    runs: list[list[int]] = []
    for i, w in enumerate(found):
        if not (w.name or w.text[0].isupper()):
            continue
        if runs and runs[-1][-1] == i - 1:
            between = text[found[i - 1].start + len(found[i - 1].text) : w.start]
            if re.fullmatch(r"\s+(?:[A-Z]\.\s*)*", between):
                runs[-1].append(i)
                continue
        runs.append([i])
    return [r for r in runs if len(r) >= 2]


_texts: OrderedDict[tuple[int, frozenset[str]], tuple[GateInputs, str]] = OrderedDict()


def _source_text(inputs: GateInputs, source_ids: Iterable[str]) -> str:
    """The titles and lines of `source_ids`, casefolded, whitespace collapsed (once per draft and sources)."""
    wanted = frozenset(source_ids)
    key = (id(inputs), wanted)
    hit = _texts.get(key)
    if hit is not None and hit[0] is inputs:
        return hit[1]
    titles = [s.title for s in inputs.sources if s.source_id in wanted]
    lines = [line.text for line in inputs.cited_lines if line.source_id in wanted]
    text = fold(" ".join(" ".join([*titles, *lines]).split()))
    _texts[key] = (inputs, text)  # the inputs are held, so their id cannot be reused while cached
    while len(_texts) > _CACHED_TEXTS:
        _texts.popitem(last=False)
    return text


def _in_sources(word: str, inputs: GateInputs, sources: set[str]) -> bool:
    """`word` is written in one of `sources` (a title or a line), as a word of its own."""
    return re.search(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", _source_text(inputs, sources)) is not None


def _title_named(found: Sequence[Word], titles: Sequence[Vocabulary]) -> set[int]:
    """Indexes of `found` in a run of `_TITLE_RUN` or more consecutive content words of one title."""
    named: set[int] = set()
    for title in titles:
        run: list[int] = []
        for i, w in enumerate([*found, None]):
            if w is not None and title.covers(w.text):
                run.append(i)
                continue
            if len(run) >= _TITLE_RUN:
                named.update(run)
            run = []
    return named


def closest(paraphrase: Paraphrase, word: str, candidates: Sequence[str]) -> float:
    """The best paraphrase score of `word` against any of `candidates` (one batch when the scorer offers `best`)."""
    if not candidates:
        return 0.0
    best = getattr(paraphrase, "best", None)
    if callable(best):
        return float(best(word, candidates))
    return max(paraphrase(word, c) for c in candidates)


@dataclass(frozen=True)
class Unsupported:
    """What a claim's quotes do not say: words nothing supports, and words only a paraphrase could still support,
    each with the words it may be a paraphrase of and how close it must be."""

    words: tuple[str, ...]  # every unsupported word, in order (folded)
    closeness: tuple[tuple[str, tuple[str, ...], float], ...] = ()  # (word, candidates, least score)


def unsupported_words(claim: Claim, inputs: GateInputs) -> list[str]:
    """The content words of `claim` its quotes do not support (see the module docstring), each once, in order."""
    return settle([assess(claim, inputs)], inputs.paraphrase)[0]


def settle(found: Sequence[Unsupported], paraphrase: Paraphrase | None) -> list[list[str]]:
    """Each claim's unsupported words once paraphrase has had its say: all the candidate words of every claim are
    embedded in one batch first (when the scorer can), so a draft costs one call to the embedder at most."""
    if paraphrase is None:
        return [list(u.words) for u in found]
    warm = getattr(paraphrase, "vectors", None)
    if callable(warm):
        texts = [t for u in found for word, against, _ in u.closeness for t in (word, *against)]
        if texts:
            warm(list(dict.fromkeys(texts)))
    settled: list[list[str]] = []
    for u in found:
        close = {word for word, against, least in u.closeness if closest(paraphrase, word, against) >= least}
        settled.append([w for w in u.words if w not in close])
    return settled


def assess(claim: Claim, inputs: GateInputs) -> Unsupported:
    """The words of `claim` its quotes do not support, before any paraphrase (see the module docstring)."""
    found = words(claim.text)
    if not found:
        return Unsupported(())
    evidence = _evidence_of(claim.quotes)
    if all(evidence.says(w.text) for w in found):
        return Unsupported(())  # the common case: every word is the quotes' own, or free
    label = _LABEL.match(claim.text)
    reporting = inputs.draft.evidence.mode == "report_insufficient_evidence" and claim.field in _SUMMARIES
    descriptive_until = len(claim.text) if claim.field in DESCRIPTIVE_FIELDS or reporting else 0
    labelled = label is not None and fold(label.group(2).strip(" .")) not in _YES_NO and not descriptive_until
    if label is not None and labelled:
        # "Location: Cloutierville": a slot, then its value; the slot's name states no polarity ("Waived: $25")
        descriptive_until = label.end(1)
    question = vocabulary_of(inputs.question or "")
    names = question_names(inputs.question)
    sources = {q.source_id for q in claim.quotes}
    ids, titles, title_months = _source_words(inputs, sources)
    titled = _title_named(found, titles) if titles else set()
    calcs: bool | None = None
    direction: bool | None = None
    missing: list[int] = []
    for i, w in enumerate(found):
        folded = fold(w.text)
        if evidence.says(w.text):
            continue
        if i in titled or ids.covers(w.text):
            continue
        if folded in title_months and _dates_document(found, i, ids, titled):
            continue
        if folded in names and _in_sources(folded, inputs, sources):
            continue  # the question's name for a subject the cited documents write
        if _ACRONYM.fullmatch(w.text) and folded.removesuffix("s").replace("&", "") in evidence.initials:
            continue
        if evidence.first_person and in_category(w.text, ORGANIZATION_WORDS):
            continue  # "the company's assets" for a quote's "our assets" (never a party the document names)
        if w.start < descriptive_until and (
            in_category(w.text, ATTRIBUTE_WORDS) or (question.covers(w.text) and not (labelled and _strict(w.text)))
        ):
            continue
        if any(in_category(w.text, frozenset({scale})) for scale in evidence.scales):
            continue
        if (folded in _ORDINALS or folded in NUMBER_WORDS) and _counts_documents(found, i):
            continue  # "a second source says", "the two sources give": counting documents, not asserting a figure
        if _measured(w.text, evidence.vocab) or (evidence.negated and in_category(w.text, PRIVATIVES)):
            continue
        if (axes := word_axes(folded)) and axes <= evidence.axes:
            continue  # "aren't allowed" for "prohibited", "starting" for "begins": the meaning rule holds the pole
        if folded in NUMBER_WORDS:
            if Decimal(NUMBER_WORDS[folded]) in evidence.figures or calc_figure(claim, inputs, NUMBER_WORDS[folded]):
                continue
        elif in_category(w.text, PERIOD_WORDS):
            if converts_period(claim, inputs):
                continue
        elif folded in MOST_WORDS or folded in LEAST_WORDS:
            if superlative_supported(claim, folded in MOST_WORDS):
                continue
        elif folded in DIRECTION_WORDS:
            if direction is None:
                direction = direction_supported(claim, inputs)
            if direction:
                continue
        elif in_category(w.text, DERIVATION_WORDS):
            if calcs is None:
                calcs = bool(verified_calcs(claim, inputs))
            if calcs:
                continue
        if claim.field == "gap" and _cited_vocabulary(inputs).covers(w.text):
            continue  # a gap names what the quotes do not say, in the words of the documents the model read
        missing.append(i)
    if missing:
        missing = _named_elsewhere(claim, inputs, found, missing, sources)
    if len(missing) == 1 and not _states_pole(claim.text) and _rewording(found, missing[0], inputs, question):
        return Unsupported(())
    unsupported = tuple(dict.fromkeys(fold(found[i].text) for i in missing))
    if not unsupported or inputs.paraphrase is None or len(unsupported) > _PARAPHRASE_WORDS:
        return Unsupported(unsupported)  # several words missing: no rewording, another statement
    closeness: list[tuple[str, tuple[str, ...], float]] = []
    said = vocabulary_of(claim.text)
    for i in missing:
        w = found[i]
        if w.name or _strict(w.text):
            continue
        # a rewording stands for a word of the quote the claim did not use: only those are candidates
        unused = tuple(q for q in evidence.plain if not said.covers(q))
        against, least = unused, PARAPHRASE_MIN
        if w.start < descriptive_until:
            against = (*against, *(fold(q.text) for q in words(inputs.question or "")))
            least = DESCRIPTIVE_PARAPHRASE_MIN
        closeness.append((fold(w.text), against[:_PARAPHRASE_CANDIDATES], least))
    return Unsupported(unsupported, tuple(closeness))


def _states_pole(text: str) -> bool:
    """`text` negates, or states a modality or direction (a pole a "not" or a modal word could turn around)."""
    lowered = fold(text)
    return bool(text_axes(text)) or "n't" in lowered or any(fold(w) in NEGATORS for w in WORD.findall(text))


def _rewording(found: Sequence[Word], i: int, inputs: GateInputs, question: Vocabulary) -> bool:
    """One plain word of a claim whose every other content word its quotes support (at least `_REWORDING_CONTEXT`
    of them) is the writer's own wording ("the charge applies", "the town's population"), not a new assertion, when
    it could not have come from anywhere a hostile draft takes words from: it is no name, no polarity, modality,
    direction, number or month word (those are held strictly) and the claim states no polarity, modality or
    direction at all (the word could be what a "not" turns around), the question does not use it (an echoed premise),
    and no cited document writes it (a word moved from another passage, or carried in by an instruction there)."""
    w = found[i]
    if len(found) - 1 < _REWORDING_CONTEXT or w.name or _strict(w.text) or word_axes(fold(w.text)):
        return False
    if fold(w.text) in NUMBER_WORDS or question.covers(w.text):
        return False
    return not _cited_vocabulary(inputs).covers(w.text)


_cited: OrderedDict[int, tuple[GateInputs, Vocabulary]] = OrderedDict()


def _cited_vocabulary(inputs: GateInputs) -> Vocabulary:
    """Every word the model read: every cited source (titles, and every line, instructional ones included) and every
    resolved bundle, once per draft."""
    hit = _cited.get(id(inputs))
    if hit is not None and hit[0] is inputs:
        return hit[1]
    vocab = Vocabulary()
    cited = {line.source_id for line in inputs.cited_lines}
    for source in inputs.sources:
        if source.source_id in cited:
            vocab.add(source.title)
    for line in inputs.cited_lines:
        vocab.add(line.text)
    for bundle in inputs.bundles:  # what the model read of sources it did not cite
        vocab.add(bundle.text)
    _cited[id(inputs)] = (inputs, vocab)  # the inputs are held, so their id cannot be reused while cached
    while len(_cited) > _CACHED_TEXTS:
        _cited.popitem(last=False)
    return vocab


def _named_elsewhere(
    claim: Claim, inputs: GateInputs, found: Sequence[Word], missing: list[int], sources: set[str]
) -> list[int]:
    """`missing` less the parts of a multi-word name whose other part the quotes give and which the cited source
    writes together with that part ("Blackshear M. Bryan" for a quote that says "Bryan", in a source that names
    "Blackshear M. Bryan")."""
    runs = [r for r in _name_runs(claim.text, found) if set(r) & set(missing) and set(r) - set(missing)]
    if not runs:
        return missing
    text = _source_text(inputs, sources)
    named: set[int] = set()
    for run in runs:
        for a in range(len(run)):
            for b in range(a + 1, len(run)):
                window = run[a : b + 1]
                if not set(window) - set(missing):
                    continue  # no part of this window is quoted
                first, last = found[window[0]], found[window[-1]]
                phrase = fold(" ".join(claim.text[first.start : last.start + len(last.text)].split()))
                if re.search(rf"(?<![^\W\d_]){re.escape(phrase)}(?![^\W\d_])", text):
                    named.update(window)
    return [i for i in missing if i not in named]


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
