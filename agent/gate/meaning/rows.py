"""Row rivals: a claim's figure taken from one row of a table must not be what another row of the same table,
which the claim names better, gives another figure for (value binding's table side, `binding.py`)."""

from __future__ import annotations

from quotebound.agent.gate.meaning.model import QuoteSentence, Value
from quotebound.agent.gate.meaning.roots import overlap
from quotebound.agent.gate.meaning.units import gives_other
from quotebound.agent.gate.tokens import Key


def better_row(
    qs: QuoteSentence,
    holder: QuoteSentence,
    weights: dict[str, float],
    context: dict[QuoteSentence, frozenset[str]],
    v: Value,
    said: frozenset[Key],
) -> bool:
    """Another row of the same table whose label the claim names as fully, with fewer words left over ("Free cash
    flow" against "Free cash flow (pre-spectrum)" for a claim about free cash flow), giving another figure."""
    if not holder.sentence.row or qs is holder or v.key in qs.sentence.keys or qs.source_id != holder.source_id:
        return False
    mine, theirs = overlap(weights, holder.sentence.stems), overlap(weights, qs.sentence.stems)
    left_mine = len(holder.sentence.stems - weights.keys())
    left_theirs = len(qs.sentence.stems - weights.keys())
    return theirs > 0 and theirs >= mine and left_theirs < left_mine and gives_other(qs.sentence, v, said)


def asked_row(
    qs: QuoteSentence,
    holder: QuoteSentence,
    weighed: dict[str, float],
    asked: frozenset[str],
    v: Value,
    said: frozenset[Key],
) -> bool:
    """Another row of the holder's table labelled with a name the claim gives its figure and the question asks about,
    which the holder's row does not have, giving another figure: the claim moved the figure from the row it is in to
    the row it names ("Germany sales were 90,795" where 90,795 is Mexico's row and Germany's row gives 78,062). The
    question's names are set aside when weighing quotes (every quote of an answer is about them), but a table's
    rows are labelled by them."""
    if not holder.sentence.row or qs is holder or v.key in qs.sentence.keys or qs.source_id != holder.source_id:
        return False
    named = weighed.keys() & asked
    return bool(named & qs.sentence.stems) and not named & holder.sentence.stems and gives_other(qs.sentence, v, said)
