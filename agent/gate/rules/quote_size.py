"""Quote size: a quote must be big enough to carry a claim. Whitespace, a punctuation mark, a letter or a lone
word ("rentals", "e", " ") occurs almost anywhere, so finding it verbatim proves nothing about the claim beside it.

A token is a word of two or more letters, a figure (a run with a digit: "2018", "325.00", "4B") or a currency sign
with its unit ("€m"). A quote of two or more tokens carries a claim (a phrase, a clause, a table row such as
"| 2019 | 2018 |"). A quote of one token carries one only when that token is a figure standing as a whole clause at
the locator (a table cell, "$1.00" in "The reserve: $1.00; $2.00."): a figure cut from a sentence ("2018" out of
"... was discontinued in 2018") says nothing of what it measures. A quote that is the whole text at its locator is
a real span however short: a whole table row ("| | % | % |", a units row that says what the figures below it
are), or a whole line that is its own clause (a heading, a one-word answer line); a line hard-wrapped out of a
longer sentence is not. Otherwise no tokens, or one word, never carries a claim; whitespace never does.
"""

from __future__ import annotations

import re

from quotebound.agent.gate.bounds import check_deadline
from quotebound.agent.gate.clauses import cuts
from quotebound.agent.gate.findings import Finding, FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.quotes import verified_quotes
from quotebound.agent.gate.source_readings import source_reading

MIN_TOKENS = 2
# a run of letters and digits, joined inside by . , ' ’ - ("325.00", "1,180", "co-owners", "don't"), with an
# optional currency sign before it
_ROW = re.compile(r"\s*\|")
_TOKEN = re.compile(r"[$€£¥]?[^\W_]+(?:[.,'’\-][^\W_]+)*")


def carrying_tokens(text: str) -> list[str]:
    """The tokens of `text` that can carry a claim: words of two or more letters, figures, currency units."""
    return [
        t
        for t in _TOKEN.findall(text)
        if any(c.isdigit() for c in t) or t[0] in "$€£¥" or sum(c.isalpha() for c in t) >= 2
    ]


@source_reading  # only asked of verified quotes at their locators: source text, read once per source version
def too_small(quote: str, context: str, before: str = "", after: str = "") -> bool:
    """Whether `quote`, found in `context` (the text at its locator, whose paragraph goes on in the hard-wrapped
    lines `before` and `after` it), is too small to carry a claim."""
    tokens = carrying_tokens(quote)
    if len(tokens) >= MIN_TOKENS:
        return False
    needle = " ".join(quote.split())
    if needle and needle == " ".join(context.split()) and _whole_line(needle, tokens, context, before, after):
        return False
    if not tokens or not any(c.isdigit() for c in tokens[0]):
        return True
    # one figure: enough only where it is its clause's one token (some occurrence leaves nothing of it out)
    return not any(not cut.left_out(_TOKEN) for cut in cuts(quote, context, before, after))


def _whole_line(quote: str, tokens: list[str], context: str, before: str, after: str) -> bool:
    """`quote`, the whole text at its locator, is a whole table row with something in its cells, or a line that is
    its own clause (not a piece of a sentence hard-wrapped over several lines)."""
    if all(_ROW.match(line) for line in context.split("\n") if line.strip()):
        return bool(quote.replace("|", "").strip())
    return bool(tokens) and any(not cut.left_out(_TOKEN) for cut in cuts(quote, context, before, after))


def check(inputs: GateInputs) -> list[Finding]:
    findings: list[Finding] = []
    for cited in verified_quotes(inputs):
        check_deadline()
        v = cited.verification
        if not too_small(cited.quote, v.context, v.before, v.after):
            continue
        what = "is only whitespace" if not cited.quote.strip() else f"{cited.quote!r} is too small to carry a claim"
        findings.append(
            Finding(
                code=FindingCode.QUOTE_TOO_SMALL,
                message=f"{cited.where}: the quote {what} (a word or a lone figure occurs almost anywhere); quote "
                f"the whole clause or sentence of {cited.source_id} {cited.locator} that states the claim",
                fact_index=cited.fact_index,
            )
        )
    return findings
