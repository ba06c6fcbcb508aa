"""`gate/meaning/`: a claim sentence against the quote sentences it rests on, as pure functions over strings.

Honest paraphrases (written the way a capable model words an answer, over several kinds of documents) must keep
their quotes' meaning; each hostile one changes exactly one thing: a polarity, a modality, a direction, an order,
a unit, or the subject a figure or a name belongs to.
"""

from __future__ import annotations

import pytest

from quotebound.agent.gate import meaning
from quotebound.agent.gate.claims import QuoteSpan


def quotes(*lines: str, source: str = "doc.md") -> list[QuoteSpan]:
    """Each line quoted whole at its own locator (line i + 1), its text at the locator being the line itself."""
    return [QuoteSpan(source, f"p.1 L{i + 1}-L{i + 1}", line, line) for i, line in enumerate(lines)]


def codes(claim: str, spans: list[QuoteSpan], question: str | None = None) -> list[str]:
    return [p.code for p in meaning.problems(claim, spans, question)]


PET = "No pet may be kept for breeding or any commercial purpose."
RV = "Boats, trailers, campers and recreational vehicles may not be parked anywhere on the Property."
LATE = "An installment not paid within 15 days after its due date incurs a late charge of $25.00."
QUIET = "Quiet hours are from 10:00 p.m. to 7:00 a.m. every day."
LEASE = "The minimum lease term is twelve (12) months."
RENTALS = "Short-term rentals of fewer than twelve months, including nightly or vacation rentals, are prohibited."
COPY = "An Owner must give the Association a copy of each lease within 10 days after it is signed."
PETS = "An Owner may keep no more than two household pets in a Unit."
DOGS = "Dogs must be leashed at all times in the Common Area."
DIRECTORS = "Directors serve without compensation."
VOTING = "Cumulative voting is not permitted."
BUDGET = "The Board shall adopt an annual budget at least 30 days before the start of each fiscal year."
INTEREST = "Unpaid assessments bear interest at 12% per year from the due date until paid."
LANDSCAPING = "The renewed landscaping contract costs $1,550.00 per month."
DISHES = "Satellite dishes no larger than one meter in diameter are permitted as allowed by federal law."
ROOFS = "The Association maintains the Common Area, the roofs, the exterior walls and the parking lot."
EXTERIOR = "No Owner may change the exterior of a Unit without the prior written approval of the Committee."
POLICY = "The master property policy covers the structure of each Unit but not its interior finishes or contents."
HOME_OFFICE = "A home office is permitted if it brings no clients or deliveries beyond ordinary residential levels."
RECOURSE = "Creditors of IMFT have recourse only to IMFT's assets and do not have recourse to any other of our assets."
IMFT = "Intel provided debt financing of $1.01 billion to IMFT in 2018 and IMFT repaid $316 million to Intel in 2019."
EBITDA = "Underlying EBITDA improved from $62.6 million in FY18 to $85.1 million in FY19."
WARRANTY = 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.'
REFUNDS = "Refunds are available within 30 days of purchase."
SUPPORT = "Support is not available on weekends."
PASSWORDS = "Passwords must be at least 12 characters long and must not contain your username."
BORN = "Bryan (February 8, 1900 – March 2, 1977) was a United States Army general."
QUORUM = (
    "A quorum at a meeting of the Owners is present when Owners holding at least 25% of the Percentage Interests "
    "attend."
)
ADJOURNED = "At an adjourned meeting the quorum is Owners holding at least 15% of the Percentage Interests."
PROFORMA = (
    "The pro-forma results are presented for informational purposes only and are not indicative of the results "
    "that would have been achieved if the acquisition had taken place on April 1, 2017."
)
ASSESSMENT = "Monthly regular assessment per Unit: $325.00."
DUE = "The monthly assessment is due on the first day of each month."
SPECIAL = "The Board levied a special assessment of $12,000.00 for the Building 4 deck support post repairs."
DOMESTIC = (
    "For domestic plans, the discount rate was determined by comparison against the FTSE pension liability index."
)
INTERNATIONAL = (
    "The international discount rates were determined by comparison against country specific AA corporate "
    "indices, adjusted for duration of the obligation."
)
CONTROLS = "If this Declaration and the Bylaws conflict, this Declaration controls."
THEATRE = "The Grand Theatre is a historic theatre in Lorain, Ohio."
BUILT = "It was built in 1921 and designed by architect Harold Becker."
OPENED = "The Grand Theatre, opened in 1955, is a landmark of downtown Lorain."
TOWN = "Fort Kent is a town in Aroostook County, Maine, United States."
POPULATION = "The population was 4,067 at the 2010 census."
OTHER_COUNT = "Fort Kent has a population of 4,097 according to the 2010 census."
OTHER_POPULATION = "The population was 4,127 at the 2010 census."
FEE_2010 = "The annual fee was $4,127 in 2010."
FEES = "Audit fees paid to Deloitte were $1.2 million in 2019 and $1.1 million in 2018."
AUDITOR = "Deloitte has been the Company's auditor since 2005."
ALLOWANCE = "Trade receivables are stated net of an allowance of $2.1 million (2018: $1.8 million)."
DECLARED = "Dividends are declared at the discretion of the Board."
NO_DISCRETION = "The Board does not have discretion over dividends already declared."
DIVIDEND = "The final dividend is 12.5 cents per share."
HEADER = "|  | 2019 | 2018 | 2017 |"
SENSORS = "| Sensors | 914 | 918 | 814 |"
CAPTION = "The table below presents total net sales disaggregated by contract type (in millions):"
FIXED = "| Fixed Price | $ 1,452.4 | $ 1,146.2 | $ 1,036.9 |"
TOTAL = "| Total sales | $1,496.5 | $1,202.9 | $1,107.7 |"
ASSETS_HEADER = "| As of | 2019 | 2018 |"
ASSETS = "| Total assets | $2,664 | $3,025 |"
REVENUE_HEADER = "|  | 2019 | 2018 |"
REVENUE = "| Revenue | $ 264.0 | $ 250.5 |"
LEASES = ["|  | Operating leases |", "| 2020 | $ 5,120 |", "| 2021 | 4,870 |"]


