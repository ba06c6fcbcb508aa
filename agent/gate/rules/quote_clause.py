"""Quote clause: a quote never starts or ends inside a clause in a way that leaves out the clause's negator or
qualifier. "pet may be kept for breeding" is verbatim in "No pet may be kept for breeding", and says the opposite.

The text at the quote's locator (`Verification.context`, read by `gather.py`), read on across the hard-wrapped
lines of its paragraph before and after the locator (`Verification.before` / `.after`), is split into clauses
(`clauses.py`: at . ; : ! ?, table cells and new blocks; a hard-wrapped line continues its clause). For the
clauses the quote starts and ends in, the words the quote leaves out (a word it cuts in two counts as left out)
must hold no polarity word: a negator ("no", "not", "never", "nor", "none", "without", "cannot", "-n't" ...) or a
limiting qualifier ("only", "except", "unless", "prohibited" ...). A quote that covers its whole clause is always
fine, and so is a quote of which some occurrence at its locator leaves nothing out.
"""

from __future__ import annotations

import re

from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.clauses import cuts
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.quotes import verified_quotes
from quotebound.agent.gate.source_readings import source_reading

# Words that flip or limit what their clause asserts. Closed-class words: a general list, not a list of cases.
POLARITY_WORDS: frozenset[str] = frozenset(
    {
        # negators
        "no", "not", "never", "nor", "neither", "none", "nothing", "nobody", "nowhere", "non", "cannot", "without",
        # limiting qualifiers and exceptions
        "only", "solely", "exclusively", "except", "excepting", "excluding", "unless", "until", "barring",
        # prohibition
        "prohibit", "prohibits", "prohibited", "prohibiting", "forbid", "forbids", "forbidden", "disallowed",
        "barred", "banned",
    }
)  # fmt: skip
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def is_polarity(word: str) -> bool:
    w = word.lower().replace("’", "'")
    return w in POLARITY_WORDS or w.endswith("n't")


# Prefixes that negate the word they form ("unsuccessful", "non-binding", "inactive", "impossible", "irregular",
# "illegal", "disallowed"): a quote that starts inside such a word, just past its prefix, drops the negation.
_NEGATING_PREFIXES: frozenset[str] = frozenset({"un", "non", "in", "im", "ir", "il", "dis"})


def _prefix_cut(text: str, start: int) -> tuple[str, ...]:
    """The word the quote starting at `start` of `text` cuts just past a negating prefix ("un|successful
    candidate"), or nothing."""
    if not 0 < start < len(text) or not (text[start - 1].isalpha() and text[start].isalpha()):
        return ()
    m = next((w for w in _WORD.finditer(text, max(0, start - 40)) if w.start() < start < w.end()), None)
    if m is None:
        return ()
    return (m.group(),) if text[m.start() : start].lower() in _NEGATING_PREFIXES else ()


@source_reading  # only asked of verified quotes at their locators: source text, read once per source version
def dropped_qualifiers(quote: str, context: str, before: str = "", after: str = "") -> tuple[tuple[str, ...], str]:
    """(the polarity words `quote` leaves out of the clauses it is cut from in `context`, read on across the
    paragraph's lines `before` and `after` it, and those clauses); nothing when some occurrence of the quote leaves
    none out (or the quote is not there: the citations rule reports that)."""
    first: tuple[tuple[str, ...], str] | None = None
    for cut in cuts(quote, context, before, after):
        dropped = tuple(w for w in cut.left_out(_WORD) if is_polarity(w)) + _prefix_cut(cut.text, cut.start)
        if not dropped:
            return (), ""
        first = first or (dropped, cut.clauses.strip(" |"))
    return first or ((), "")


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for cited in verified_quotes(inputs):
        check_deadline()
        v = cited.verification
        dropped, clause = dropped_qualifiers(cited.quote, v.context, v.before, v.after)
        if not dropped:
            continue
        words = ", ".join(dict.fromkeys(repr(w) for w in dropped))
        shown = clause if len(clause) <= 300 else clause[:297] + "..."
        findings.append(
            Finding(
                code=FindingCode.QUOTE_DROPS_QUALIFIER,
                message=f"{cited.where}: the quote is cut from a clause of {cited.source_id} {cited.locator} and "
                f"leaves out {words}, which changes what the clause says; quote the whole clause: {shown!r}, and "
                "state the claim as it says",
                fact_index=cited.fact_index,
            )
        )
    return findings
