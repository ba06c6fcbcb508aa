"""The preflight's content words of a question, without a store."""

from __future__ import annotations

from quotebound.graphs.preflight import content_words


def test_a_one_digit_identifier_is_a_content_word_of_the_question() -> None:
    # "Camera 2" names one camera: the question is specific, not too short to ground ("add more detail")
    assert content_words("Where is Camera 2 and what are its coordinates?") == ["camera", "2", "coordinates"]
    assert content_words("Is a pet allowed?") == ["pet", "allowed"]  # a one-letter word stays a fragment