HONEST: list[tuple[str, list[QuoteSpan], str | None]] = [
    # polarity and modality, composed: "not allowed" is a prohibition, "may not" too
    ("Pets are not allowed to be kept for breeding.", quotes(PET), None),
    ("Breeding pets is prohibited.", quotes(PET), None),
    ("You cannot keep a pet for breeding.", quotes(PET), None),
    ("No. No pet may be kept for breeding or any commercial purpose.", quotes(PET), None),
    ("Owners must not park boats on the Property.", quotes(RV), None),
    ("No, short-term rentals are not allowed.", quotes(RENTALS), None),
    ("Shorter rentals, including nightly or vacation rentals, are prohibited.", quotes(RENTALS), None),
    ("Dogs have to be on a leash at all times in the Common Area.", quotes(DOGS), None),
    ("Leashes are required for dogs in the Common Area.", quotes(DOGS), None),
    ("Directors are not paid.", quotes(DIRECTORS), None),
    ("Directors receive no compensation.", quotes(DIRECTORS), None),
    ("Cumulative voting isn't permitted.", quotes(VOTING), None),
    ("Cumulative voting is prohibited.", quotes(VOTING), None),
    ("Yes, if it brings no clients or deliveries beyond ordinary residential levels.", quotes(HOME_OFFICE), None),
    ("An unpaid installment incurs a $25.00 late charge after 15 days.", quotes(LATE), None),  # "not" denies "paid"
    ("Creditors of IMFT have recourse only to IMFT's assets.", quotes(RECOURSE), None),  # the other clause's "not"
    ("The software comes with no warranty.", quotes(WARRANTY), None),
    ("Support is unavailable on weekends.", quotes(SUPPORT), None),
    ("A password of fewer than 12 characters is not allowed.", quotes(PASSWORDS), None),  # across must / may
    # a bare Yes / No states the question's own clause
    ("No.", quotes(PET), "Can I breed pets in my unit?"),
    ("No.", quotes(VOTING), "Is cumulative voting allowed in director elections?"),
    ("No.", quotes(POLICY), "Does the master policy cover interior finishes?"),
    ("Yes.", quotes(EXTERIOR), "Do I need approval to change the exterior of my unit?"),
    ("No.", quotes(EXTERIOR), "Can I change the exterior without approval?"),
    ("No.", quotes(WARRANTY), "Does the software come with a warranty?"),
    # "No" denies the question's clause as a whole; a quote clause that says something else of its subject and
    # denies the rest is no contradiction
    ("No.", quotes(PROFORMA), "Do the pro-forma figures show what results would have been if it had been acquired?"),
    # directions, bounds and ranges
    ("Up to two household pets are allowed per Unit.", quotes(PETS), None),
    ("Two household pets at most.", quotes(PETS), None),
    ("Within 10 days after signing.", quotes(COPY), None),
    ("Owners must provide a copy of each lease no later than 10 days after signing.", quotes(COPY), None),
    ("The Board must adopt the budget no later than 30 days before the fiscal year starts.", quotes(BUDGET), None),
    ("The annual budget has to be adopted 30 days or more before the fiscal year begins.", quotes(BUDGET), None),
    ("Quiet hours are 10 p.m. to 7 a.m. daily.", quotes(QUIET), None),
    ("Quiet hours end at 7:00 a.m.", quotes(QUIET), None),
    ("You can get a refund up to 30 days after purchase.", quotes(REFUNDS), None),
    ("Underlying EBITDA rose from $62.6 million to $85.1 million.", quotes(EBITDA), None),
    ("IMFT's total assets decreased by 361 from 2018 to 2019.", quotes(ASSETS_HEADER, ASSETS), None),
    ("Sensors net sales were largest in fiscal 2018, at 918 million.", quotes(HEADER, SENSORS), None),
    # units, rates and scales
    ("The minimum lease is 12 months.", quotes(LEASE), None),
    ("Interest accrues at 12% annually on unpaid assessments.", quotes(INTEREST), None),
    ("The landscaping contract costs $1,550.00 monthly.", quotes(LANDSCAPING), None),
    ("Satellite dishes up to 1 meter in diameter are allowed.", quotes(DISHES), None),
    ("Total sales in 2019 were $1,496.5 million.", quotes(CAPTION, HEADER, TOTAL), None),
    # figures and names bound to their subjects
    ("A quorum is 25% of the Percentage Interests, or 15% at an adjourned meeting.", quotes(QUORUM, ADJOURNED), None),
    (
        "The monthly assessment of $325.00 per Unit is due on the first day of each month.",
        quotes(ASSESSMENT, DUE),
        None,
    ),
    ("IMFT repaid Intel $316 million in 2019.", quotes(IMFT), None),
    ("In FY19, underlying EBITDA was $85.1 million, up from $62.6 million in FY18.", quotes(EBITDA), None),
    ("Total sales were $1,496.5 million in 2019 and $1,202.9 million in 2018.", quotes(HEADER, TOTAL), None),
    ("The Association, not the Owners, maintains the roofs.", quotes(ROOFS), None),
    ("Roofs are maintained by the Association.", quotes(ROOFS), None),
    ("Bryan was born on February 8, 1900.", quotes(BORN), None),
    ("February 8, 1900.", quotes(BORN), "When was General Bryan born?"),
    # a sentence that goes on from another ("It was built ...") is read with its topic's names
    (
        "The Grand Theatre in Lorain, Ohio was built in 1921, although other documents give 1955.",
        quotes(THEATRE, BUILT) + quotes(OPENED, source="other.md"),
        None,
    ),
    ("Harold Becker designed the Grand Theatre, which was built in 1921.", quotes(THEATRE, BUILT), None),
    (
        "Fort Kent, a town in Aroostook County, Maine, had 4,067 residents at the 2010 census.",
        quotes(TOWN, POPULATION) + quotes(OTHER_COUNT, source="other.md"),
        None,
    ),
    # another source's version of the census sentence, with its own figure, goes on from the town's line: the town
    # is the subject of both versions
    (
        "The Aroostook County documents disagree on the 2010 census population (4,067 vs 4,127).",
        quotes(TOWN, POPULATION) + quotes(OTHER_POPULATION, source="other.md"),
        None,
    ),
    (
        "Deloitte, the Company's auditor since 2005, was paid audit fees of $1.2 million in 2019.",
        quotes(FEES, AUDITOR),
        None,
    ),
    # one label among several figures labels the nearest; "(2018: $1.8 million)" labels its figure
    ("The 2019 revenue of $264.0 million was up from $250.5 million.", quotes(REVENUE_HEADER, REVENUE), None),
    ("The allowance was $2.1 million in 2019, up from $1.8 million in 2018.", quotes(ALLOWANCE), None),
    ("According to the lease table, $5,120 is due in 2020 and $4,870 in 2021.", quotes(*LEASES), None),
    ("Dividends are declared at the Board's discretion.", quotes(DECLARED, NO_DISCRETION), None),
    ("The final dividend is 12.5 cents a share.", quotes(DIVIDEND), None),
]

