"""A copied frame: another document repeating a value's sentence word for word around it, with another value."""

from __future__ import annotations

from quotebound.agent.gate.slot_copy import copied_frame, shared_around, swapped
from quotebound.agent.gate.slots import Occurrence, occurrences

BRIDGE = (
    "The Harbor Bridge is a steel arch bridge designed by engineer Anna Holm, opened on 4 May 1932 by the Port"
    " Authority."
)
COPY = "The steel arch bridge designed by engineer The Vos Partnership, opened on 4 May 1932 by the Port Authority."


def value(sentence: str, text: str) -> Occurrence:
    return next(o for o in occurrences(sentence, True) if text in o.text)


def test_a_sentence_repeating_the_words_on_both_sides_of_a_value_is_a_copy() -> None:
    """The copy lost the bridge's name and an article of the name ("The Vos Partnership") is the name's own word."""
    holm, vos = value(BRIDGE, "Anna Holm"), value(COPY, "Vos")
    assert shared_around(holm, vos) == (6, 9)
    assert copied_frame(holm, vos) and copied_frame(vos, holm)


def test_a_template_sentence_of_two_documents_is_no_copy() -> None:
    """A few words of a census template, and the next figure ends the run: two towns, not one copied statement."""
    a = value("As of the census of 2000, there were 428 people, 160 households, and 120 families.", "428")
    b = value("As of the census of 2000, there were 913 people, 351 households, and 240 families.", "913")
    assert shared_around(a, b) == (8, 1)
    assert not copied_frame(a, b)
    short = value("The population was 428 at the 2000 census.", "428")
    assert not copied_frame(short, value("The population was 913 at the 2000 census.", "913"))


def test_words_repeated_on_one_side_only_are_no_copy() -> None:
    a = value("It was opened on 4 May 1932 by the Port Authority of the city of Halden.", "Port Authority")
    b = value("A ferry was launched by the Port Authority of the city of Halden.", "Port Authority")
    left, right = shared_around(a, b)
    assert left < 3 <= right and not copied_frame(a, b)


def test_values_of_two_families_or_one_sentence_are_no_copy() -> None:
    holm = value(BRIDGE, "Anna Holm")
    assert not copied_frame(holm, value(BRIDGE, "4 May 1932"))
    assert not copied_frame(holm, holm)


def test_a_copy_swapping_a_few_words_gives_the_spans_of_each_side() -> None:
    """Lowercase words are swapped too, and a word repeated before the swap may follow other words in one copy."""
    ours = "Kestrel Tower Kestrel Tower, painted the deep green of the harbour cranes, is a lattice mast of the port."
    theirs = "Kestrel Tower, painted the pale grey of the harbour cranes, is a lattice mast of the port."
    spans = swapped(ours, theirs)
    assert spans is not None
    (a0, a1), (b0, b1) = spans
    assert (ours[a0:a1], theirs[b0:b1]) == ("deep green", "pale grey")


def test_sentences_alike_at_one_end_only_or_unchanged_are_no_swap() -> None:
    ours = "The tower is a lattice mast of the port and was painted green in 1932 by the city."
    assert swapped(ours, ours) is None
    assert swapped(ours, "A crane was painted green in 1932 by the city.") is None  # nothing repeated before
    assert swapped(ours, "The tower is a lattice mast of the port and was taken down in 1990.") is None


def test_a_word_added_beside_a_kept_word_is_no_swap() -> None:
    """A reference mark after a kept word ("census [5]") changes nothing the sentence says."""
    ours = "As of the census of 2000, there were 1,791 people, 699 households, and 445 families residing in the city."
    theirs = (
        "As of the census [5] of 2000, there were 1,791 people, 699 households, and 445 families residing in the city."
    )
    assert swapped(ours, theirs) is None
