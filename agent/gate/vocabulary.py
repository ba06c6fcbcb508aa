"""Words, for the claim-support rule (`support.py`, `rules/claim_support.py`): which words of a claim carry what it
asserts, how two spellings of one word are matched, and the few general categories of words that are read
differently (function words, words about evidence and documents, words that name an attribute, and the words
whose meaning must never be judged by closeness: polarity, modality, direction, months and number words).

Words are compared on a light stem ("leases" = "lease", "monthly" = "month"), on a base without a derivational
suffix ("shorter" = "short", "repayment" = "repay"), or on a shared six-letter prefix ("preauthorized" =
"preauthorization"); a text's nouns made from verbs also lend their verb ("payment": "pay", "issuance": "issue"),
so a claim may state as a verb what its quote states as a noun. A content word has three letters or more, no digits, and
is not a function word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from quotebound.agent.gate.irregular import irregular_base

# A word: letters, joined by an apostrophe ("Owner's") or an ampersand ("S&P", "AT&T"); hyphens split words.
WORD: Final = re.compile(r"[^\W\d_]+(?:['’&][^\W\d_]+)*", re.UNICODE)
_MIN_LETTERS: Final = 3
_PREFIX: Final = 6


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words: determiners, pronouns, auxiliaries, the non-spatial prepositions, conjunctions and discourse
# adverbs ("instead", "respectively", "approximately"). They connect what a claim asserts; they assert nothing of
# their own (polarity, modality and order among them are held to the quote by the meaning rule, not here). Spatial
# prepositions ("inside", "behind") and frequency adverbs ("usually") do assert, and are checked.
STOPWORDS: Final = _words(
    """about above across actually additionally after afterwards again against all almost along already also
    alternatively although altogether always amid amidst among amongst and another any anyone anything anyway
    approximately are aren't around atop because been before being below beside besides between beyond both but can
    can't cannot certainly chiefly clearly concerning consequently considering could couldn't currently despite did
    didn't does doesn't doing don't done down during each either else elsewhere enough especially essentially etc even
    eventually ever every everyone everything few following for from further furthermore had hadn't has hasn't have
    haven't having he's hence her here here's hereby herein hers herself him himself his how however i'll i'm i've
    including indeed instead into isn't it'll it's its itself just largely let's like likewise mainly many may maybe
    meanwhile merely might minus more moreover most mostly much must mustn't myself namely needn't neither never
    nevertheless nonetheless nor not notably now off often once one ones only onto other others otherwise ought our
    ours ourselves out over overall own particularly per perhaps plus possibly predominantly primarily principally
    quite rather really
    regarding respectively roughly same separately several shall shan't she she's should shouldn't similarly simply
    since solely some somehow something sometimes somewhat specifically still subsequently such than that that's the
    their theirs them themselves then thence there there'll there's thereafter thereby therefore therein these they
    they'll they're they've this those though through throughout thus till together too toward towards ultimately
    under unless unlike until unto upon versus very via was wasn't we'll we're we've were weren't what what's
    whatever when whenever where where's whereas whereby wherein wherever whether which while who who's whoever
    whole whom whose why will with within without won't would wouldn't yet you you'll you're your yours yourself
    yourselves"""
)

# Words for talking about evidence and documents, and for answering: what a careful answer says around its quotes
# ("according to the table", "the relevant line reads", "the footnote states", "yes"). They describe where a claim
# comes from, not what it asserts.
EVIDENCE_WORDS: Final = _words(
    """according accordingly add added addendum adds agree agreed agrees analysis answer answered answers appendix
    article articles asked attached available based beyond calc calculated calculation calculations call called
    calls caption cell cells chapter citation citations cite cited cites clause clauses column columns compare
    compared compares comparison compute computed computing conclude concluded conclusion confirm confirmed confirms
    conflict conflicting conflicts consistent contain contained contains context contextual contradict contradicts
    cover covered covers data defer defers define defined defines definition depend depends derive derived described
    describes detail detailed details differ different differently differs directly disagree disagreed disagreement
    disagrees disclosed discloses document documented documents entries entry evidence exact exactly example excerpt
    excerpts exhibit explicit explicitly express expressly figure figures find finds footnote footnotes found gap
    gaps given gives giving header heading headings identical inconsistent indicate indicated indicates information
    insufficient item items label labeled labelled line lines list listed listing lists match matches mention
    mentioned mentions missing name named names none note noted notes number numbered numbers page pages paragraph
    paragraphs part partial partially passage passages per precise precisely present presented presents primary
    provide provided provides providing provision provisions question questions quote quoted quotes quoting read
    reading reads refer reference referenced references refers relevant rely relying report reported reporting
    reports response result results retrieved row rows rule rules said say saying says schedule secondary section
    sections see sentence sentences set sets sheet show shown shows source sources specific specified specifies
    specify state stated statement statements states stating subsection supplied supply support supported supports
    table tables term terms text texts title titled tolerance unclear unknown verbatim verified versus wording words
    written yes"""
)

# Nouns for documents, their kinds, copies and parts: what "one", "two", "a second" count when they count sources,
# and what a claim names when it talks about its evidence rather than the world ("another copy of the article says",
# "a data record gives", "the pensions note"). Singular forms: plurals match by stem.
DOCUMENT_NOUNS: Final = _words(
    """abstract announcement appendix article biography brochure bulletin caption catalog catalogue chart column copy
    database dataset description diagram disclosure discussion document edition encyclopedia entry excerpt exhibit
    extract faq figure file filing footnote fragment guide handbook heading infobox letter line listing manual memo
    memorandum
    minutes newsletter note notice obituary overview page paragraph passage profile quote record register registry
    report review revision row schedule section sheet snippet source spreadsheet statement study summary survey table
    text transcript version webpage website wiki"""
)

# Verbs a document (or its author) does things with evidence by: it says, gives, lists, records a value, or agrees
# or disagrees with another document. A document noun in a sentence with one of them is the source of a claim.
REPORTING_VERBS: Final = _words(
    """agree ascribe attribute cite concur confirm conflict contradict credit describe differ disagree dispute give
    gave indicate list match mention note place put quote read record refer report say said show state"""
)

# Words saying that sources disagree about a value ("disputed: 15 June 1745"): what a listed conflict says, and
# nothing about the world when the draft lists one.
DISPUTE_WORDS: Final = _words(
    """contested contradictory discrepancy discrepant discrepancies dispute disputed disputes disputing"""
)

# Nouns that name the kind of a value ("the release date", "the date of his death"): the value the claim states
# says what it is; the nouns add nothing a figure's own check does not hold.
DATE_NOUNS: Final = _words("""date""")
COUNT_NOUNS: Final = _words("""amount count quantity value""")

# Words for being born and dying: a biography gives them as a parenthesized span after the name ("Roland Ritchie
# (June 19, 1910 – June 5, 1988)"), whose first date is the birth and second the death.
BIRTH_WORDS: Final = _words("""birth born""")
DEATH_WORDS: Final = _words("""death died""")

# Ordinal words, by value ("the second period" for the second of the quoted periods).
ORDINALS: Final = {
    word: n
    for n, word in enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), start=1)
}

# Nouns for spans of time an ordinal may rank ("the first period", "the second quarter").
PERIOD_NOUNS: Final = _words("""day half month period quarter season semester session term week year""")

# Privative words: they deny what follows them ("for lack of a quorum", "fails to pay"), as a negator does; a claim
# may use them for a quote's "no quorum is present" or "not paid" (the meaning rule holds the polarity).
PRIVATIVES: Final = _words("""absence absent fail failed failing fails failure lack lacked lacking lacks""")

# Light verbs and their particles: verbs that carry little meaning of their own, the noun or figure after them
# carries it ("quiet hours run from ...", "the budget puts $X into", "sets aside", "takes a two-thirds vote").
LIGHT_VERBS: Final = _words(
    """applied applies apply applying aside away back be became become becomes bring brings brought came come comes
    coming did do does forth gave get gets give gives go goes going gone got gotten had has have held hold holds
    keep keeps kept made make makes place placed places put puts putting ran run running runs set sets setting stand
    stands stood take taken takes taking took went"""
)

# Words that name an arithmetic derivation ("the change", "averaged", "a ratio of", "add up to"): what a verified
# calc did, said in words; the calc's own operands and result are held by the span and calc rules.
DERIVATION_WORDS: Final = _words(
    """add added adding adds average averaged averages calculate calculated change changed changes combine combined
    compute computed difference differences divide divided dividing growth mean minus multiplied multiply
    percent percentage percentages plus point points proportion ratio ratios result round rounded rounding
    rounds subtract subtracted sum summed times together total totals"""
)

# Periods a figure is counted over: a verified calc that converts between them (by 12, 52, 365 ...) may name them
# ("the monthly figure" for an annual quote divided by 12).
PERIOD_WORDS: Final = _words("""annual annually daily hourly monthly quarterly weekly yearly""")

# Number words, by value: a claim may spell a figure its quotes or its verified calc give in digits ("twelve" for
# "12"), and the other way round.
NUMBER_WORDS: Final = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
     "dozen": 12, "twice": 2, "double": 2}  # fmt: skip

# Scale words of a figure, and how tables abbreviate them ("€m", "$bn", "'000"): a figure's scale is read from its
# quote, its table's header or its caption.
SCALES: Final = {
    "thousand": re.compile(r"\bthousands?\b|(?:[$€£¥]\s?|\d\s?)k\b|['’]000", re.I),
    "million": re.compile(r"\bmillions?\b|(?:[$€£¥]\s?|\d\s?)(?:m|mn|mln)\b|\b(?:mn|mln)\b", re.I),
    "billion": re.compile(r"\bbillions?\b|(?:[$€£¥]\s?|\d\s?)bn?\b|\bbn\b", re.I),
    "trillion": re.compile(r"\btrillions?\b|(?:[$€£¥]\s?|\d\s?)tr?n\b|\btrn\b", re.I),
}

# Dimension nouns and the adjectives a quote measures them with ("38 meters tall" gives the lighthouse's height).
DIMENSIONS: Final = {
    "height": ("tall", "high"), "width": ("wide", "broad"), "length": ("long",), "depth": ("deep",),
    "weight": ("heavy",), "age": ("old",), "distance": ("far", "away"), "size": ("big", "large", "small"),
}  # fmt: skip

# Generic nouns for an organization: a quote in the first person plural ("we", "our") is the document's author
# speaking, whom a claim names in the third person ("the company's assets" for "our assets").
ORGANIZATION_WORDS: Final = _words(
    """association business companies company corporation enterprise entity firm group organisation organization"""
)
FIRST_PERSON_PLURAL: Final = re.compile(r"\b(?:we|our|ours|us|ourselves)\b", re.I)

# Words that name an attribute of a subject: a fact's key, a conflict's key or a gap's need ("board size",
# "discount rate method", "review frequency") names the slot it fills with them, and asserts nothing by doing so.
ATTRIBUTE_WORDS: Final = _words(
    """age amount amounts area basis breakdown cap category cause ceiling change changes component components
    composition cost count date dates deadline depth detail distance duration effect end extent fee frequency
    height identity kind length level limit location manner maximum meaning method minimum name names nature
    number owner payment percentage period place policy price procedure process purpose quantity quota range
    rate ratio reason requirement requirements role scope share size source speed start status sum term
    threshold timing total type types unit value values volume weight width"""
)

# Words whose meaning closeness must never decide: "permitted" is close to "prohibited", "December" to "January",
# "rose" to "fell". Polarity and modality, direction and comparison, months and weekdays, and number words are
# supported only by the same word (up to inflection) in the quote; named entities and figures are held the same
# way elsewhere.
STRICT_WORDS: Final = _words(
    """above after all allow allowed allows always annual annually any approve approved april august ban banned bans
    before below bigger billion both can cannot could daily december decline declined declines decrease decreased
    decreases decreasing denied deny different disapprove double down dozen drop dropped drops each earlier early
    eight eighteen eighth eighty either eleven eligible entitled equal every exceed exceeded exceeds except exempt
    exempted fall fallen falling falls february fell few fewer fifteen fifth fifty first five forbid forbidden
    forbids former forty four fourteen fourth friday gain gained greater grew grow grown growth half higher highest
    hundred illegal increase increased increases increasing ineligible invalid january july june larger last late
    later latter lawful least legal less longer loss lost lower lowest mandatory many march maximum may might
    million minimum monday monthly more most must need needs neither never next nine nineteen ninety ninth no nobody
    none nor not nothing november nowhere obligatory october often one only optional over permission permit permits
    permitted previous prior prohibit prohibited prohibition prohibits quarter quarterly rarely reduce reduced
    reduction refuse refused require required requirement requires restrict restricted restricts rise risen rises
    rising rose same saturday seldom september seven seventeen seventh seventy several shall shorter should single
    six sixteen sixth sixty smaller some sometimes sunday ten tenth third thirteen thirty thousand three thrice
    thursday trillion triple tuesday twelve twenty twice two under unlawful unless up usually valid void waive
    waived waiver waives wednesday weekly without would yearly zero"""
)


def fold(word: str) -> str:
    """The word casefolded, with a typographic apostrophe made plain."""
    return word.casefold().replace("’", "'")


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """A light suffix-stripping stem: enough to match plurals, past tenses, -ing forms and -ly adverbs."""
    w = fold(word).removesuffix("'s").removesuffix("'")
    for suffix, keep in (("sses", "ss"), ("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("ly", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not (suffix == "s" and w.endswith(("ss", "us", "is"))):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 3 else w  # "charge" = "charged" = "charg"


# Derivational suffixes that turn a word into a noun or an adjective of the same meaning ("repayment" = "repay",
# "ownership" = "owner" = "own"): stripped, at most twice, down to a base of three letters or more.
_DERIVATIONAL: Final = {
    "ment": 3, "ship": 3, "er": 3, "ness": 4, "ity": 4, "ation": 4, "ion": 4, "al": 4, "ance": 4, "ence": 4,
    "or": 4, "est": 4,
}  # suffix: the shortest base it may leave  # fmt: skip


# Latin stem alternations between a noun and its verb ("assumption" = "assume", "description" = "describe",
# "occupancy" = "occupy"): the noun's ending, and the verb endings it alternates with.
_ALTERNATIONS: Final = {
    "ception": ("ceive",), "scription": ("scribe",), "sumption": ("sume",), "duction": ("duce",),
    "tention": ("tain",), "olution": ("olve",), "mission": ("mit",), "cession": ("cede",), "clusion": ("clude",),
    "ision": ("ide", "ise"), "ension": ("end",), "ication": ("y",), "ability": ("able",), "ibility": ("ible",),
    "ancy": ("y",), "ation": ("y",),
}  # fmt: skip
_ALTERNATION_VERB: Final = 5  # the shortest verb an alternation may give; before a bare "y", four letters kept
_DOUBLED: Final = frozenset("bdgklmnprt")  # consonants an inflection doubles ("stopped", "totalled", "planning")
_LATIN: Final = tuple(_ALTERNATIONS)
_VARYING: Final = (*_LATIN, *(f"{e}s" for e in _LATIN), "ies", "ed", "ing")  # the endings `variants` reads


@lru_cache(maxsize=16384)
def variants(word: str) -> tuple[str, ...]:
    """Other spellings of `word`'s stem that are the same word: an inflected stem with its doubled consonant
    undoubled ("totalled": "total", "stopped": "stop"), the verb a Latin noun alternates with ("assumptions":
    "assume"). Read on both sides of a match, so "assumed" meets "assumptions" and "total" meets "totalled"."""
    w = fold(word).removesuffix("'s")
    if not w.endswith(_VARYING):
        return ()  # most words: nothing to undouble, no Latin ending
    base = stem(w)
    found: list[str] = []
    inflected = w.endswith(("ed", "ing")) and base != w
    if inflected and len(base) > 4 and base[-1] == base[-2] and base[-1] in _DOUBLED:
        found.append(base[:-1])
    singular = base if base.endswith(_LATIN) else w
    for ending, verbs in _ALTERNATIONS.items():
        kept = len(singular) - len(ending)
        if singular.endswith(ending) and kept > 0:
            found += [
                stem(singular[:kept] + verb)
                for verb in verbs
                if kept + len(verb) >= _ALTERNATION_VERB and (verb != "y" or kept >= _ALTERNATION_VERB - 1)
            ]
    return tuple(dict.fromkeys(v for v in found if v != base))


@lru_cache(maxsize=16384)
def stems(word: str) -> tuple[str, ...]:
    """The stems `word` may match: its own, its `variants`, and its bases without a derivational suffix
    ("shorter": "short", "ownership": "owner", "own"; "repayment": "repay")."""
    found = [stem(word), *variants(word)]
    if (base_verb := irregular_base(fold(word))) is not None:
        found.append(DONE + stem(base_verb))  # "paid" meets "paid" or "payment", never a bare "pay"
    frontier = list(dict.fromkeys([fold(word).removesuffix("'s"), found[0]]))
    for _ in range(2):
        bases = [
            w[: -len(s)]
            for w in frontier
            for s, least in _DERIVATIONAL.items()
            if w.endswith(s) and len(w) - len(s) >= least
        ]
        bases += [b[:-1] for b in bases if len(b) > 3 and b[-1] == b[-2]]  # "bigger" -> "bigg" -> "big"
        found += [stem(b) for b in bases] + bases
        frontier = bases
    return tuple(dict.fromkeys(found))


# Suffixes that make a noun or an adjective from a verb ("payment", "issuance", "construction", "attributable"): the
# verb is what the word says happened. Read on a text's side only (a claim's own derived words are `stems`).
_NOMINAL: Final = {"ment": 3, "ance": 4, "ence": 4, "ation": 4, "ion": 4, "able": 4, "ible": 4}  # suffix: shortest base


# Marks the stem of a verb a text states as done: by an irregular past form ("paid") or by a noun made from it
# ("payment"). A claim's irregular past form matches only these, never the bare verb: "sold" is not "plan to sell".
DONE: Final = "~"


@lru_cache(maxsize=16384)
def done_forms(word: str) -> tuple[str, ...]:
    """What a text's `word` lends a claim beyond its own stem: the verb a noun is made from ("payment": "pay") and
    the base of an irregular past form ("sold": "sell"), each also marked `DONE`."""
    w = fold(word).removesuffix("'s")
    bases = list(nominal_bases(w))
    if (base_verb := irregular_base(w)) is not None:
        bases.append(stem(base_verb))
    return tuple(dict.fromkeys([*bases, *(DONE + b for b in bases)]))


@lru_cache(maxsize=16384)
def nominal_bases(word: str) -> tuple[str, ...]:
    """The verb stem a noun or adjective made from it carries ("payments": "pay", "issuance": "issu"); () for most
    words. A claim that says "was paid" of a quote's "a payment of" says what the quote says."""
    w = fold(word).removesuffix("'s")
    w = w[:-1] if w.endswith("s") and not w.endswith("ss") else w
    found = [
        stem(w[: -len(s)])
        for s, least in _NOMINAL.items()
        if w.endswith(s) and len(w) - len(s) >= least and (s != "ion" or w[-4] in "st")  # not "billion", "union"
    ]
    return tuple(dict.fromkeys(b for b in found if b != stem(w)))


