"""A question that names a document is answered from that document: "According to the Bylaws, ...", "In <source
id>, ...", "According to the Jacob Zook House article, ...". The sources a title or an id names come first
(`question_documents.named_sources`); when none is named so, a quoted source is that document only if it writes the
names the question gives it (its title, its id or its lines as the caller reads them). Only readable sources and the
question's own words are named in a message, so it names nothing the caller cannot see. Used by the answerhood rule
(`rules/answerhood.py`).

Many kinds of document are also things a document talks about (a plan, a contract, a policy, a budget): "How much
was the reduction in force from the restructuring plan?" asks about a plan of the company, not a document titled
so. A phrase that only ends the question after a preposition, and that a quote of the answer writes word for word
("This world-wide restructuring plan included ..."), names what the quote is about; it names no document.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal
from typing import Final

from quotebound.agent.gate.answer_text import Quoted, answer_figures, keys, short
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.question import Question, document_titles, named_sources, read_question
from quotebound.agent.gate.question_documents import phrase_names
from quotebound.agent.gate.tokens import Key, extract_tokens
from quotebound.agent.gate.vocabulary import STOPWORDS, WORD, fold, stem
from quotebound.tools.calc import recompute

_BEFORE_TRAILING: Final = re.compile(r"\b(?:in|from|under|per)\s+$", re.I)  # "... from the restructuring plan?"


def _source_words(inputs: GateInputs, source_id: str) -> frozenset[str]:
    """The word stems a cited source writes: its title, its id and its lines as the caller reads them."""
    title = next((s.title for s in inputs.sources if s.source_id == source_id), "")
    lines = " ".join(line.text for line in inputs.cited_lines if line.source_id == source_id)
    return frozenset(stem(w) for w in WORD.findall(f"{title} {source_id} {lines}"))


def _topical(question: str, phrase: str, quotes: Sequence[Quoted]) -> bool:
    """`phrase` only ends the question after a preposition, and a quote writes its words (two or more, a modifier
    and the kind of thing) in a row: it names the quote's topic, not a document (module docstring)."""
    head = question.rstrip(" ?.")
    if not head.endswith(phrase.strip()) or not _BEFORE_TRAILING.search(head[: len(head) - len(phrase.strip())]):
        return False
    wanted = [stem(w) for w in WORD.findall(phrase) if fold(w) not in STOPWORDS and fold(w) != "the"]
    if len(wanted) < 2:
        return False
    for qd in quotes:
        for sentence in qd.sentences:
            said = [stem(w) for w in WORD.findall(sentence)]
            if any(said[i : i + len(wanted)] == wanted for i in range(len(said) - len(wanted) + 1)):
                return True
    return False


def _own_quotes(inputs: GateInputs, quotes: Sequence[Quoted]) -> tuple[str, list[Quoted]] | None:
    """(how the question names its document, the quotes from that document), or None when it names none: the
    sources a title or id names, else the quoted sources writing every name a document phrase gives."""
    assert inputs.question is not None
    phrases = read_question(inputs.question).document_phrases
    if phrases and all(_topical(inputs.question, p, quotes) for p in phrases):
        return None
    named = named_sources(inputs.question, inputs.sources)
    if named:
        if named >= {s.source_id for s in inputs.sources}:
            return None
        titles = ", ".join(repr(short(t)) for t in document_titles(sorted(named), inputs.sources))
        return titles, [qd for qd in quotes if qd.source_id in named]
    for phrase in read_question(inputs.question).document_phrases:
        wanted = phrase_names(phrase)
        if wanted:
            cited = {qd.source_id for qd in quotes}
            showing = {sid for sid in cited if wanted <= _source_words(inputs, sid)}
            return repr(phrase), [qd for qd in quotes if qd.source_id in showing]
    return None


def document_problem(
    inputs: GateInputs, q: Question, texts: Sequence[tuple[str, str]], quotes: Sequence[Quoted]
) -> str | None:
    """The question names readable documents, and the answer quotes none of them, or takes its figures from others.
    Only readable sources (and the question's own words) are named, so the message names nothing the caller cannot
    see."""
    found = _own_quotes(inputs, quotes)
    if found is None:
        return None
    titles, own = found
    if not own:
        return (
            f"the question asks about {titles}, but the answer quotes none of its passages; quote the passage of "
            "that document that answers, or report that it does not say"
        )
    stated = frozenset(k for qd in own for s in qd.sentences for k in keys(s))
    stated |= _computed_from(inputs, stated)
    for _, text in texts:
        given = answer_figures(q, text)
        if given and not any(f.key in stated for f in given):
            return (
                f"the question asks about {titles}, but the answer's figures come from other documents; quote the "
                "passage of that document that answers, or report that it does not say"
            )
    return None


def _computed_from(inputs: GateInputs, stated: frozenset[Key]) -> frozenset[Key]:
    """The results of the draft's calcs whose operands are all figures the document states: a sum or a change of
    the document's own figures comes from that document ("the combined budget" of two budget lines)."""
    out: set[Key] = set()
    for fact in inputs.draft.evidence.facts:
        if fact.calc is None:
            continue
        operands = [t.key for t in extract_tokens(fact.calc.expr)]
        got = recompute(fact.calc.expr) if operands and all(k in stated for k in operands) else None
        if got is not None:
            out.add(("num", Decimal(got)))
    return frozenset(out)


__all__ = ["document_problem"]
