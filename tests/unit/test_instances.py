"""The instances a corpus tells apart, read from its text without a store: a document title's name for a kind of
thing ("Apache License"), and the spelling each instance is offered with."""

from __future__ import annotations

import pytest

from quotebound.tools.instances import spelled_instances, title_instance


@pytest.mark.parametrize(
    ("lines", "noun", "name"),
    [
        (["Apache License", "      Version 2.0, January 2004", "", "Terms"], "license", "Apache License Version 2.0"),
        (["GNU GENERAL PUBLIC LICENSE", "Version 3, 29 June 2007"], "license", "GNU GENERAL PUBLIC LICENSE Version 3"),
        (["Mozilla Public License Version 2.0", "====="], "licenses", "Mozilla Public License Version 2.0"),
        (["", "The MIT License (MIT)", "Copyright (c) 2024"], "license", "MIT License"),
        (["# Bylaws of Cedar Hollow Owners Association"], "association", "Cedar Hollow Owners Association"),
    ],
)
def test_a_title_names_the_thing_its_noun_heads(lines: list[str], noun: str, name: str) -> None:
    assert title_instance(lines, noun) == name


@pytest.mark.parametrize(
    ("lines", "noun"),
    [
        (["# Cedar Hollow Owners Association — Unit Schedule (Exhibit B)"], "unit"),  # "Unit" qualifies the schedule
        (["Copyright (c) 2020 the license holders"], "license"),  # a lowercase mention names nothing
        (["Terms of use", "", "This License applies to the Work."], "license"),  # only the title names a document
        ([], "license"),
    ],
)
def test_a_title_that_does_not_name_one_gives_none(lines: list[str], noun: str) -> None:
    assert title_instance(lines, noun) is None


def test_instances_keep_their_first_spelling_for_offering() -> None:
    table = ["| Unit | Plan |", "|---|---|", "| 1A | Douglas |", "| 1b | Aspen |", "Unit 1a faces north."]
    assert spelled_instances(table, "unit") == {"1a": "1A", "1b": "1b"}
