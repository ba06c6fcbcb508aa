"""Words a claim uses to talk about its documents, and words its quotes bear out by their form: a document phrase
reporting what a source says, the kind of a stated value, a biography's span, ordinals over quoted periods,
counts of listed years, and a period that refers back."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from quotebound.agent.core.contracts import Draft, EvidenceBundle, Fact, Support
from quotebound.agent.gate.claims import Claim, QuoteSpan
from quotebound.agent.gate.inputs import GateInputs, SourceLine
from quotebound.agent.gate.rules import claim_support
from quotebound.agent.gate.source_talk import _word_before, about_sources
from quotebound.agent.gate.vocabulary import WORD, Vocabulary, fold

BIO_A = "Roland Almon Ritchie (June 19, 1910 – June 5, 1988) was a Canadian lawyer and puisne justice."
BIO_B = "Roland Almon Ritchie (January 1, 1900 – June 5, 1988) was a Canadian lawyer and puisne justice."


def _fact(quote: str, text: str, source_id: str = "a.txt", **extra: Any) -> Fact:
    support = Support(source_id=source_id, locator="p.1 L1-L1", quote=quote)
    return Fact.model_validate({"text": text, "support": [support], **extra})


@pytest.fixture
def judge(make_inputs: Callable[..., GateInputs]) -> Callable[..., list[str]]:
    def run(draft: Draft, question: str = "When was Justice Ritchie born?", **fields: Any) -> list[str]:
        fields.setdefault("cited_lines", (SourceLine("a.txt", 1, 1, BIO_A), SourceLine("b.txt", 1, 1, BIO_B)))
        return [f.message for f in claim_support.check(make_inputs(draft, question=question, **fields))]

    return run


def _bios(make_draft: Callable[..., Draft], **levels: str) -> Draft:
    return make_draft(_fact(BIO_A, BIO_A), _fact(BIO_B, BIO_B, "b.txt"), **levels)


def test_a_document_reporting_a_value_is_no_claim_about_the_world(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    honest = _bios(
        make_draft,
        level1="Ritchie was born on June 19, 1910, though another copy of his biography says January 1, 1900.",
        level2="Two versions of the same biography disagree: one gives June 19, 1910, a second, otherwise "
        "near-identical document January 1, 1900.",
    )
    assert judge(honest) == []


@pytest.mark.parametrize(
    ("sentence", "word"),
    [
        # a source the draft never read, counted: three versions where two were read
        ("Three versions of the biography give June 5, 1988.", "three"),
        # a name describing a source is held like any name ("Army records" the documents never mention)
        ("He was born on June 19, 1910, as Army records confirm.", "army"),
        # a word describing a source must be one the model read
        ("Old military records confirm June 19, 1910.", "military"),
        # a document noun that is no source of the claim (after its verb, not reporting) is a word like any other
        ("Ritchie wrote a biography in 1988.", "biography"),
    ],
)
def test_what_a_source_phrase_may_not_carry(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, word: str
) -> None:
    assert any(f"'{word}'" in m for m in judge(_bios(make_draft, level2=sentence)))


def test_a_biographys_span_gives_birth_and_death_in_order(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    assert judge(make_draft(_fact(BIO_A, "Ritchie was born on June 19, 1910 and died on June 5, 1988."))) == []
    assert judge(make_draft(_fact(BIO_A, "Ritchie was born in 1910."))) == []
    swapped = judge(make_draft(_fact(BIO_A, "Ritchie was born on June 5, 1988.")))
    assert any("'born'" in m for m in swapped)
    plain = "Roland Almon Ritchie was a Canadian lawyer, from June 19, 1910."
    assert any("'born'" in m for m in judge(make_draft(_fact(plain, "Ritchie was born on June 19, 1910."))))


def test_a_value_names_its_kind(make_draft: Callable[..., Draft], judge: Callable[..., list[str]]) -> None:
    assert judge(_bios(make_draft, level2="Both give June 5, 1988 as the date of his death.")) == []
    assert any("'date'" in m for m in judge(_bios(make_draft, level2="Both agree on the date of his death.")))


ROWS = (
    "| Period | Average Price Paid per Share |",
    "|---|---|",
    "| January 26, 2019 - February 22, 2019 | $ 64.77 |",
    "| February 23, 2019 - March 22, 2019 | $ 65.53 |",
)


def _rows(*numbers: int) -> tuple[Fact, tuple[SourceLine, ...]]:
    supports = [Support(source_id="t.md", locator=f"p.1 L{n}-L{n}", quote=ROWS[n - 1]) for n in numbers]
    calc = {"expr": "65.53 - 64.77", "value": "0.76"}
    fact = Fact.model_validate({"text": "The price changed by 0.76.", "support": supports, "calc": calc})
    return fact, tuple(SourceLine("t.md", 1, n, text) for n, text in enumerate(ROWS, start=1))


def test_ordinals_rank_the_quoted_periods(make_draft: Callable[..., Draft], judge: Callable[..., list[str]]) -> None:
    fact, lines = _rows(3, 4)
    ranked = make_draft(fact, level1="The average price rose by $0.76 from the first to the second period.")
    assert judge(ranked, "What was the change in average price?", cited_lines=lines) == []
    third = make_draft(fact, level1="The average price rose by $0.76 from the second to the third period.")
    assert any("'third'" in m for m in judge(third, "What was the change?", cited_lines=lines))
    fell = make_draft(fact, level1="The average price fell by $0.76 from the first to the second period.")
    assert any("'fell'" in m for m in judge(fell, "What was the change?", cited_lines=lines))


def test_a_count_of_listed_years_and_a_period_that_refers_back(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    quote = "There was no material bad debt expense in 2019, 2018 and 2017."
    three = make_draft(_fact(quote, quote), level2="There was no material bad debt expense in any of the three years.")
    assert judge(three, "Was there bad debt expense?", cited_lines=()) == []
    four = make_draft(_fact(quote, quote), level2="There was no material bad debt expense in any of the four years.")
    assert any("'four'" in m for m in judge(four, "Was there bad debt expense?", cited_lines=()))
    recorded = "During fiscal 2019, we recorded net restructuring charges of $254 million."
    level2 = "In fiscal 2019 net restructuring charges were recorded; they came to $254 million that year."
    year = make_draft(_fact(recorded, recorded), level2=level2)
    assert judge(year, "How much were the charges?", cited_lines=()) == []
    each = make_draft(_fact(recorded, recorded), level2="Charges of $254 million were recorded each year in 2019.")
    assert any("'year'" in m for m in judge(each, "How much were the charges?", cited_lines=()))


def test_a_source_may_report_by_its_author_or_in_a_clause_that_leaves_out_the_verb(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    elliptical = "One biography gives June 19, 1910, and a second version January 1, 1900."
    assert judge(_bios(make_draft, level2=elliptical)) == []
    assert judge(_bios(make_draft, level2="The company states that he was born on June 19, 1910.")) == []
    # an organization that does something other than report is a party, held like any word
    acting = judge(_bios(make_draft, level2="The company appointed him on June 19, 1910."))
    assert any("'company'" in m for m in acting)


# --- long claims: each word is read against the claim once, not the claim re-read per word ---------------------


@pytest.mark.parametrize(
    "unit",
    [
        "(June 19, 1910 – June 5, 1988) was born and died in Vienna ",  # birth and death words beside dates
        "the release date and the amount of that year ",  # value-kind nouns, a period referring back
        "the first period and the second quarter of the three years ",  # ordinals and counts over periods
        "Fort Kent Owners Association Board Roland Almon Ritchie ",  # one long run of names
    ],
)
def test_a_long_claim_is_read_in_linear_time(
    unit: str, make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    long = (unit * (19_000 // len(unit)))[:19_000]
    start = time.process_time()
    found = judge(_bios(make_draft, level1=long))
    assert time.process_time() - start < 5.0  # it took 10 to 60 s when each word re-read the whole claim
    assert found  # and it is still blocked: some of its words are not the quotes'


def test_the_word_before_a_position_is_the_last_word_of_the_text_before_it() -> None:
    texts = [
        "",
        "a",
        "in fiscal 2019 ... that year",
        "x" * 300 + " the year",
        "S&P's  — ’tis the   same day",
        "a" * 500,
    ]
    for text in texts:
        for end in range(len(text) + 1):
            expected = [fold(w) for w in WORD.findall(text[:end])[-1:]]
            assert _word_before(text, end) == (expected[0] if expected else "")


def test_documents_after_a_conjunction_may_attribute_a_value(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]]
) -> None:
    honest = _bios(make_draft, level1="Ritchie was born on June 19, 1910, although two documents attribute it to 1900.")
    assert judge(honest) == []
    # the verb is free only as what the documents do: said of the world it is a word like any other
    world = _bios(make_draft, level1="Ritchie was born on June 19, 1910, and historians attribute it to 1900.")
    assert any("'attribute'" in m for m in judge(world))


def test_an_ordinal_may_stand_for_a_document_whose_noun_and_verb_are_left_out(
    make_draft: Callable[..., Draft], make_bundle: Callable[..., EvidenceBundle], judge: Callable[..., list[str]]
) -> None:
    read = tuple(
        make_bundle(s, [t], locator="p.1 L1-L1") for s, t in (("a.txt", BIO_A), ("b.txt", BIO_B), ("c.txt", BIO_A))
    )

    def three(level1: str) -> list[str]:
        return judge(_bios(make_draft, level1=level1), bundles=read)

    said = "One page gives June 19, 1910, another January 1, 1900 and a third 19 June 1910."
    assert three(said) == []
    # more documents than the draft read
    assert any("'fourth'" in m for m in three(said.replace("third", "fourth")))
    # no document before it: an ordinal about the world
    assert any("'third'" in m for m in three("He was born June 19, 1910, and a third 1 January 1900."))


STORES = "In Endeavour Drinks, Dan Murphy's store network grew to 230 with three new store openings in Q4."


@pytest.mark.parametrize(
    ("sentence", "blocked"),
    [
        # a review is a kind of document: naming the one that reports the figure asserts nothing about stores
        ("The Endeavour Drinks review says Dan Murphy's store network grew to 230.", False),
        # the same word is a claim about the world where no document reports through it
        ("Dan Murphy's store network grew to 230 after a review.", True),
    ],
)
def test_a_review_is_a_document_where_it_reports(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, blocked: bool
) -> None:
    draft = make_draft(_fact(STORES, STORES), level1=sentence)
    lines = (SourceLine("a.txt", 1, 1, "In Endeavour Drinks, key metrics ended F19 at record highs."),)
    messages = judge(draft, question="How many Dan Murphy's stores?", cited_lines=lines)
    assert bool(messages) is blocked and all("'review'" in m for m in messages)


DEPRECIATION = "Depreciation expense was $510 million, $487 million, and $442 million in fiscal 2019, 2018, and 2017."
PPE_LINES = (
    SourceLine("a.txt", 1, 1, "Property, plant and equipment consisted of the following."),
    SourceLine("a.txt", 1, 2, DEPRECIATION),
)


@pytest.mark.parametrize(
    ("sentence", "blocked"),
    [
        # coordinated modifiers of one document noun, the whole phrase opened by its determiner
        ("The property, plant, and equipment note lists depreciation expense of $442 million in fiscal 2017.", ""),
        ("The property, plant or equipment note lists depreciation expense of $442 million in fiscal 2017.", ""),
        # coordinated modifiers the model never read are held like any other describing words
        (
            "The machinery, tooling and equipment note lists depreciation expense of $442 million in fiscal 2017.",
            "tooling",
        ),
        # no determiner opens the phrase: the "and" opens a clause, and what stands before it is a claim
        ("Depreciation expense was $442 million in fiscal 2017, as plant and equipment notes list.", "plant"),
    ],
)
def test_coordinated_words_may_describe_one_document(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, blocked: str
) -> None:
    draft = make_draft(_fact(DEPRECIATION, DEPRECIATION), level1=sentence)
    messages = judge(draft, question="How much depreciation in fiscal 2017?", cited_lines=PPE_LINES)
    assert (messages == []) if not blocked else any(f"'{blocked}'" in m for m in messages)


LIGHT = "An Owner reported that a light near Building 5 has been out since February."


@pytest.mark.parametrize(
    ("sentence", "blocked"),
    [
        # an adverb between a document and its reporting verb: the verb still says what the document does
        ("The minutes only record that a light near Building 5 has been out since February.", ""),
        ("The minutes merely record that a light near Building 5 has been out since February.", ""),
        # the adverb itself is a word like any other: it must be the quotes' own or plain
        ("The minutes falsely record that a light near Building 5 has been out since February.", "falsely"),
        # the verb of no document is a claim about the world
        ("Owners only record that a light near Building 5 has been out since February.", "record"),
    ],
)
def test_a_document_may_report_past_an_adverb(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, blocked: str
) -> None:
    draft = make_draft(_fact(LIGHT, LIGHT), level2=sentence)
    # the words a hostile draft would carry in are written elsewhere in the document, so none is the writer's own
    elsewhere = (SourceLine("a.txt", 1, 9, "Owners must record any damage; one notice was falsely dated."),)
    messages = judge(draft, question="Was the light near Building 5 repaired?", cited_lines=elsewhere)
    assert (messages == []) if not blocked else any(f"'{blocked}'" in m for m in messages)


SEGMENT = "Operating income increased $272 million primarily due to sales of our identity protection products."


@pytest.mark.parametrize(
    ("sentence", "blocked"),
    [
        # a report's discussion of a segment is a part of the document, reporting through its verb
        (
            "The segment discussion attributes the $272 million increase primarily to sales of identity protection "
            "products.",
            "",
        ),
        # said of the world, a discussion is a claim: here an event nobody quoted
        ("Operating income increased $272 million after a discussion of identity protection products.", "discussion"),
    ],
)
def test_a_discussion_is_a_document_where_it_reports(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, blocked: str
) -> None:
    draft = make_draft(_fact(SEGMENT, SEGMENT), level2=sentence)
    messages = judge(draft, question="Why did operating income in the Consumer segment go up?", cited_lines=())
    assert (messages == []) if not blocked else any(f"'{blocked}'" in m for m in messages)


BUDGET = "Monthly regular assessment per Unit: $325.00."
ADOPTED = SourceLine("budget-2025.md", 1, 4, "This budget was adopted by the Board of Directors on November 18, 2024.")


@pytest.mark.parametrize(
    ("sentence", "blocked"),
    [
        # a cited document named by its id reports like any document noun, and may be described as it describes itself
        ("The adopted budget states the monthly regular assessment is $325.00 per Unit.", ""),
        # a document the draft does not cite is no source of the claim: what describes it is a claim
        ("The adopted plan states the monthly regular assessment is $325.00 per Unit.", "adopted"),
        # said of the world, the word from another line of the document is carried in
        ("The monthly regular assessment, adopted by the owners, is $325.00 per Unit.", "adopted"),
    ],
)
def test_a_cited_document_named_by_its_id_may_report(
    make_draft: Callable[..., Draft], judge: Callable[..., list[str]], sentence: str, blocked: str
) -> None:
    draft = make_draft(_fact(BUDGET, BUDGET, "budget-2025.md"), level2=sentence)
    messages = judge(draft, question="What is the monthly regular assessment?", cited_lines=(ADOPTED,))
    assert (messages == []) if not blocked else any(f"'{blocked}'" in m for m in messages)


def test_only_a_content_word_of_a_sources_id_names_it(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    rule = "Guests may park in marked spaces."
    draft = make_draft(_fact(rule, rule, "rules-and-regulations.md"))
    quote = QuoteSpan("rules-and-regulations.md", "p.1 L1-L1", rule, rule)
    inputs = make_inputs(draft, question="Where may guests park?", cited_lines=())

    def free(text: str) -> set[str]:
        claim = Claim("level1 sentence 1", text, None, (quote,), "level1")
        return {m.group() for m in WORD.finditer(text) if m.start() in about_sources(claim, inputs, Vocabulary())}

    # "regulations" names the cited source and reports; "and" of its id is no document noun
    assert free("The regulations say guests may park in marked spaces.") == {"regulations", "say"}
    assert free("Guests park and say so.") == set()
