"""Names in a claim that its quotes need not write: the question's name for its subject, a cited document's own
name (its id, its title, the month of its title), and the rest of a multi-word name whose other part is quoted.

- The question names its subject ("What is the median age in Fort Kent?", 'When was "Girls' Generation"
  released?'): a run of capitalized words, a word in capitals or mixed case ("GPLv3"), a quoted title. A claim may
  name the subject so even where its documents call it "the town" or start mid-sentence; a polar question's subject
  is the name right after its auxiliary ("Is the Suzuki V-Strom 1000 made in Italy?": "Suzuki V-Strom", not
  "Italy", which is the value asked about). Such a name never stands where a quote puts another name ("made in
  Italy" against a quoted "made in Japan"). Any other name of the question supports a claim only where the cited
  documents write it. A month or a weekday alone is a date, a value: never a name ("Freaky Friday" is one).
- A cited source is named by the words of its id ("the Declaration" for declaration.md), a run of two or more words
  of its title ("the March Board meeting"), or its title's month beside a reporting word or its name ("noted in
  March"): a document's date is metadata, never the date of what the claim is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.memo import per_draft
from quotebound.agent.gate.quoted import Word
from quotebound.agent.gate.vocabulary import (
    EVIDENCE_WORDS,
    WORD,
    Vocabulary,
    fold,
    in_category,
    is_content,
    vocabulary_of,
)

_TITLE_RUN: Final = 2
_DATING_WINDOW: Final = 1  # content words between a title's month and the reporting word or name it dates
_CALENDAR: Final = frozenset(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday".split()
)
_MONTHS: Final = frozenset(
    "january february march april may june july august september october november december".split()
)
# A polar question opens with an auxiliary; its subject follows it (after a determiner).
_POLAR: Final = re.compile(
    r"^\W*(?:is|are|was|were|am|can|could|may|might|must|shall|should|will|would|do|does|did|has|have|had)\s+"
    r"(?:(?:the|a|an|this|that|these|those)\s+)?",
    re.I,
)
_QUOTED_TITLE: Final = re.compile(r"[\"“]([^\"“”]{2,80})[\"”]")
_SENTENCE_START: Final = re.compile(r"(?:^|[.:;!?\"“(]\s*)$")
# What may sit between two words of one name: spaces, a hyphen, initials ("Blackshear M. Bryan", "V-Strom").
_JOINS_NAME: Final = re.compile(r"(?:\s+|\s*-\s*|\s+(?:[A-Z]\.?\s*)+|\s*[A-Z]-)")


@dataclass(frozen=True)
class QuestionNames:
    """The question's names: the words of the names of its subject, and every name-like word it writes."""

    subject: frozenset[str]
    every: frozenset[str]


def _runs(text: str) -> list[list[tuple[str, int, bool]]]:
    """Runs of capitalized content words of `text` joined only by spaces, hyphens or initials, each word with its
    offset and whether it is marked as a name where it stands (not at a sentence's start, or in mixed case)."""
    runs: list[list[tuple[str, int, bool]]] = []
    last_end = -1
    for m in WORD.finditer(text):
        w = m.group()
        if not is_content(w) or not (w[0].isupper() or any(c.isupper() for c in w[1:])):
            last_end = -1 if is_content(w) or len(w) > 1 else last_end
            continue
        marked = any(c.isupper() for c in w[1:]) or not _SENTENCE_START.search(text[max(0, m.start() - 3) : m.start()])
        if runs and last_end >= 0 and _JOINS_NAME.fullmatch(text[last_end : m.start()]):
            runs[-1].append((w, m.start(), marked))
        else:
            runs.append([(w, m.start(), marked)])
        last_end = m.end()
    return runs


@lru_cache(maxsize=256)
def question_names(question: str | None) -> QuestionNames:
    """The names the question uses (see the module docstring)."""
    if not question:
        return QuestionNames(frozenset(), frozenset())
    named: list[tuple[list[str], int]] = []  # (folded words, offset) of each name
    for run in _runs(question):
        if len(run) == 1 and not run[0][2]:
            continue  # a capitalized first word alone: the sentence's start, not a name
        folded = [fold(w) for w, _, _ in run]
        if all(w in _CALENDAR for w in folded):
            continue  # a date: a value, not a name
        named.append((folded, run[0][1]))
    for m in _QUOTED_TITLE.finditer(question):
        folded = [fold(w) for w in WORD.findall(m.group(1)) if is_content(w)]
        if folded:
            named.append((folded, m.start(1)))
    every = frozenset(w for folded, _ in named for w in folded)
    polar = _POLAR.match(question)
    if polar is None:
        return QuestionNames(every, every)  # a wh-question: its names are its given context
    subject = next((folded for folded, at in named if at == polar.end()), [])
    return QuestionNames(frozenset(subject), every)


