"""A "which/what version" question needs a version value, and that value bound to what the question asks the
version of: a heading without one, or another thing's version ("version 3 of the License" for Bash), is not an
answer; an honest version passes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import Draft, Fact, Support
from quotebound.agent.gate.answer_version import gives_version, of_other, version_values
from quotebound.agent.gate.findings import FindingCode
from quotebound.agent.gate.inputs import GateInputs, SourceInfo
from quotebound.agent.gate.question import read_question
from quotebound.agent.gate.rules import answerhood
from quotebound.agent.gate.vocabulary import stem

SOURCES = (SourceInfo("bash-README.txt", "bash-README"), SourceInfo("Apache-2.0.txt", "Apache License"))
LINES = {
    "release": ("bash-README.txt", "This is GNU Bash, version 5.2."),
    "intro": ("bash-README.txt", "Introduction"),
    "license": (
        "bash-README.txt",
        "Bash is free software, distributed under the terms of the [GNU] General Public License as published by "
        "the Free Software Foundation, version 3 of the License (or any later version).",
    ),
    "apache": ("Apache-2.0.txt", "Version 2.0, January 2004"),
    "older": ("bash-README.txt", "Incompatibilities with previous versions, bash-4.4, bash-5.0, and bash-5.1."),
    "both": ("bash-README.txt", "This is GNU Bash, version 5.2, licensed under version 3 of the License."),
}


def fact(name: str) -> Fact:
    source, line = LINES[name]
    return Fact(text=line, support=[Support(source_id=source, locator="p.1 L1-L1", quote=line)])


def judge(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs], q: str, a: str, n: str
) -> list[str]:
    draft = make_draft(fact(n), level1=a, answer=a)
    findings = answerhood.check(make_inputs(draft, question=q, sources=SOURCES))
    assert all(f.code is FindingCode.NOT_AN_ANSWER for f in findings)
    return [f.message for f in findings]


@pytest.mark.parametrize(
    "question",
    [
        "What version of Bash is this README for?",
        "Which bc version does this describe?",
        "Which version of Perl is the Artistic License distributed with?",
        "In which version of the License was this added?",
    ],
)
def test_a_which_version_question_asks_for_a_version(question: str) -> None:
    assert read_question(question).expects == "version"


@pytest.mark.parametrize("question", ["What is Bash?", "Which section covers versions?", "When was version 2.0 out?"])
def test_other_questions_do_not_ask_for_a_version(question: str) -> None:
    assert read_question(question).expects != "version"


def test_a_version_value_is_a_figure_a_code_or_a_relative_version() -> None:
    q = read_question("What version of Bash is this README for?")
    assert gives_version(q, "Version 5.2.") and gives_version(q, "GPLv3") and gives_version(q, "The latest version.")
    assert not gives_version(q, "GNU Bash.") and not gives_version(q, "Introduction")
    assert [f.text for f in version_values(q, "Bash 5.2, released in June 2022")] == ["5.2"]


def test_a_figure_given_as_the_version_of_another_thing_is_found() -> None:
    bash = frozenset({stem("bash")})
    line = LINES["license"][1]
    (three,) = [f for f in version_values(read_question("Which version?"), line) if f.text == "3"]
    assert of_other(bash, line, three) == "the License"
    assert of_other(frozenset({stem("license")}), line, three) is None  # the License's own version
    (five,) = version_values(read_question("Which version?"), LINES["release"][1])
    assert of_other(bash, LINES["release"][1], five) is None  # no "of": the sentence's own subject's version


@pytest.mark.parametrize(
    ("question", "answer", "line"),
    [
        ("What version of Bash is this README for?", "Version 5.2.", "release"),
        ("What version of Bash is this README for?", "This is GNU Bash, version 5.2.", "release"),
        ("Which version of the Apache License is this?", "Version 2.0, January 2004.", "apache"),
        ("Which version of the General Public License covers Bash?", "Version 3 of the License.", "license"),
    ],
)
def test_an_honest_version_passes(
    question: str, answer: str, line: str, make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    assert judge(make_draft, make_inputs, question, answer, line) == []


def test_a_heading_without_a_version_is_not_an_answer(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    (message,) = judge(make_draft, make_inputs, "What version of Bash is this README for?", "Introduction", "intro")
    assert "which version (a version number)" in message


def test_another_things_version_is_not_an_answer(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    answer = "Bash is distributed under version 3 of the License."
    messages = judge(make_draft, make_inputs, "What version of Bash is this README for?", answer, "license")
    assert len(messages) == 1 and "as the version of 'the License'" in messages[0]


def test_versions_glued_to_another_name_do_not_answer(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    messages = judge(make_draft, make_inputs, "Which bc version does Bash use?", LINES["older"][1], "older")
    assert len(messages) == 1 and "as the version of 'bash'" in messages[0]
    assert judge(make_draft, make_inputs, "Which Bash version came before 5.2?", LINES["older"][1], "older") == []


def test_one_version_of_the_thing_asked_is_enough(
    make_draft: Callable[..., Draft], make_inputs: Callable[..., GateInputs]
) -> None:
    answer = LINES["both"][1]
    assert judge(make_draft, make_inputs, "What version of Bash is this README for?", answer, "both") == []