HOSTILE: list[tuple[str, list[QuoteSpan], str | None, str]] = [
    # polarity and modality
    ("A pet may be kept for breeding or any commercial purpose.", quotes(PET), None, "meaning"),
    ("Short-term rentals are permitted.", quotes(RENTALS), None, "meaning"),
    ("Boats may be parked on the Property.", quotes(RV), None, "meaning"),
    ("Dogs need not be leashed in the Common Area.", quotes(DOGS), None, "meaning"),
    ("Dogs may not be leashed in the Common Area.", quotes(DOGS), None, "meaning"),
    ("Directors serve with compensation.", quotes(DIRECTORS), None, "meaning"),
    ("Cumulative voting is allowed.", quotes(VOTING), None, "meaning"),
    (
        "The master property policy covers the structure of each Unit and its interior finishes.",
        quotes(POLICY),
        None,
        "meaning",
    ),
    ("Yes: recourse to the company's other assets.", quotes(RECOURSE), None, "meaning"),
    ("The software is provided with a warranty.", quotes(WARRANTY), None, "meaning"),
    ("Support is available on weekends.", quotes(SUPPORT), None, "meaning"),
    ("Passwords may contain your username.", quotes(PASSWORDS), None, "meaning"),
    ("Yes.", quotes(PET), "Can I breed pets in my unit?", "meaning"),
    ("No.", quotes(EXTERIOR), "Do I need approval to change the exterior of my unit?", "meaning"),
    ("Yes.", quotes(WARRANTY), "Does the software come with a warranty?", "meaning"),
    ("No.", quotes(ROOFS), "Does the Association maintain the roofs?", "meaning"),
    # with no negation in its quotes, a "No" to a paraphrased question still contradicts the positive quote clause
    ("No.", quotes(ROOFS), "Is the Association responsible for maintaining the roofs?", "meaning"),
    ("No.", quotes(PROFORMA), "Are the pro-forma results presented for informational purposes?", "meaning"),
    # directions, bounds and ranges
    ("At least two household pets are allowed per Unit.", quotes(PETS), None, "meaning"),
    ("The maximum lease term is twelve (12) months.", quotes(LEASE), None, "meaning"),
    (
        "An Owner must give the Association a copy of each lease at least 10 days before it is signed.",
        quotes(COPY),
        None,
        "meaning",
    ),
    ("The Board must adopt the budget within 30 days after the fiscal year starts.", quotes(BUDGET), None, "meaning"),
    ("Passwords must be at most 12 characters long.", quotes(PASSWORDS), None, "meaning"),
    ("You can get a refund at least 30 days after purchase.", quotes(REFUNDS), None, "meaning"),
    ("Quiet hours run from 7:00 a.m. to 10:00 p.m. every day.", quotes(QUIET), None, "meaning"),
    ("Underlying EBITDA fell from $62.6 million to $85.1 million.", quotes(EBITDA), None, "meaning"),
    ("IMFT's total assets grew from 2018 to 2019.", quotes(ASSETS_HEADER, ASSETS), None, "meaning"),
    ("Sensors net sales were lowest in fiscal 2018, at 918 million.", quotes(HEADER, SENSORS), None, "meaning"),
    ("The Bylaws control when they conflict with the Declaration.", quotes(CONTROLS), None, "meaning"),
    ("Each Owner maintains the roofs of the Unit.", quotes(ROOFS), None, "meaning"),
    # the census sentence's figure joined to the town's line with no version of it going on from that line
    (
        "The Aroostook County documents disagree on the 2010 census population (4,067 vs 4,127).",
        quotes(TOWN) + quotes(OTHER_POPULATION, source="other.md"),
        None,
        "unbound",
    ),
    (
        "The Aroostook County documents disagree on the 2010 census population (4,067 vs 4,127).",
        quotes(TOWN, FEE_2010, POPULATION) + quotes(OTHER_POPULATION, source="other.md"),
        None,
        "unbound",
    ),
    # units, rates and scales
    (
        "An installment not paid within 15 months after its due date incurs a late charge of $25.00.",
        quotes(LATE),
        None,
        "unbound",
    ),
    ("Interest accrues at 12% per month on unpaid assessments.", quotes(INTEREST), None, "unbound"),
    ("The landscaping contract costs $1,550.00 a year.", quotes(LANDSCAPING), None, "unbound"),
    ("Satellite dishes up to one foot in diameter are allowed.", quotes(DISHES), None, "unbound"),
    ("Total sales in 2019 were $1,496.5 billion.", quotes(CAPTION, HEADER, TOTAL), None, "unbound"),
    # figures and names bound to their subjects
    ("The late charge is $325.00.", quotes(LATE, ASSESSMENT), None, "unbound"),
    (
        "A quorum at a meeting of the Owners is present when Owners holding at least 15% of the Percentage Interests "
        "attend.",
        quotes(QUORUM, ADJOURNED),
        None,
        "unbound",
    ),
    (
        "The special assessment of $12,000.00 is due on the first day of each month.",
        quotes(SPECIAL, DUE),
        None,
        "unbound",
    ),
    (
        "For domestic plans, the discount rate is determined by comparison against country specific AA corporate "
        "indices, adjusted for duration of the obligation.",
        quotes(DOMESTIC, INTERNATIONAL),
        None,
        "unbound",
    ),
    ("Intel provided $316 million of debt financing to IMFT.", quotes(IMFT), None, "unbound"),
    ("Underlying EBITDA was $62.6 million in FY19.", quotes(EBITDA), None, "unbound"),
    ("Automotive net sales in fiscal 2019 were $1,146.2 million.", quotes(HEADER, FIXED), None, "unbound"),
    ("Total sales 2019: $1,452.4 million.", quotes(CAPTION, HEADER, FIXED, TOTAL), None, "unbound"),
    ("March 2, 1977.", quotes(BORN), "When was General Bryan born?", "unbound"),
    ("The allowance was $1.8 million in 2019.", quotes(ALLOWANCE), None, "unbound"),
    ("$4,870 is due in 2020.", quotes(*LEASES), None, "unbound"),
    ("The final dividend is 12.5 dollars per share.", quotes(DIVIDEND), None, "unbound"),
    # the clause pairs with the quote clause that says its words in the same order
    ("The Board has discretion over dividends already declared.", quotes(DECLARED, NO_DISCRETION), None, "meaning"),
]