def replaces_reference(claim: str, found: Sequence[Word], run: Sequence[int], quotes: Iterable[str]) -> bool:
    """The name at `found[run]` stands in the claim where a quote refers to its subject without naming it: between
    the same words as a pronoun or a short definite description there ("The median age in Fort Kent was" for "The
    median age in the town was"), or where a quote starts before the claim's next word ("The Freaky Friday musical
    began" for "musical began"). Never where a quote puts another name ("made in Italy" for "made in Japan"), nor
    as a phrase the quotes do not have ("Capital for S&P is requested" for "Capital is requested")."""
    first, last = found[run[0]], found[run[-1]]
    before = [fold(w) for w in WORD.findall(claim[: first.start])[-1:]]
    left = before[0] if before and before[0] not in _ARTICLES else None
    after = [fold(w) for w in WORD.findall(claim[last.start + len(last.text) :])[:1]]
    right = after[0] if after else None
    if left is None and right is None:
        return False
    replaced = False
    for quote in quotes:
        tokens = [(fold(m.group()), _name_at(quote, m)) for m in WORD.finditer(quote)]
        for p in range(len(tokens) + 1):
            if right is not None and (p == len(tokens) or tokens[p][0] != right):
                continue
            for segment in _references(tokens, p):
                start = p - segment
                if any(name for _, name in tokens[start:p]):
                    return False  # the quote names something else there
                if (left is None and start == 0) or (left is not None and start > 0 and tokens[start - 1][0] == left):
                    replaced = replaced or segment > 0 or right is not None
    return replaced


_ARTICLES: Final = frozenset({"the", "a", "an"})
_PRONOUNS: Final = frozenset("it its he his him she her they their them this these".split())
_DEFINITE: Final = frozenset("the this that these those its his her their".split())
_DESCRIPTION: Final = 3  # words of a definite description a name may stand for ("the town", "the smock mill")


def _references(tokens: Sequence[tuple[str, bool]], p: int) -> list[int]:
    """The lengths of the references to a subject that may end just before `tokens[p]`: none at all, a pronoun, or
    a definite description of up to `_DESCRIPTION` words."""
    found = [0]
    if p > 0 and tokens[p - 1][0] in _PRONOUNS:
        found.append(1)
    for n in range(2, _DESCRIPTION + 1):
        if p - n >= 0 and tokens[p - n][0] in _DEFINITE:
            found.append(n)
    return found


def _name_at(text: str, m: re.Match[str]) -> bool:
    """The word `m` of `text` is a name: capitalized where no sentence starts (a month is a date, not a name)."""
    w = m.group()
    if not w[0].isupper() or not is_content(w) or fold(w) in _CALENDAR:
        return False
    return not _SENTENCE_START.search(text[max(0, m.start() - 3) : m.start()])


def name_runs(text: str, found: Sequence[Word]) -> list[list[int]]:
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


def question_subject(claim: str, found: Sequence[Word], i: int, inputs: GateInputs, quotes: Iterable[str]) -> bool:
    """`found[i]` is a word of a name the question gives its subject, and the claim's name it is part of does not
    stand where a quote names something else."""
    if _bare(found[i].text) not in question_names(inputs.question).subject:
        return False
    run = [i]  # the claim's whole name around it ("Justice Roland Ritchie")
    while run[0] > 0 and found[run[0] - 1].text[0].isupper() and _joined(claim, found, run[0] - 1):
        run.insert(0, run[0] - 1)
    while run[-1] + 1 < len(found) and found[run[-1] + 1].text[0].isupper() and _joined(claim, found, run[-1]):
        run.append(run[-1] + 1)
    quotes = tuple(quotes)
    return replaces_reference(claim, found, run, quotes) or _completes_quoted_name(found, run, i, inputs, quotes)


def _completes_quoted_name(
    found: Sequence[Word], run: Sequence[int], i: int, inputs: GateInputs, quotes: Sequence[str]
) -> bool:
    """The claim's name `found[run]` is a name the quotes write for the question's subject, with `found[i]` (a word
    of the question's name for it) added: "Justice Charles J. Dunn" for a quoted "Charles J. Dunn" where the question
    asks about "Justice Dunn". Another word of the run must be both the question's and the quotes' (the same
    subject), and every word of the run one of the two: a name of neither is another subject."""
    subject = question_names(inputs.question).subject
    written = [j for j in run if j != i and any(_writes_name(q, found[j].text) for q in quotes)]
    if not any(_bare(found[j].text) in subject for j in written):
        return False
    return all(j in written or _bare(found[j].text) in subject for j in run)


