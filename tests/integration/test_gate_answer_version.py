"""A hostile scripted model through the real graph: a "what version" question answered with another thing's
version ("version 3 of the License" for Bash's version) or a heading with no version abstains; the honest
version is answered. The model insists on its draft on every repair turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from quotebound.agent.core.contracts import Support
from quotebound.agent.core.settings import Settings
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store
from tests.integration.test_gate_v2_hostile import answer_message, ask, draft, fact

README = (
    "Introduction\n"
    "============\n"
    "\n"
    "This is GNU Bash, version 5.2.  Bash is the GNU Project's Bourne Again SHell.\n"
    "\n"
    "Bash is free software, distributed under the terms of the GNU General Public License, version 3 of the "
    "License (or any later version).\n"
)
QUESTION = "What version of Bash is this README for?"


def support(number: int) -> Support:
    text = README.split("\n")[number - 1]
    return Support(source_id="bash-README.txt", locator=f"p.1 L{number}-L{number}", quote=text)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "bash-README.txt").write_text(README, encoding="utf-8")
    built = Settings(store=tmp_path / "store", embedder="hashing")
    with Store(built, create=True) as store:
        assert Ingestor(store).ingest([folder]).ok
    return built


@pytest.mark.parametrize(
    ("level1", "line"),
    [
        ("Bash version 3.", 6),  # the License's version given as Bash's
        ("Introduction", 1),  # a heading with no version
    ],
)
def test_a_non_answer_to_a_version_question_abstains(level1: str, line: int, settings: Settings) -> None:
    hostile = draft(level1, [fact(level1, support(line))], level1)
    run = ask(QUESTION, [answer_message(hostile)], settings)
    assert run.turns >= 1
    assert run.envelope.status == "abstain", run.why()


def test_the_honest_version_is_answered(settings: Settings) -> None:
    level1 = "This is GNU Bash, version 5.2."
    honest = draft(level1, [fact(level1, support(4))], "The README is for Bash version 5.2.")
    run = ask(QUESTION, [answer_message(honest)], settings)
    assert run.envelope.status == "answer", run.why()
    assert "5.2" in run.shown
