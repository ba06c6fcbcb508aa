"""A numbered section states which section it is, though it never writes the word."""

from __future__ import annotations

from quotebound.agent.models.extractive_section import part_credit, section_number


def test_a_line_opening_with_its_number_is_that_section() -> None:
    assert section_number("   7. Disclaimer of Warranty. Unless required by applicable law") == "7"
    assert section_number("5.2. If You initiate litigation against any entity") == "5.2"
    assert section_number("10.3 Modified Versions") == "10.3"


def test_a_count_or_a_year_opening_a_line_is_no_section() -> None:
    assert section_number("30 days after Your receipt of the notice") is None
    assert section_number("12 Units are let to tenants") is None
    assert section_number("3.5 million were spent") is None
    assert section_number("2007. A year later") is None


def test_only_a_word_naming_a_numbered_part_gets_credit() -> None:
    assert part_credit("section", "8. Termination.") == 1.0
    assert part_credit("warranty", "8. Termination.") == 0.0
    assert part_credit("section", "Termination of the license.") == 0.0