def _writes_name(quote: str, word: str) -> bool:
    """`quote` writes `word`, capitalized as the claim writes it (a quote may open with the name)."""
    bare = word.removesuffix("'s").removesuffix("’s")
    return bare[:1].isupper() and re.search(rf"(?<![\w'’-]){re.escape(bare)}(?![\w'’-])", quote) is not None


def _bare(word: str) -> str:
    return fold(word).removesuffix("'s")


def _joined(claim: str, found: Sequence[Word], i: int) -> bool:
    """`found[i]` and `found[i + 1]` are one name (nothing but spaces, hyphens, initials or "of" between)."""
    between = claim[found[i].start + len(found[i].text) : found[i + 1].start]
    return bool(_JOINS_NAME.fullmatch(between)) or fold(between.strip()) in ("of", "'s", "’s")


# --- the cited documents' own names -----------------------------------------------------------------------------


def source_words(
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
    months = frozenset(m for _, title in titles for m in (fold(w) for w in WORD.findall(title)) if m in _MONTHS)
    return ids, tuple(vocabulary_of(title) for _, title in titles), months


def _id_word(part: str) -> bool:
    """A part of a source id that is a word: letters only, three or more, and not a run of hex digits from a hash
    or uuid ("bfb", "face")."""
    return part.isalpha() and len(part) >= 3 and not set(part.lower()) <= set("abcdef")


def title_named(found: Sequence[Word], titles: Sequence[Vocabulary]) -> set[int]:
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


def dates_document(found: Sequence[Word], i: int, ids: Vocabulary, titled: set[int]) -> bool:
    """The month `found[i]` dates the document that says something (the month of its title, next to a reporting
    word or the document's name: "noted in March", "the March minutes"), rather than the subject of the claim."""
    near = range(max(0, i - _DATING_WINDOW), min(len(found), i + _DATING_WINDOW + 1))
    return any(
        j != i and (j in titled or ids.covers(found[j].text) or in_category(found[j].text, EVIDENCE_WORDS))
        for j in near
    )


@per_draft
def source_text(inputs: GateInputs, wanted: frozenset[str]) -> str:
    """The titles and lines of the sources `wanted`, casefolded, whitespace collapsed (once per draft)."""
    titles = [s.title for s in inputs.sources if s.source_id in wanted]
    lines = [line.text for line in inputs.cited_lines if line.source_id in wanted]
    return fold(" ".join(" ".join([*titles, *lines]).split()))


@per_draft
def written_in(inputs: GateInputs, phrase: str, sources: frozenset[str]) -> bool:
    """`phrase` (folded) is written in one of `sources` (a title or a line), as words of their own (remembered per
    draft: a claim's names recur)."""
    text = source_text(inputs, sources)
    if phrase not in text:
        return False  # a plain search first: the pattern's look-behind makes every miss a slow scan
    return re.search(rf"(?<![^\W\d_]){re.escape(phrase)}(?![^\W\d_])", text) is not None


def named_elsewhere(
    claim: str,
    inputs: GateInputs,
    found: Sequence[Word],
    missing: list[int],
    sources: frozenset[str],
    unwritten: frozenset[int] = frozenset(),
) -> list[int]:
    """`missing` less the parts of a multi-word name whose other part the quotes give and which the cited source
    writes together with that part ("Blackshear M. Bryan" for a quote that says "Bryan", in a source that names
    "Blackshear M. Bryan"). A word that is only free (`unwritten`: a word about evidence such as "column", which no
    quote writes) gives no part of a name: "California Column" from another paragraph is carried in."""
    unsaid = set(missing)
    runs = [r for r in name_runs(claim, found) if unsaid.intersection(r) and not unsaid.issuperset(r)]
    named: set[int] = set()
    for run in runs:
        for a in range(len(run)):
            quoted = run[a] not in unsaid and run[a] not in unwritten  # a word of the window is the quotes' own
            for b in range(a + 1, len(run)):
                quoted = quoted or (run[b] not in unsaid and run[b] not in unwritten)
                first, last = found[run[a]], found[run[b]]
                phrase = fold(" ".join(claim[first.start : last.start + len(last.text)].split()))
                if not written_in(inputs, phrase, sources):
                    break  # a longer window holds this phrase, followed by a space: the source cannot write it
                if quoted:
                    named.update(run[a : b + 1])
    return [i for i in missing if i not in named]


__all__ = [
    "QuestionNames",
    "dates_document",
    "name_runs",
    "named_elsewhere",
    "question_names",
    "question_subject",
    "replaces_reference",
    "source_text",
    "source_words",
    "title_named",
    "written_in",
]
