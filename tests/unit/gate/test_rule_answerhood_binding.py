"""The answerhood rule, part two: the answer's value is stated, in its quote, for what the question asks (a figure
in its own clause, a name in the clause about the subject), a derived figure is of the kind asked, a lead-in states
nothing, a causal question's premise is not restated unless a quote states it, and a document the question names
by its own names is the one quoted. Each hostile case is paired with the honest one it must not block."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import CalcDerivation, Draft, Fact, Support
from quotebound.agent.gate.answer_binding import figure_clause, name_clause, value_clause
from quotebound.agent.gate.answer_text import figures
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo, SourceLine
from quotebound.agent.gate.rules import answerhood

Build = Callable[..., Draft]
Inputs = Callable[..., GateInputs]

MODULES = (
    "Net sales from our modules segment increased by $958.1 million in 2019 primarily due to a 180% increase in "
    "the volume of watts sold and a 4% increase in the average selling price per watt."
)
AUDITOR = (
    "Deloitte was appointed as intu’s external auditor for the 2019 audit following approval at the 2019 AGM, "
    "succeeding PwC."
)
SUZUKI = "It has been manufactured in Japan by Suzuki since 2002, although sales in Europe ended in 2009."
SOURCES = (
    SourceInfo("solar.md", "Systems Business"),
    SourceInfo("intu.md", "External auditor"),
    SourceInfo("auditor-note.md", "Note 5"),
    SourceInfo("other.md", "Fiscal 2019 Actions"),
    SourceInfo("zook.txt", "Jacob Zook House, also known as the Rodney House, is a historic home in Exton."),
    SourceInfo("bonner.txt", "Bonner House is a historic home located at Bath, North Carolina."),
    SourceInfo("vstrom.txt", "Suzuki V-Strom 1000"),
)


def fact(source_id: str, *quotes: str, text: str | None = None, calc: CalcDerivation | None = None) -> Fact:
    supports = [Support(source_id=source_id, locator=f"p.1 L{i + 1}-L{i + 1}", quote=q) for i, q in enumerate(quotes)]
    return Fact(text=text or quotes[0], support=supports, calc=calc)


def judge(
    make_draft: Build, make_inputs: Inputs, question: str, answer: str, *facts: Fact, **fields: object
) -> list[str]:
    built = make_draft(*facts, level1=answer, answer=answer)
    findings = answerhood.check(make_inputs(built, question=question, sources=SOURCES, **fields))
    assert all(f.code is FindingCode.NOT_AN_ANSWER and f.blocking for f in findings)
    return [f.message for f in findings]


def lines(source_id: str, texts: list[str]) -> tuple[SourceLine, ...]:
    return tuple(SourceLine(source_id, 1, i + 1, t) for i, t in enumerate(texts))


# --- the clause a value is stated in ---------------------------------------------------------------------------------


def test_a_figure_is_read_in_its_own_clause() -> None:
    by_text = {f.text: figure_clause(MODULES, f) for f in figures(MODULES)}
    assert "modules" in by_text["$958.1 million"] and "sales" in by_text["$958.1 million"]
    assert "watts" in by_text["180%"] and "modules" not in by_text["180%"]  # after "due to": another subject
    assert "price" in by_text["4%"]
    compared = "In 2019, revenue was $5.0 million, compared to $4.2 million in 2018."
    at = compared.index("$4.2")
    assert "revenue" in (value_clause(compared, at, at + 4) or "")  # a comparison keeps its subject


def test_a_name_is_read_in_its_own_clause() -> None:
    deloitte, pwc = AUDITOR.index("Deloitte"), AUDITOR.index("PwC")
    assert "auditor" in name_clause(AUDITOR, deloitte, deloitte + 8)
    assert name_clause(AUDITOR, pwc, pwc + 3) == "succeeding"
    treasurer = "Prepared by the Treasurer, Priya Raman, with Ridgeline Community Management, Inc."
    at = treasurer.index("Priya")
    assert "Treasurer" in name_clause(treasurer, at, at + 5)  # an apposition names the role before it


# --- a lead-in states nothing ----------------------------------------------------------------------------------------


def test_a_lead_in_is_not_an_answer(make_draft: Build, make_inputs: Inputs) -> None:
    caption = "Under the DSU Plan, the following DSUs were issued by the Corporation and are outstanding at August 31:"
    (message,) = judge(
        make_draft, make_inputs, "What was the issued DSU in 2019?", f"{caption}.", fact("other.md", caption)
    )
    assert "only introduces what follows" in message
    label = "| Amounts falling due within one year: |  |  |"
    question = "What financial items does amounts falling due within one year consist of?"
    assert judge(make_draft, make_inputs, question, ": Amounts falling due within one year:.", fact("other.md", label))
    # a sentence that states its figure before the colon is an answer
    stated = "Income from vessel operations increased to $299.3 million in 2019, primarily as a result of:"
    question = "What was the increase from vessel operations in 2019?"
    assert judge(make_draft, make_inputs, question, stated, fact("other.md", stated)) == []


# --- a derived figure is of the kind asked, for the subject asked -----------------------------------------------------


def test_a_percentage_change_is_not_a_dollar_change_nor_another_subjects_percentage(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What was the percentage increase in modules sales from 2018 to 2019?"
    messages = judge(make_draft, make_inputs, question, MODULES, fact("solar.md", MODULES))
    assert any("states for something else" in m and "180%" in m for m in messages)
    dollars = "Net sales from our modules segment increased by $958.1 million in 2019."
    messages = judge(make_draft, make_inputs, question, dollars, fact("solar.md", dollars))
    assert any("asks for a percentage (increase)" in m and "calc" in m for m in messages)
    # the same sentence stating the percentage for the modules answers it
    honest = "Net sales from our modules segment increased by 191% in 2019, due to a 180% increase in volume."
    assert judge(make_draft, make_inputs, question, "Modules sales increased by 191%.", fact("solar.md", honest)) == []


def test_a_table_column_headed_change_states_a_percentage_change(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What was the percentage increase in modules sales from 2018 to 2019?"
    header = "| (Dollars in thousands) | 2019 | 2018 | 2019 over 2018 Change | % Change |"
    row = "| Modules | $ 1,460,116 | $ 502,001 | $ 958,115 | 191% |"
    assert judge(make_draft, make_inputs, question, "191%.", fact("solar.md", header, row)) == []


def test_a_word_naming_the_subject_does_not_state_a_change(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What is the increase / (decrease) in the Realized gains on swaps from 2018 to 2019?"
    row = "| Realized gains on swaps | — | (42,271) | (25,733) |"
    (message,) = judge(make_draft, make_inputs, question, "(42,271).", fact("other.md", row))
    assert "asks for a computed figure" in message
    calc = CalcDerivation(expr="0 - 42271", value="-42271")
    computed = fact("other.md", row, text="The change is -42,271.", calc=calc)
    assert judge(make_draft, make_inputs, question, "The change is -42,271.", computed) == []


# --- a who-answer's name is the one the quote gives the role ---------------------------------------------------------


def test_a_name_the_quote_gives_another_role_does_not_answer_who(make_draft: Build, make_inputs: Inputs) -> None:
    question = "Who is intu's external auditor for the 2019 audit?"
    reversed_ = "PwC is intu's external auditor for the 2019 audit, having succeeded Deloitte."
    (message,) = judge(make_draft, make_inputs, question, reversed_, fact("intu.md", AUDITOR))
    assert "'PwC' as who the question asks about" in message
    for honest in ("Deloitte is intu's external auditor for the 2019 audit.", "Deloitte.", "Deloitte, succeeding PwC."):
        assert judge(make_draft, make_inputs, question, honest, fact("intu.md", AUDITOR)) == []
    # a quote that never names the subject cannot tell (its heading may): not judged
    plain = "The firm succeeded PwC in 2019."
    assert judge(make_draft, make_inputs, question, "PwC.", fact("intu.md", plain)) == []


def test_a_who_questions_verb_does_not_name_its_subject(make_draft: Build, make_inputs: Inputs) -> None:
    # a line that shares only the question's verb (a "Vote:" label) does not name the subject: not judged
    question = "Who voted against the Building 4 special assessment?"
    levied = "The Board levied a special assessment of $12,000.00 for the Building 4 deck support post repairs."
    vote = "Vote: 4 in favor, 1 opposed (Director Marsh)."
    assert judge(make_draft, make_inputs, question, "Director Marsh.", fact("other.md", levied, vote)) == []
    # a line that names the subject still tells the name that opposed it from one with another role
    opposed = "Dana Lee opposed the Building 4 special assessment; Ravi Marsh seconded the motion."
    (message,) = judge(make_draft, make_inputs, question, "Ravi Marsh.", fact("other.md", opposed))
    assert "'Ravi' as who the question asks about" in message
    assert judge(make_draft, make_inputs, question, "Dana Lee.", fact("other.md", opposed)) == []


# --- a causal question's premise -------------------------------------------------------------------------------------


def test_a_false_premise_at_a_time_is_not_restated(make_draft: Build, make_inputs: Inputs) -> None:
    question = "Why did Suzuki stop manufacturing the V-Strom 1000 in 2009?"
    echoed = "Suzuki stopped manufacturing the V-Strom 1000 in 2009 because sales in Europe ended."
    messages = judge(make_draft, make_inputs, question, echoed, fact("vstrom.txt", SUZUKI))
    assert any("repeats the question's premise at '2009'" in m for m in messages)
    # an answer that corrects the premise, or says what the quote states, is not blocked
    for honest in (
        "It did not stop manufacturing in 2009: only sales in Europe ended in 2009.",
        "Sales in Europe ended in 2009; it has been manufactured since 2002.",
    ):
        assert judge(make_draft, make_inputs, question, honest, fact("vstrom.txt", SUZUKI)) == []


def test_a_true_premise_at_a_time_may_be_restated(make_draft: Build, make_inputs: Inputs) -> None:
    quote = "Revenue decreased 5% in 2019, primarily due to lower volumes."
    answer = "Revenue declined in 2019 because of lower volumes."
    assert judge(make_draft, make_inputs, "Why did revenue decline in 2019?", answer, fact("other.md", quote)) == []


# --- a document named by its own names -------------------------------------------------------------------------------


def test_a_document_named_by_its_names_in_its_title(make_draft: Build, make_inputs: Inputs) -> None:
    question = "According to the Jacob Zook House article, when was the house built?"
    bonner = fact("bonner.txt", "It was built about 1835, and is a two-story frame dwelling.")
    (message,) = judge(make_draft, make_inputs, question, "About 1835.", bonner)
    assert "quotes none of its passages" in message and "Jacob Zook House" in message
    zook = fact("zook.txt", "The house was built about 1820 in the Federal style.")
    assert judge(make_draft, make_inputs, question, "About 1820.", zook) == []


def test_a_document_named_by_a_name_its_text_writes(make_draft: Build, make_inputs: Inputs) -> None:
    question = "According to intu's audit committee report, what were the total fees paid in 2019?"
    other = fact("other.md", "| Total | $ 289 | $ 254 | $ 35 |")
    cited = lines("other.md", ["Fiscal 2019 Actions", "| Total | $ 289 | $ 254 | $ 35 |"])
    (message,) = judge(make_draft, make_inputs, question, "$289 million.", other, cited_lines=cited)
    assert "'External auditor'" in message  # intu.md: its id gives the name
    sources = tuple(s for s in SOURCES if s.source_id != "intu.md")
    built = make_draft(other, level1="$289 million.", answer="$289 million.")
    (finding,) = answerhood.check(make_inputs(built, question=question, sources=sources, cited_lines=cited))
    assert "intu's audit committee report" in finding.message  # no title names it: the quoted text must
    own = fact("intu.md", "| Total fees | 1,092 | 823 |")
    cited = lines(
        "intu.md", ["External auditor", "Deloitte was appointed as intu’s auditor.", "| Total fees | 1,092 | 823 |"]
    )
    built = make_draft(own, level1="1,092.", answer="1,092.")
    assert answerhood.check(make_inputs(built, question=question, sources=sources, cited_lines=cited)) == []


@pytest.mark.parametrize(
    ("phrase", "names"),
    [
        ("the Jacob Zook House article", {"jacob", "zook", "house"}),
        ("intu's audit committee report", {"intu"}),
        ("the company's annual report", set()),  # a possessor after a determiner is a description
        ("the Bylaws", set()),  # a kind of document names no one
    ],
)
def test_the_names_a_document_phrase_gives(phrase: str, names: set[str]) -> None:
    from quotebound.agent.gate.question_documents import phrase_names

    assert phrase_names(phrase) == {n if n != "house" else "hous" for n in names}


# --- a calc that answers is computed over the periods and the subject asked ------------------------------------------

HEADINGS = "| (Dollars in thousands) | 2019 | 2018 | 2017 |"
MODULES_ROW = "| Modules | $ 1,460,116 | $ 502,001 | $ 806,398 |"
SYSTEMS_ROW = "| Systems | 1,603,001 | 1,742,043 | 2,134,926 |"


@pytest.mark.parametrize(
    ("expr", "value", "rows", "blocked"),
    [
        ("round((1460116 - 502001) / 502001 * 100, 2)", "190.86", [MODULES_ROW], ""),
        ("round((502001 - 806398) / 806398 * 100, 2)", "-37.75", [MODULES_ROW], "column for 2017"),
        ("round((1603001 - 1742043) / 1742043 * 100, 2)", "-7.98", [SYSTEMS_ROW], "a row about something else"),
    ],
)
def test_a_calc_answers_over_the_periods_and_subject_asked(
    expr: str, value: str, rows: list[str], blocked: str, make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What was the percentage change in modules sales from 2018 to 2019?"
    calc = CalcDerivation(expr=expr, value=value)
    computed = fact("solar.md", HEADINGS, *rows, text=f"The change is {value}%.", calc=calc)
    messages = judge(make_draft, make_inputs, question, f"The change is {value}%.", computed)
    if blocked:
        assert any(blocked in m for m in messages), messages
    else:
        assert messages == []


def test_an_average_in_one_year_takes_the_year_before_and_a_total_row_has_no_label(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What is the 2019 average modules sales?"
    calc = CalcDerivation(expr="(1460116 + 502001) / 2", value="981058.5")
    computed = fact("solar.md", HEADINGS, MODULES_ROW, text="The average is 981,058.5.", calc=calc)
    assert judge(make_draft, make_inputs, question, "The average is 981,058.5.", computed) == []
    older = CalcDerivation(expr="(502001 + 806398) / 2", value="654199.5")
    computed = fact("solar.md", HEADINGS, MODULES_ROW, text="The average is 654,199.5.", calc=older)
    assert any("column for 2017" in m for m in judge(make_draft, make_inputs, question, "654,199.5.", computed))
    # an unlabelled total row names no subject: it is not judged by its label
    total = CalcDerivation(expr="round((28128 - 25633) / 25633 * 100, 2)", value="9.73")
    rows = fact("other.md", "|  | 2019 | 2018 |", "|  | 28,128 | 25,633 |", text="It changed by 9.73%.", calc=total)
    question = "What is the percentage change in the total dividends paid from 2018 to 2019?"
    assert judge(make_draft, make_inputs, question, "9.73%.", rows) == []


RESTRUCTURING = "| Fiscal 2017 Restructuring Plan | Workforce reduction | Facility costs | Total |"
BALANCES = (
    "| Balance payable as at June 30, 2017 | $10,045 | $1,369 | $11,414 |",
    "| Balance payable as at June 30, 2018 | $1,590 | $3,431 | $5,021 |",
    "| Balance payable as at June 30, 2019 | $1,046 | $2,949 | $3,995 |",
)


@pytest.mark.parametrize(
    ("expr", "value", "blocked"),
    [("3,995 - 5,021", "-1026", False), ("5,021 - 11,414", "-6393", True)],
)
def test_a_row_label_that_dates_the_row_gives_its_period(
    expr: str, value: str, blocked: bool, make_draft: Build, make_inputs: Inputs
) -> None:
    # the year of the table's title ("Fiscal 2017 ...") heads no column: each row's label dates its figures
    question = "How did the total balance payable change between June 30, 2018 and June 30, 2019?"
    calc = CalcDerivation(expr=expr, value=value)
    computed = fact("plan.md", RESTRUCTURING, *BALANCES, text=f"It changed by {value}.", calc=calc)
    messages = judge(make_draft, make_inputs, question, f"It changed by {value}.", computed)
    assert any("column for 2017" in m for m in messages) == blocked, messages


# --- the figure stated for the period asked, as a level when a level is asked ---------------------------------------

SHARES = (
    "Our sales to independent electronic distributors represented 42.3% of total net sales for the fiscal year ended "
    "March 31, 2019, compared to 42.7% for fiscal year 2018."
)
GRANTS = "In April 2019, we granted 346,453 PSUs with certain financial targets."


def test_the_figure_an_answer_leads_with_is_for_the_period_asked(make_draft: Build, make_inputs: Inputs) -> None:
    question = "What share of net sales did electronic distributors represent in 2018?"
    messages = judge(make_draft, make_inputs, question, "42.3% of total net sales.", fact("other.md", SHARES))
    assert any("asks about 2018, but its quote gives '42.3%' for 2019" in m for m in messages)
    assert judge(make_draft, make_inputs, question, "42.7% in fiscal 2018.", fact("other.md", SHARES)) == []
    # a month of the same year is another period too; a figure whose quote names no period is not judged
    (message,) = judge(
        make_draft, make_inputs, "How many PSUs were granted in December 2019?", "346,453.", fact("other.md", GRANTS)
    )
    assert "2019-04" in message
    plain = "We granted 346,453 PSUs with certain financial targets."
    assert (
        judge(
            make_draft, make_inputs, "How many PSUs were granted in December 2019?", "346,453.", fact("other.md", plain)
        )
        == []
    )


def test_a_row_giving_one_figure_in_several_dated_columns_gives_it_for_each(
    make_draft: Build, make_inputs: Inputs
) -> None:
    # the figure stands under 2017 first, and under 2019 too: the row gives it for the year asked
    heads, row = "|  | 2017 | 2018 | 2019 |", "| Shares authorized | 1,200 | 1,150 | 1,200 |"
    question = "How many shares were authorized in 2019?"
    assert judge(make_draft, make_inputs, question, "1,200 shares.", fact("other.md", heads, row)) == []
    # a figure only under another year's column is still not the asked period's
    (message,) = judge(make_draft, make_inputs, question, "1,150 shares.", fact("other.md", heads, row))
    assert "asks about 2019, but its quote gives '1,150' for 2018" in message


def test_a_change_does_not_answer_for_a_level(make_draft: Build, make_inputs: Inputs) -> None:
    quote = "Bell Wireless operating revenues increased by 3.6% in Q4 2019, driven by higher service revenues."
    question = "What was the operating revenues for Q4 2019 for Bell Wireless?"
    (message,) = judge(make_draft, make_inputs, question, quote, fact("other.md", quote))
    assert "'3.6%' is what its quote says it changed by" in message
    asked = "By how much did Bell Wireless operating revenues increase in Q4 2019?"
    assert judge(make_draft, make_inputs, asked, "By 3.6%.", fact("other.md", quote)) == []
    level = "Bell Wireless operating revenues were $2,493 million in Q4 2019, up 3.6%."
    assert judge(make_draft, make_inputs, question, "$2,493 million.", fact("other.md", level)) == []


def test_a_count_is_not_an_amount_of_a_table_row(make_draft: Build, make_inputs: Inputs) -> None:
    question = "How many categories are there under total stock-based compensation expense?"
    row = "| Total stock-based compensation expense | 32,137 | 31,386 | 32,252 |"
    (message,) = judge(make_draft, make_inputs, question, "32,137.", fact("other.md", row))
    assert "counts categories" in message
    counted = "| Expense categories | 4 | 4 | 3 |"
    assert judge(make_draft, make_inputs, question, "4.", fact("other.md", counted)) == []


def test_a_reference_to_a_part_of_a_document_is_no_quantity(make_draft: Build, make_inputs: Inputs) -> None:
    quote = "Details of the interest rate swap contracts as at 31 December 2019 have been disclosed in Note 38."
    question = "What is the 2019 notional amount of the interest rate swaps?"
    (message,) = judge(make_draft, make_inputs, question, quote, fact("other.md", quote))
    assert "it asks how many or how much" in message


def test_a_derived_figure_is_stated_in_the_figures_own_clause(make_draft: Build, make_inputs: Inputs) -> None:
    quote = (
        "Overall interest expense in 2019 was $1,952 million, an increase of $473 million year to year, driven by "
        "a higher average debt balance."
    )
    messages = judge(make_draft, make_inputs, "What was the average interest expense?", quote, fact("other.md", quote))
    assert any("asks for a computed figure (average)" in m for m in messages)
    averaged = "Interest expense averaged $1,033.5 million over the two years."
    assert (
        judge(
            make_draft,
            make_inputs,
            "What was the average interest expense?",
            "$1,033.5 million.",
            fact("other.md", averaged),
        )
        == []
    )


def test_a_row_of_yearly_changes_does_not_state_the_change_between_years(
    make_draft: Build, make_inputs: Inputs
) -> None:
    question = "What is the increase in the cash and cash equivalents from 2018 to 2019?"
    header = "|  | 2019 | 2018 |"
    row = "| Net increase (decrease) in cash and cash equivalents | $771 | $(2,129) |"
    (message,) = judge(make_draft, make_inputs, question, "$771.", fact("other.md", header, row))
    assert "asks for a computed figure (increase)" in message
    headed = "|  | 2019 | 2018 | Increase |"
    changed = "| Cash and cash equivalents | $5,771 | $2,871 | $2,900 |"
    assert judge(make_draft, make_inputs, question, "$2,900.", fact("other.md", headed, changed)) == []