def is_content(word: str) -> bool:
    """A word that may carry what a claim asserts: three letters or more and not a function word."""
    return len(word) >= _MIN_LETTERS and fold(word) not in STOPWORDS


def content_words(text: str) -> list[str]:
    """The content words of `text`, in order (figures and short words are not words here)."""
    return [w for w in WORD.findall(text) if is_content(w)]


@lru_cache(maxsize=65536)
def in_category(word: str, category: frozenset[str]) -> bool:
    """`word` (or its stem) belongs to `category`."""
    w = fold(word)
    stemmed = _stemmed(category)
    return w in category or stem(w) in stemmed or any(v in stemmed for v in variants(w))


@lru_cache(maxsize=64)  # one entry per category: more categories than 8 are asked about
def _stemmed(category: frozenset[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in category)


# An apostrophe joining two words of three letters or more joins a compound ("RMB’Million" for RMB millions),
# not a contraction or possessive ("isn't", "company's", "they'll"): each part is a word of the text too.
_COMPOUND_JOIN: Final = re.compile(r"['’](?=[^\W\d_]{3})")


def _joined(word: str) -> tuple[str, ...]:
    """`word`, and the parts of a compound an apostrophe joins."""
    parts = _COMPOUND_JOIN.split(word)
    return (word,) if len(parts) == 1 else (word, *(p for p in parts if len(p) >= _MIN_LETTERS))


@dataclass
class Vocabulary:
    """Stems (and long-word prefixes) of every word of some texts."""

    stems: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    _covered: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)  # word -> covers(word)

    def add(self, text: str) -> None:
        self._covered.clear()
        for word in (w for found in WORD.findall(text) for w in _joined(found)):
            for s in (stem(word), *variants(word), *done_forms(word)):
                self.stems.add(s)
                if len(s) >= _PREFIX:
                    self.prefixes.add(s[:_PREFIX])

    def merge(self, other: Vocabulary) -> None:
        """Add every stem and prefix of `other`."""
        self._covered.clear()
        self.stems |= other.stems
        self.prefixes |= other.prefixes

    def covers(self, word: str) -> bool:
        """`word` is one of these words, up to inflection, derivation or a long shared prefix (remembered per word:
        a draft asks one vocabulary about the same words claim after claim)."""
        known = self._covered.get(word)
        if known is None:
            known = self._covered[word] = any(
                s in self.stems or (len(s) >= _PREFIX and s[:_PREFIX] in self.prefixes) for s in stems(word)
            )
        return known


@lru_cache(maxsize=2048)
def vocabulary_of(text: str) -> Vocabulary:
    """The vocabulary of one text (cached: a draft reads the same quotes for many claims, and repairs again)."""
    vocab = Vocabulary()
    vocab.add(text)
    return vocab
