"""Yes/no questions: the fronted phrase before the asking clause, and deontic words said by any deontic word."""

from __future__ import annotations

from quotebound.agent.models.extractive_polarity import modal_senses, polar_text, without_heading
from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_question import analyze, asks_polarity
from quotebound.agent.models.extractive_rank import rank
from quotebound.agent.models.extractive_score import build_index
from quotebound.agent.models.extractive_thresholds import Thresholds


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


def test_a_yes_no_answer_leads_with_what_the_quote_settles() -> None:
    asked = "Am I allowed to charge a fee for the package itself?"
    words = analyze(asked).words
    denied = polar_text(asked, words, "You may not charge a fee for this Package itself. However, you may copy it.")
    assert denied.startswith("No. You may not charge a fee")
    assert polar_text(asked, words, "You may charge a fee for the Package itself.").startswith("Yes. ")
    duty = "Must dogs be leashed in the Common Area?"
    assert polar_text(duty, analyze(duty).words, "Dogs must be leashed at all times.") == (
        "Yes. Dogs must be leashed at all times."
    )
    assert polar_text(duty, analyze(duty).words, "Leashes are not required in the Common Area.").startswith("No. ")
    # a plain question, or a quote that states no modality, gets the quote alone: nothing to settle
    plain = "Does the license cover patents?"
    assert polar_text(plain, analyze(plain).words, "The license does not cover patents.") == (
        "The license does not cover patents."
    )
    assert polar_text(asked, words, "A fee is charged for support.") == "A fee is charged for support."


def test_a_numbered_heading_fused_to_the_sentence_is_no_part_of_the_answer() -> None:
    assert without_heading("6. Trademarks. This License does not grant permission.") == (
        "This License does not grant permission."
    )
    assert without_heading("7. Disclaimer of Warranty. Licensor provides the Work as is.").startswith("Licensor")
    assert without_heading("a. No trademark or patent rights are waived.") == (
        "a. No trademark or patent rights are waived."
    )
    assert without_heading("7. Disclaimer of Warranty.") == "7. Disclaimer of Warranty."


def test_a_conditional_rule_gets_no_bare_lead() -> None:
    asked = "Can I use the University's name to promote a product?"
    quote = "The name of the University may not be used to promote products without prior written permission."
    assert polar_text(asked, analyze(asked).words, quote) == quote
