"""Which readable documents a question names (`question_scope`): codes, titled names, versions, and the gate's
own document phrases; ordinary capitalized words name nothing."""

from __future__ import annotations

from quotebound.agent.gate.inputs import SourceInfo
from quotebound.agent.gate.question_scope import names_of, scoped_sources

LICENSES = (
    SourceInfo("Apache-2.0.txt", "Apache License"),
    SourceInfo("Artistic.txt", 'The "Artistic License"'),
    SourceInfo("BSD.txt", "Copyright (c) The Regents of the University of California."),
    SourceInfo("CC0-1.0.txt", "Creative Commons Legal Code"),
    SourceInfo("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"),
    SourceInfo("MPL-2.0.txt", "Mozilla Public License Version 2.0"),
    SourceInfo("man-db-FAQ.txt", "Frequently Asked Questions"),
)
HOA = (
    SourceInfo("board-minutes-2025-03.md", "Cedar Hollow Owners Association — Minutes of the Regular Board Meeting"),
    SourceInfo("budget-2025.md", "Cedar Hollow Owners Association — Annual Budget, Fiscal Year 2025"),
    SourceInfo("bylaws.md", "Bylaws of Cedar Hollow Owners Association"),
    SourceInfo("unit-schedule.md", "Cedar Hollow Owners Association — Unit Schedule (Exhibit B to the Declaration)"),
)


def test_codes_name_a_document_by_its_id_or_its_titles_acronym() -> None:
    assert scoped_sources("Can a CC0 waiver be taken back later?", LICENSES) == {"CC0-1.0.txt"}
    assert scoped_sources("Under GPLv3, how long must an offer stay valid?", LICENSES) == {"GPL-3.txt"}
    assert scoped_sources("How long do I have to fix a violation under the MPL?", LICENSES) == {"MPL-2.0.txt"}
    assert scoped_sources("When did man and man-db split from each other?", LICENSES) == {"man-db-FAQ.txt"}


def test_a_titled_name_holds_its_words_and_its_kind() -> None:
    assert scoped_sources("Which court handles disputes under the Apache License?", LICENSES) == {"Apache-2.0.txt"}
    assert scoped_sources("If an Apache-licensed work infringes, what then?", LICENSES) == {"Apache-2.0.txt"}
    assert scoped_sources("Who publishes the Mozilla Public License?", LICENSES) == {"MPL-2.0.txt"}
    # the acronym is more precise than the kind every "... License" title shares
    assert scoped_sources("In what year was the BSD license first published?", LICENSES) == {"BSD.txt"}
    assert scoped_sources("How much does the Association budget for pest control?", HOA) == {"budget-2025.md"}


def test_a_version_keeps_the_sources_that_carry_it() -> None:
    two = (SourceInfo("GPL-2.txt", "GNU GENERAL PUBLIC LICENSE"), SourceInfo("GPL-3.txt", "GNU GENERAL PUBLIC LICENSE"))
    assert scoped_sources("When did the GNU GPL version 3 come out?", two) == {"GPL-3.txt"}
    assert scoped_sources("What does GPLv2 say about patents?", two) == {"GPL-2.txt"}


def test_ordinary_words_and_possessives_name_nothing() -> None:
    assert scoped_sources("How many directors sit on the Board?", HOA) == frozenset()
    assert scoped_sources("What is the monthly regular assessment per Unit?", HOA) == frozenset()
    assert scoped_sources("What does my license require?", LICENSES) == frozenset()


def test_the_gates_document_phrases_still_name() -> None:
    assert scoped_sources("When did the Board adopt the FY2025 budget?", HOA) == {"budget-2025.md"}


def test_names_of_reads_a_code_through_the_title() -> None:
    budget = [HOA[1]]
    assert names_of("FY2025", budget) and names_of("budget", budget)
    assert not names_of("FY2024", budget) and not names_of("adopt", budget)


def test_a_code_is_matched_to_ids_and_acronyms_not_to_title_words() -> None:
    pages = (
        SourceInfo("q-d00.txt", "Danger Mouse (1981 TV series)"),
        SourceInfo("q-d01.txt", "Danger Mouse (2015 TV series)"),
        SourceInfo("q-d02.txt", "Danger Mouse"),
    )
    assert scoped_sources("When was the Danger Mouse TV series released?", pages) == frozenset()
