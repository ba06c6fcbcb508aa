"""The closed word classes the meaning checks read, each written once: negators, the deontic classes, the
directions and their poles, units, scales and rates, number words, words of attribution, and what a content word
is. Every class is a category of general English; none lists the words of a case."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from quotebound.agent.gate.vocabulary import STOPWORDS, fold
from quotebound.agent.gate.vocabulary import stem as light_stem


def word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The light stem of `vocabulary`, kept from eating a word's own "-eed" ("breed", "exceed") and with a doubled
    last consonant made single ("stopped", "planned"), so the forms of one word meet."""
    w = fold(word).removesuffix("'s")
    if w.endswith("eed") or w.endswith("eeds"):
        return w.removesuffix("s")
    s = light_stem(w)
    if len(s) > 3 and s[-1] == s[-2] and s[-1] not in "aeiouls":
        s = s[:-1]
    return s


# Negators: words that deny what their clause (or the phrase after them) says. "n't" and "cannot" are split into
# "not" first.
NEGATORS: Final = word_set("not no never none nobody nothing nowhere neither nor without")

# Negators that deny a noun phrase ("no pet", "neither director"): they negate a modal anywhere after them.
DETERMINER_NEGATORS: Final = word_set("no none neither nobody nothing nor")

# Deontic classes. Permission and prohibition are each other's negation; obligation negated is a prohibition when it
# is a modal verb ("must not") and an exemption when it is a word of requirement ("not required", "need not").
PERMISSION: Final = word_set(
    "may can could might allowed allow allows permitted permit permits permissible entitled authorized authorised "
    "eligible"
)
PROHIBITION: Final = word_set(
    "prohibited prohibit prohibits forbidden forbid forbids banned ban bans barred disallowed precluded ineligible"
)
OBLIGATION_MODALS: Final = word_set("must shall should")
OBLIGATION_WORDS: Final = word_set(
    "required require requires mandatory obligated obliged obligatory need needs"
)  # and "has to" / "have to" (see `deontic`)
EXEMPTION: Final = word_set("waived waive waives exempt exempted excused optional")

# Auxiliaries and the verb "be": the words a negator may stand among and still deny the verb group it is in.
AUXILIARIES: Final = word_set(
    "be been being is are was were am do does did has have had will would to also ever yet still then therefore"
)
MODAL_VERBS: Final = word_set("may can could might must shall should will would")

# The words of a verb group before its verb: a clause starts where one follows "and", "or", "that".
VERB_GROUP: Final = word_set("is are was were am be been do does did has have had") | MODAL_VERBS

