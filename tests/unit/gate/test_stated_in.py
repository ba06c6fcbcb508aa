"""`stated_in`: the values a draft sentence states, listed without reading their slots, exactly as `occurrences`
would list them."""

from __future__ import annotations

import pytest

from quotebound.agent.gate.slot_items import read_items, value_items
from quotebound.agent.gate.slots import occurrences, stated_in

SENTENCES = [
    "The monthly assessment is $325.00 per unit, due on March 12, 2025.",
    "Unit 3A pays a late charge of 15% after 15 days.",
    "Ellen Marsh chairs the Board; the meeting starts at 7:30 pm.",
    "No figure and no name here.",
    "Owners in Route 31 voted 12 to 3.",
]


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("names", [True, False])
def test_stated_in_lists_what_occurrences_reads(sentence: str, names: bool) -> None:
    expected = tuple((o.text, o.family, o.name_words) for o in occurrences(sentence, names))
    assert stated_in(sentence, names) == expected


def test_stated_in_lists_figures_and_names() -> None:
    found = stated_in("Ellen Marsh paid $325.00 on March 12, 2025.")
    assert [(text, family) for text, family, _ in found] == [
        ("Ellen Marsh", "name"),
        ("$325.00", "amount"),
        ("March 12, 2025", "date"),
    ]


def test_stated_in_leaves_out_a_label_and_plain_words() -> None:
    # "Unit" labels "3A": an identifier, not a value; "pays" is a plain word
    assert [(text, family) for text, family, _ in stated_in("Unit 3A pays $20.", True)] == [("$20", "amount")]
    assert stated_in("no figure and no name here", False) == ()


@pytest.mark.parametrize("sentence", SENTENCES)
@pytest.mark.parametrize("names", [True, False])
def test_value_items_are_read_items_without_words(sentence: str, names: bool) -> None:
    expected = [i for i in read_items(sentence, names, None) if i.kind not in ("word", "gap")]
    assert value_items(sentence, names) == expected


def test_value_items_reads_no_words() -> None:
    found = [(i.kind, i.text) for i in value_items("The fee is $25 for Unit 3A.", True)]
    assert found == [("value", "$25"), ("value", "Unit"), ("code", "3A")]  # "Unit" a name; "fee" a word, not read
    assert value_items("nothing to read here", True) == []
