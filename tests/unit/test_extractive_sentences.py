"""Hard-wrapped prose is read as sentences: one unit per sentence, quoted verbatim with its line breaks, the
locator spanning its lines; a line that is a sentence stays that line."""

from __future__ import annotations

from quotebound.agent.models.extractive_pool import Line, LinePool
from quotebound.agent.models.extractive_sentences import runs, sentences

WRAPPED = [
    (10, "Any litigation relating to this License may be brought only in the"),
    (11, "courts of a jurisdiction where the defendant maintains its principal"),
    (12, "place of business. Nothing in this Section shall prevent a party's"),
    (13, "ability to bring cross-claims or counter-claims."),
]


def test_a_wrapped_run_is_split_into_its_sentences_with_their_line_spans() -> None:
    found = sentences(WRAPPED)
    assert [(a, b) for a, b, _ in found] == [(10, 12), (12, 13)]
    assert found[0][2] == "\n".join(t for _, t in WRAPPED[:2]) + "\nplace of business."
    assert (
        found[1][2]
        == "Nothing in this Section shall prevent a party's\nability to bring cross-claims or counter-claims."
    )


def test_one_sentence_per_line_keeps_each_line_as_read() -> None:
    lines = [(1, "Dogs must be leashed.  "), (2, "No pet may be kept for breeding.")]
    assert sentences(lines) == [(1, 1, "Dogs must be leashed.  "), (2, 2, "No pet may be kept for breeding.")]


def test_sentences_starting_on_one_line_share_a_unit() -> None:
    lines = [(1, "Section 4.1. Number. The Board has"), (2, "five directors.")]
    assert sentences(lines) == [(1, 2, "Section 4.1. Number. The Board has\nfive directors.")]


def test_blank_lines_list_items_tables_and_gaps_break_runs() -> None:
    lines = [(1, "A sentence"), (2, "- a list item"), (3, "| a | row |"), (5, "after a gap"), (6, "## Heading")]
    assert [[n for n, _ in run] for run in runs(lines)] == [[1], [2], [3], [5], [6]]
    assert [[n for n, _ in run] for run in runs(WRAPPED)] == [[10, 11, 12, 13]]


def test_the_pools_candidates_are_sentences_with_spanning_locators() -> None:
    pool = LinePool()
    for n, text in WRAPPED:
        pool.add(Line("MPL.txt", 1, n, text))
    units = pool.candidates()
    assert [u.locator for u in units] == ["p.1 L10-L12", "p.1 L12-L13"]
    assert "may be brought only in the\ncourts" in units[0].text


def test_only_a_hard_wrap_joins_lines() -> None:
    title = [(1, "Stranger than Fiction (2000 film)"), (2, "Stranger Than Fiction is a 2000 comedy-thriller film.")]
    menu = [(1, "Follow"), (2, "No responses yet"), (3, "Help")]
    paragraph = "A long paragraph that was never wrapped at a column and simply runs on and on " * 2
    unwrapped = [(1, paragraph), (2, "and the next paragraph starts here.")]
    ended = [(1, "The minimum lease term is twelve (12) months, as the Board set it."), (2, "Dogs must be leashed.")]
    for lines in (title, menu, unwrapped, ended):
        assert len(runs(lines)) == len(lines)