# Directions: (axis, pole). A negator before a direction word flips it ("no more than" is "at most").
POLES: Final[dict[str, tuple[str, str]]] = {
    # bounds and comparison of magnitude
    "more": ("magnitude", "high"), "greater": ("magnitude", "high"), "higher": ("magnitude", "high"),
    "larger": ("magnitude", "high"), "longer": ("magnitude", "high"), "bigger": ("magnitude", "high"),
    "exceed": ("magnitude", "high"), "exceeds": ("magnitude", "high"), "exceeding": ("magnitude", "high"),
    "exceeded": ("magnitude", "high"), "minimum": ("magnitude", "high"), "min": ("magnitude", "high"),
    "floor": ("magnitude", "high"),
    "less": ("magnitude", "low"), "fewer": ("magnitude", "low"), "lower": ("magnitude", "low"),
    "smaller": ("magnitude", "low"), "shorter": ("magnitude", "low"), "maximum": ("magnitude", "low"),
    "max": ("magnitude", "low"), "cap": ("magnitude", "low"), "ceiling": ("magnitude", "low"),
    "within": ("magnitude", "low"),
    # time order
    "before": ("order", "before"), "prior": ("order", "before"), "earlier": ("order", "before"),
    "preceding": ("order", "before"), "after": ("order", "after"), "following": ("order", "after"),
    "later": ("order", "after"), "sooner": ("order", "before"), "subsequent": ("order", "after"),
    "thereafter": ("order", "after"),
    # change
    "increase": ("change", "up"), "increased": ("change", "up"), "increases": ("change", "up"),
    "increasing": ("change", "up"), "rise": ("change", "up"), "rises": ("change", "up"), "rose": ("change", "up"),
    "risen": ("change", "up"), "rising": ("change", "up"), "grow": ("change", "up"), "grows": ("change", "up"),
    "grew": ("change", "up"), "grown": ("change", "up"), "growth": ("change", "up"), "gain": ("change", "up"),
    "gained": ("change", "up"), "climbed": ("change", "up"), "improved": ("change", "up"),
    "decrease": ("change", "down"), "decreased": ("change", "down"), "decreases": ("change", "down"),
    "decreasing": ("change", "down"), "decline": ("change", "down"), "declined": ("change", "down"),
    "declines": ("change", "down"), "fall": ("change", "down"), "falls": ("change", "down"),
    "fell": ("change", "down"), "fallen": ("change", "down"), "drop": ("change", "down"),
    "dropped": ("change", "down"), "drops": ("change", "down"), "reduced": ("change", "down"),
    "shrank": ("change", "down"), "worsened": ("change", "down"),
    # beginning and end (of a period, an activity, an existence)
    "born": ("phase", "start"), "founded": ("phase", "start"), "established": ("phase", "start"),
    "died": ("phase", "end"), "dissolved": ("phase", "end"), "abolished": ("phase", "end"),
    "start": ("phase", "start"), "started": ("phase", "start"), "starts": ("phase", "start"),
    "begin": ("phase", "start"), "began": ("phase", "start"), "begun": ("phase", "start"),
    "begins": ("phase", "start"), "commenced": ("phase", "start"), "launched": ("phase", "start"),
    "resumed": ("phase", "start"), "initiated": ("phase", "start"),
    "end": ("phase", "end"), "ended": ("phase", "end"), "ends": ("phase", "end"), "stop": ("phase", "end"),
    "stopped": ("phase", "end"), "ceased": ("phase", "end"), "discontinued": ("phase", "end"),
    "discontinue": ("phase", "end"), "terminated": ("phase", "end"), "concluded": ("phase", "end"),
    "expired": ("phase", "end"), "suspended": ("phase", "end"),
    # open or closed to something
    "open": ("state", "open"), "opened": ("state", "open"), "closed": ("state", "closed"),
    # superlatives
    "largest": ("extreme", "max"), "highest": ("extreme", "max"), "greatest": ("extreme", "max"),
    "biggest": ("extreme", "max"), "longest": ("extreme", "max"), "smallest": ("extreme", "min"),
    "lowest": ("extreme", "min"), "fewest": ("extreme", "min"), "shortest": ("extreme", "min"),
}  # fmt: skip
OPPOSITE: Final[dict[str, str]] = {
    "high": "low", "low": "high", "before": "after", "after": "before", "up": "down", "down": "up",
    "start": "end", "end": "start", "open": "closed", "closed": "open", "max": "min", "min": "max",
}  # fmt: skip