@pytest.mark.parametrize(("claim", "spans", "question"), HONEST)
def test_an_honest_paraphrase_keeps_its_quotes_meaning(
    claim: str, spans: list[QuoteSpan], question: str | None
) -> None:
    assert meaning.problems(claim, spans, question) == []


@pytest.mark.parametrize(("claim", "spans", "question", "code"), HOSTILE)
def test_a_claim_that_changes_its_quotes_meaning_is_found(
    claim: str, spans: list[QuoteSpan], question: str | None, code: str
) -> None:
    assert code in codes(claim, spans, question)


def test_a_quote_is_read_in_its_whole_sentence() -> None:
    """A quote cut after "No" is read with its "No": the claim built on the cut says the opposite of the sentence."""
    cut = QuoteSpan("doc.md", "p.1 L4-L4", "pet may be kept for breeding or any commercial purpose.", PET)
    assert meaning.quote_sentences(cut.quote, cut.context) == (PET,)
    assert codes("A pet may be kept for breeding or any commercial purpose.", [cut]) == ["meaning"]


def test_a_hard_wrapped_sentence_is_joined_and_a_table_row_stays_whole() -> None:
    context = "Boats, trailers, campers and recreational vehicles may\nnot be parked anywhere on the Property."
    assert meaning.quote_sentences("may not be parked", context) == (RV,)
    table = f"{HEADER}\n{SENSORS}"
    assert meaning.quote_sentences("| Sensors | 914 |", table) == (SENSORS,)


def test_a_sentence_past_the_limit_is_read_in_pieces_around_the_quote() -> None:
    long = ", ".join(f"item {n} costs {n} dollars" for n in range(400)) + "."
    pieces = meaning.quote_sentences("item 399 costs 399 dollars", long)
    assert pieces and all(len(p) <= meaning.MAX_SENTENCE_CHARS for p in pieces)
    assert any("item 399" in p for p in pieces)


def test_a_claim_that_is_a_whole_quote_sentence_is_not_read_further() -> None:
    assert meaning.problems(f'According to the Declaration, "{PET}"', quotes(PET)) == []
    assert meaning.problems(PET, quotes(PET)) == []


def test_parsing_is_cached_by_text() -> None:
    assert meaning.parse(PET) is meaning.parse(PET)


def test_the_problem_names_the_quote_sentence_it_differs_from() -> None:
    [problem] = meaning.problems("Short-term rentals are permitted.", quotes(LEASE, RENTALS))
    assert problem.quote == RENTALS
    assert "permission" in problem.detail and "prohibition" in problem.detail
