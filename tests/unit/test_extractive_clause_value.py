"""A line's value is the one whose own clause says what the question asks about (`extractive_clause_value`)."""

from __future__ import annotations

from quotebound.agent.models.extractive_clause_value import clause_value
from quotebound.agent.models.extractive_question import analyze
from quotebound.agent.models.extractive_values import line_value

INCOME = "The median income for a household was $41,200, and the median income for a family was $52,900."


def test_the_value_whose_clause_names_the_asked_thing_is_read() -> None:
    question = analyze("What is the median income for a family in Dunmore?")
    first = line_value(question, INCOME)
    assert first is not None and first.text == "$41,200"
    picked = clause_value(question, INCOME, first)
    assert picked is not None and picked.text == "$52,900"


def test_a_year_in_the_asked_clause_wins_over_a_birth_year() -> None:
    line = "Born in Lisbon in 1961, Ana Rocha first sailed for Portugal in the 1984 Atlantic Cup in Spain."
    question = analyze("When did Rocha first race for Portugal?")
    picked = clause_value(question, line, line_value(question, line))
    assert picked is not None and picked.text == "1984"


def test_the_first_value_stays_when_no_clause_says_more() -> None:
    question = analyze("What is the median income for a household in Dunmore?")
    picked = clause_value(question, INCOME, line_value(question, INCOME))
    assert picked is not None and picked.text == "$41,200"
    assert clause_value(question, INCOME, None) is None


def test_the_subject_s_name_in_a_later_clause_does_not_move_the_value() -> None:
    """Asked where Judge Day was born, "... – July 15, 1936) was a United States federal judge" names the judge,
    not a birth: the first date stays."""
    line = "William Louis Day (August 13, 1876 – July 15, 1936) was a United States federal judge."
    question = analyze("When was Judge Day born?")
    picked = clause_value(question, line, line_value(question, line))
    assert picked is not None and picked.text == "August 13, 1876"


def test_a_date_read_for_a_question_asking_no_date_is_not_moved() -> None:
    line = "William Louis Day (August 13, 1876 – July 15, 1936) was a United States federal judge."
    question = analyze("What is the state where Judge Day was born?")
    picked = clause_value(question, line, line_value(question, line))
    assert picked is not None and picked.text == "August 13, 1876"