# Units a figure is counted in (canonical form), scales it is written in, and the time units a rate runs per.
UNITS: Final[dict[str, str]] = {
    **{w: "second" for w in word_set("second seconds sec secs")},
    **{w: "minute" for w in word_set("minute minutes mins")},
    **{w: "hour" for w in word_set("hour hours hr hrs")},
    **{w: "day" for w in word_set("day days")},
    **{w: "week" for w in word_set("week weeks")},
    **{w: "month" for w in word_set("month months")},
    **{w: "year" for w in word_set("year years yr yrs")},
    **{w: "decade" for w in word_set("decade decades")},
    **{w: "century" for w in word_set("century centuries")},
    **{w: "inch" for w in word_set("inch inches")},
    **{w: "foot" for w in word_set("foot feet ft")},
    **{w: "yard" for w in word_set("yard yards")},
    **{w: "mile" for w in word_set("mile miles")},
    **{w: "meter" for w in word_set("meter meters metre metres")},
    **{w: "centimeter" for w in word_set("centimeter centimeters centimetre centimetres cm")},
    **{w: "millimeter" for w in word_set("millimeter millimeters millimetre millimetres mm")},
    **{w: "kilometer" for w in word_set("kilometer kilometers kilometre kilometres km")},
    **{w: "acre" for w in word_set("acre acres")},
    **{w: "hectare" for w in word_set("hectare hectares")},
    **{w: "pound" for w in word_set("pound pounds lb lbs")},
    **{w: "ounce" for w in word_set("ounce ounces oz")},
    **{w: "kilogram" for w in word_set("kilogram kilograms kg")},
    **{w: "gram" for w in word_set("gram grams")},
    **{w: "ton" for w in word_set("ton tons tonne tonnes")},
    **{w: "gallon" for w in word_set("gallon gallons")},
    **{w: "liter" for w in word_set("liter liters litre litres")},
    **{w: "degree" for w in word_set("degree degrees celsius fahrenheit kelvin")},
    **{w: "point" for w in word_set("point points")},
    # volume, power, energy, speed, pressure, frequency, data, electricity, sound
    **{w: "cubic centimeter" for w in word_set("cc ccs")},
    **{w: "milliliter" for w in word_set("ml milliliter milliliters millilitre millilitres")},
    **{w: "horsepower" for w in word_set("hp bhp horsepower")},
    **{w: "watt" for w in word_set("watt watts")},
    **{w: "kilowatt" for w in word_set("kw kilowatt kilowatts")},
    **{w: "megawatt" for w in word_set("mw megawatt megawatts")},
    **{w: "kilowatt-hour" for w in word_set("kwh")},
    **{w: "megawatt-hour" for w in word_set("mwh")},
    **{w: "calorie" for w in word_set("calorie calories kcal")},
    **{w: "joule" for w in word_set("joule joules")},
    **{w: "mph" for w in word_set("mph")},
    **{w: "km/h" for w in word_set("kph kmh")},
    **{w: "knot" for w in word_set("knot knots")},
    **{w: "psi" for w in word_set("psi")},
    **{w: "pascal" for w in word_set("pascal pascals kpa")},
    **{w: "hertz" for w in word_set("hz hertz")},
    **{w: "megahertz" for w in word_set("mhz megahertz")},
    **{w: "gigahertz" for w in word_set("ghz gigahertz")},
    **{w: "rpm" for w in word_set("rpm")},
    **{w: "byte" for w in word_set("byte bytes")},
    **{w: "kilobyte" for w in word_set("kb kilobyte kilobytes")},
    **{w: "megabyte" for w in word_set("mb megabyte megabytes")},
    **{w: "gigabyte" for w in word_set("gb gigabyte gigabytes")},
    **{w: "terabyte" for w in word_set("tb terabyte terabytes")},
    **{w: "volt" for w in word_set("volt volts")},
    **{w: "ampere" for w in word_set("amp amps ampere amperes")},
    **{w: "decibel" for w in word_set("decibel decibels")},
    **{w: "milligram" for w in word_set("mg milligram milligrams")},
    # money counted in a currency's own words ("12.5 cents", "454.0p")
    **{w: "dollar" for w in word_set("dollar dollars")},
    **{w: "cent" for w in word_set("cent cents")},
    **{w: "pence" for w in word_set("penny pence p")},
    **{w: "euro" for w in word_set("euro euros")},
    **{w: "yen" for w in word_set("yen")},
}
TIME_UNITS: Final = frozenset({"second", "minute", "hour", "day", "week", "month", "year"})
SCALES: Final[dict[str, str]] = {
    **{w: "thousand" for w in word_set("thousand thousands k")},
    **{w: "million" for w in word_set("million millions m mn")},
    **{w: "billion" for w in word_set("billion billions bn b")},
    **{w: "trillion" for w in word_set("trillion trillions tn")},
}
RATE_ADVERBS: Final[dict[str, str]] = {
    "hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "annually": "year", "yearly": "year",
}  # fmt: skip
RATE_WORDS: Final = word_set("per a an each every")

# Cardinal number words; "one" counts as a figure only before a unit ("one meter"), being a pronoun otherwise.
NUMBER_WORDS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}  # fmt: skip

