"""General English categories the question reader (`question.py`) and the answerhood rule read questions and
answers with: question words, auxiliaries, time units, months and weekdays, number words, the words that answer
each kind of question by themselves (polarity, frequency, nil, fractions, places), kinds of document, and the
arithmetic relations a question may ask for. Each category is written once, as complete as its kind allows; none
holds a word because one question used it.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from typing import Final, Literal

from quotebound.agent.gate.vocabulary import fold

# Auxiliary and modal verbs: a question that starts with one asks yes or no.
AUXILIARIES: Final = frozenset(
    """is are was were am be can could may might must shall should will would do does did has have had isn't aren't
    wasn't weren't can't cannot couldn't mustn't shouldn't won't wouldn't don't doesn't didn't hasn't haven't
    hadn't""".split()
)
COPULAS: Final = frozenset("is are was were be been being am 's".split())
# Units of time, in every spelling a rate or a span uses them.
TIME_UNITS: Final = frozenset(
    """second seconds minute minutes hour hours hourly day days daily week weeks weekly fortnight fortnights month
    months monthly quarter quarters quarterly year years yearly annual annually decade decades century centuries
    semester semesters term terms night nights weekend weekends""".split()
)
MONTHS: Final = frozenset(
    "january february march april may june july august september october november december".split()
)
WEEKDAYS: Final = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
# Words that place an event in time, relative to another or on a condition ("once the cap is reached", "next
# spring").
TEMPORAL: Final = frozenset(
    """after before until till once when whenever while during upon since within prior following preceding
    immediately now today tomorrow yesterday currently soon later earlier recently previously next last if unless
    where provided beginning start starting end ending spring summer autumn fall winter""".split()
)
# Words that answer "how often" without a figure.
FREQUENCY: Final = frozenset(
    """every each once twice thrice per never always whenever regularly periodically occasionally continuously
    annually yearly monthly weekly daily hourly quarterly biannually biennially""".split()
)
# Words that say a quantity is nil or not worth stating: an answer to "how much" that gives no figure.
NIL: Final = frozenset("no none nil zero nothing not immaterial negligible".split())
# Fractions and shares said in words.
FRACTIONS: Final = frozenset(
    """half halves third thirds quarter quarters fifth fifths tenth tenths majority minority all none unanimous
    whole""".split()
)
# Words that answer a yes/no question by themselves: polarity, exception and modality.
POLARITY: Final = frozenset(
    """yes no not n't never none nothing nobody neither nor only except unless cannot without can could may might
    must shall should will would need needs required require requires permitted permit permits allowed allow
    allows prohibited prohibit prohibits forbidden banned mandatory optional entitled eligible true false
    correct incorrect""".split()
)
# Prepositions that locate something.
LOCATIVE: Final = frozenset(
    """in at on inside outside under beneath below above over behind beside near next between within into onto
    across along around opposite adjacent throughout""".split()
)
# Number words (the values a question or an answer may spell out).
NUMBER_UNITS: Final = {
    w: n
    for n, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
        seventeen eighteen nineteen""".split()
    )
}
NUMBER_TENS: Final = {
    w: 10 * n for n, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split())
}
# Nouns that name a kind of document: "the BSD license", "the 2025 minutes", "the Declaration".
DOCUMENT_TYPES: Final = frozenset(
    """document documents file report reports minutes newsletter bulletin memo memorandum letter notice declaration
    bylaws by-laws charter constitution covenants statute act code regulation regulations ordinance policy
    handbook manual guide faq readme license licence agreement contract lease deed schedule budget plan study
    statement statements filing prospectus article paper book appendix exhibit form specification standard
    proposal summary transcript announcement release sheet brochure flyer""".split()
)
# Verbs by which a question asks what a document says ("What does the Declaration say about ...").
SAY_VERBS: Final = (
    r"(?:say|says|said|state|states|stated|specify|specifies|mention|mentions|list|lists|show|shows|report|reports"
    r"|describe|describes|define|defines)"
)
# Arithmetic relations, by family: a question using one asks for a figure computed from others, and a quote that
# states such a figure itself says so with a word of the same family ("grew by 1.6%", "Total", "averaging").
Family = Literal["change", "difference", "total", "average", "ratio"]
FAMILIES: Final[dict[Family, frozenset[str]]] = {
    "change": frozenset(
        """change changes changed changing increase increases increased increasing decrease decreases decreased
        decreasing rise rises rose risen rising fall falls fell fallen falling drop drops dropped grow grows grew
        grown growing growth decline declines declined declining gain gains gained jump jumped climb climbed reduce
        reduced reduction up down""".split()
    ),
    "difference": frozenset("difference differences differ differs gap spread exceed exceeds exceeded".split()),
    "total": frozenset(
        """total totals totalled totaled totaling totalling sum sums aggregate aggregated combined overall
        altogether together""".split()
    ),
    "average": frozenset("average averages averaged averaging mean median".split()),
    "ratio": frozenset("ratio ratios proportion proportions".split()),
}


@lru_cache(maxsize=4096)  # the same quote sentences are read by the answer and question readers, and on repair
def number_words(text: str) -> tuple[tuple[Decimal, int, int], ...]:
    """The numbers `text` spells out in words ("twelve", "twenty-five"), with their spans."""
    found: list[tuple[Decimal, int, int]] = []
    for m in re.finditer(r"[A-Za-z]+(?:-[A-Za-z]+)?", text):
        parts = fold(m.group()).split("-")
        if len(parts) == 2 and parts[0] in NUMBER_TENS and parts[1] in NUMBER_UNITS:
            found.append((Decimal(NUMBER_TENS[parts[0]] + NUMBER_UNITS[parts[1]]), m.start(), m.end()))
        elif len(parts) == 1 and (parts[0] in NUMBER_UNITS or parts[0] in NUMBER_TENS):
            found.append((Decimal(NUMBER_UNITS.get(parts[0], NUMBER_TENS.get(parts[0], 0))), m.start(), m.end()))
    return tuple(found)


__all__ = [
    "AUXILIARIES",
    "COPULAS",
    "DOCUMENT_TYPES",
    "FAMILIES",
    "FRACTIONS",
    "FREQUENCY",
    "LOCATIVE",
    "MONTHS",
    "NIL",
    "NUMBER_TENS",
    "NUMBER_UNITS",
    "POLARITY",
    "SAY_VERBS",
    "TEMPORAL",
    "TIME_UNITS",
    "WEEKDAYS",
    "Family",
    "number_words",
]
