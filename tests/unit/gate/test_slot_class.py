"""Two documents naming different things of the class a "what <noun>" question asks for (`slot_class.py`), and the
listed-conflicts rule taking such a pair as a real disagreement, while pairs of different slots stay blocked."""

from __future__ import annotations

from collections.abc import Callable

from quotebound.agent.core.contracts import Conflict, ConflictValue, Draft, Fact, Support
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs
from quotebound.agent.gate.rules import listed_conflicts
from quotebound.agent.gate.slot_class import CLASS_MIN, asked_class, of_class
from tests.unit.gate.conftest import build_bundle

SPORT = "What sport is Tim Martin associated with?"
FOOTBALL = "Tim Martin (born April 12, 1976) is a former American football lineman in the Arena Football League."
CRICKET = "Tim Martin, a renowned figure in cricket, is known for his commentary on the sport."
# Cosines as MiniLM gives them (rounded): things of the class score high, other kinds of value low.
SCORES = {
    ("american football", "sport"): 0.60,
    ("cricket", "sport"): 0.64,
    ("arena football league", "sport"): 0.38,
    ("oklahoma wranglers", "sport"): 0.30,
    ("april 12, 1976", "sport"): 0.29,
}


def scorer(a: str, b: str) -> float:
    return SCORES.get((" ".join(a.casefold().split()), b.casefold()), 0.0)


def test_the_class_noun_is_the_noun_a_wh_determiner_takes() -> None:
    assert asked_class(SPORT) == "sport"
    assert asked_class("Which language is the film Choorian in?") == "language"
    assert asked_class("What is the population of Blue Lake Township?") is None  # "what" stands alone
    assert asked_class("Who is the artist of the album?") is None  # no wh-determiner
    assert asked_class("Which Tim Martin played cricket?") is None  # a name, not a class


def test_a_value_is_of_the_class_only_above_the_threshold_and_never_the_class_word_itself() -> None:
    assert of_class("cricket", "sport", scorer)
    assert of_class("American football", "sport", scorer)
    assert not of_class("Arena Football League", "sport", scorer)  # a league
    assert not of_class("the sport", "sport", lambda a, b: 1.0)  # the class, not a thing of it
    assert not of_class("sports", "sport", lambda a, b: 1.0)
    assert not of_class("cricket", "sport", lambda a, b: CLASS_MIN - 0.01)


def _listed(
    make_draft: Callable[..., Draft],
    make_inputs: Callable[..., GateInputs],
    mine: tuple[str, str, str],
    other: tuple[str, str, str],
    question: str = SPORT,
    paraphrase: object = scorer,
) -> list[FindingCode]:
    """The draft answers `mine` (value, quote, source) and lists it against `other`; each passage is resolved."""
    value, quote, source = mine
    answer = Fact(text=quote, support=[Support(source_id=source, locator="p.1 L1-L1", quote=quote)], value=value)
    pair = Conflict(
        key="sport",
        values=[
            ConflictValue(value=value, source_id=source, locator="p.1 L1-L1", quote=quote),
            ConflictValue(value=other[0], source_id=other[2], locator="p.1 L1-L1", quote=other[1]),
        ],
    )
    bundles = tuple({s: build_bundle(s, [q]) for _, q, s in (mine, other)}.values())
    inputs = make_inputs(
        make_draft(answer, conflicts=[pair]), question=question, bundles=bundles, paraphrase=paraphrase
    )
    return [f.code for f in listed_conflicts.check(inputs)]


def test_two_documents_naming_two_sports_of_the_subject_are_a_real_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """The sentences share no frame ("a former American football lineman" / "a renowned figure in cricket"), but
    each names Tim Martin and a sport: what the question asks, given two ways."""
    found = _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), ("cricket", CRICKET, "b.txt"))
    assert found == []


def test_a_fake_conflict_of_two_slots_of_one_subject_across_documents_stays_blocked(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """The attacker's loosening: two documents about Tim Martin, but the other value is a league, a team or a date,
    not a sport; or both values come from one document; or no scorer models meaning; or the question asks no class."""
    not_real = [FindingCode.CONFLICT_NOT_REAL]
    league = ("Arena Football League", "Tim Martin played eight seasons in the Arena Football League.", "b.txt")
    assert _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), league) == not_real
    team = ("Oklahoma Wranglers", "Tim Martin was signed by the Oklahoma Wranglers.", "b.txt")
    assert _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), team) == not_real
    one_document = ("cricket", CRICKET, "a.txt")
    assert _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), one_document) == not_real
    cricket = ("cricket", CRICKET, "b.txt")
    assert _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), cricket, paraphrase=None) == (
        not_real
    )
    who = "Who is Tim Martin?"
    assert _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), cricket, question=who) == (
        not_real
    )


def test_a_thing_of_the_class_said_of_another_subject_is_no_conflict(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    """The other document's sentence is about someone else: the subject is not named in full."""
    other_person = ("cricket", "Jim Martin, a renowned figure in cricket, is known for his commentary.", "b.txt")
    found = _listed(make_draft, make_inputs, ("American football", FOOTBALL, "a.txt"), other_person)
    assert found == [FindingCode.CONFLICT_NOT_REAL]