# Words that say where a statement comes from, not what it is about ("according to the table", "the line reads").
ATTRIBUTION: Final = word_set(
    "according accordingly state states stated stating say says said saying read reads quote quotes quoted "
    "quoting cite cites cited citation source sources document documents line lines table tables row rows column "
    "columns section sections paragraph paragraphs page pages footnote footnotes excerpt passage passages text "
    "relevant verbatim yes answer answers rationale summary note notes fact facts"
)

# Currency codes written beside a figure ("USD 1.00", "EUR 5"): part of how the figure is written, not a name; each
# with the unit its amounts are counted in.
CURRENCY_UNITS: Final[dict[str, str]] = {
    **{w: "dollar" for w in word_set("usd cad aud nzd sgd hkd")},
    **{w: "euro" for w in word_set("eur")},
    **{w: "pound" for w in word_set("gbp")},
    **{w: "yen" for w in word_set("jpy")},
    **{w: "yuan" for w in word_set("cny rmb")},
    **{w: "rupee" for w in word_set("inr")},
    **{w: "franc" for w in word_set("chf")},
    **{w: "won" for w in word_set("krw")},
    **{w: "krona" for w in word_set("sek nok dkk")},
    **{w: "zloty" for w in word_set("pln")},
    **{w: "koruna" for w in word_set("czk")},
    **{w: "forint" for w in word_set("huf")},
    **{w: "real" for w in word_set("brl")},
    **{w: "peso" for w in word_set("mxn")},
    **{w: "rand" for w in word_set("zar")},
}
CURRENCY_CODES: Final = frozenset(CURRENCY_UNITS)
# Currency signs, and the unit an amount written with one is counted in ("$18" is in dollars, not in cents).
CURRENCY_SIGNS: Final[dict[str, str]] = {"$": "dollar", "£": "pound", "€": "euro", "¥": "yen", "₹": "rupee"}

# Quantity words that fill the place of a figure ("a majority of the Percentage Interests").
QUANTITY_WORDS: Final = word_set("majority half quarter third all none unanimous plurality most")
ARTICLES: Final = word_set("the a an")
# Particles written in lower case inside a proper name, between its capitalized words ("Bank of Beijing", "Bank of
# the West", "Charles de Gaulle", "Ludwig van Beethoven"): the preposition "of" and the articles and prepositions
# of the European name particles. A closed class; "and" is left out, as it joins two names ("Intel and IMFT").
NAME_PARTICLES: Final = word_set("of the de du des del della di da dos van von der den la le")

# Function words that still tell one thing from another ("other assets", "only IMFT's assets"): content here.
CONTRASTIVE: Final = word_set("other others only another else same different")

# The words that are no content words: function words and every category above.
_NOT_CONTENT: Final = (
    STOPWORDS - CONTRASTIVE
    | ATTRIBUTION
    | CURRENCY_CODES
    | NEGATORS
    | AUXILIARIES
    | frozenset(POLES)
    | frozenset(UNITS)
    | frozenset(SCALES)
    | frozenset(RATE_ADVERBS)
    | frozenset(NUMBER_WORDS)
    | PERMISSION
    | PROHIBITION
    | OBLIGATION_MODALS
    | OBLIGATION_WORDS
    | EXEMPTION
)


@lru_cache(maxsize=16384)
def is_content(low: str) -> bool:
    """A word that carries what a clause is about: three letters or more, and in none of the categories above (nor
    a function word, nor a word about evidence)."""
    return len(low) >= 3 and low not in _NOT_CONTENT


@lru_cache(maxsize=16384)
def is_weighed(low: str) -> bool:
    """A word that says what a figure is about: a content word, or a verb or adjective of change, phase or state
    ("founded", "rose", "closed"), which pairing clauses leaves out only so that flipping it cannot hide it."""
    return is_content(low) or (low in POLES and POLES[low][0] in ("change", "phase", "state"))


@lru_cache(maxsize=16384)
def is_lexical(low: str) -> bool:
    """Any word but a function word or a negator: what a negator may deny."""
    return len(low) >= 3 and low not in STOPWORDS and low not in AUXILIARIES and low not in NEGATORS


CONTINUING: Final = word_set("we it they this these he she its their our there such")  # a sentence that goes on
CALENDAR: Final = word_set(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday"
)  # capitalized, but parts of dates, not names
