"""Yes/no questions: the fronted phrase before the asking clause, and deontic words said by any deontic word."""

from __future__ import annotations

from quotebound.agent.models.extractive_lines import Line, LinePool, Thresholds, build_index, rank
from quotebound.agent.models.extractive_polarity import modal_senses
from quotebound.agent.models.extractive_text import analyze, asks_polarity


def test_an_auxiliary_after_a_fronted_phrase_asks_yes_or_no() -> None:
    assert asks_polarity("Under the Artistic License, am I allowed to charge money for the package itself?")
    assert asks_polarity("According to the Bylaws, does the board meet monthly?")
    assert analyze("Under the lease, is a fee charged for parking?").kind is None  # not an amount: yes or no
    assert not asks_polarity("When the bill is late, how much is the fee?")
    assert not asks_polarity("In 2019, what was the revenue?")
    assert not asks_polarity("What, if anything, is due?")


def test_deontic_words_of_a_yes_no_question_are_said_by_any_deontic_word() -> None:
    found = modal_senses(("allowed", "charge", "fee"), polar=True)
    assert set(found) == {"allowed"}
    assert found["allowed"]["may"] == 1.0 and "prohibited" in found["allowed"]
    assert modal_senses(("allowed", "charge"), polar=False) == {}


def test_a_line_stating_the_act_with_another_modal_answers_a_yes_no_question() -> None:
    question = analyze("Am I allowed to charge a fee for the package itself?")
    pool = LinePool()
    pool.add(Line("license.txt", 1, 1, "You may not charge a fee for this Package itself."))
    pool.add(Line("license.txt", 1, 2, "The Package is distributed in source form."))
    ranked = rank(question, build_index(question, pool), pool, Thresholds())
    assert [s.line.line_no for s in ranked] == [1]
    # the same words asked as a what-question give "may" no credit: the line then misses "allowed"
    other = analyze("What fee for the package itself is allowed?")
    scored = rank(other, build_index(other, pool), pool, Thresholds())
    assert all(s.coverage < ranked[0].coverage for s in scored)
