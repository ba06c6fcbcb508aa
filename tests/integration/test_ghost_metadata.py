"""No ghost metadata (adr-0010 G5/G6): for a caller who may not read a source, that source does not exist.

Tested as comparisons, never as "the name does not appear" alone: what a public caller gets when the only answer
is in a restricted source equals, field by field (ids and timings aside), what they get when no source mentions
the subject at all, and what they get from a store where the restricted source was never ingested.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.cli.main import main as cli_main
from quotebound.agent.core.contracts import AskRequest
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hoa"
RESTRICTED = "security-gate-codes.md"
# Each is answered only by the restricted sheet (its gate codes, camera coordinates, patrol officer).
ONLY_IN_RESTRICTED = [
    "What is the master override code for the gate operator?",
    "What are the coordinates of camera 3?",
    "Who is the night patrol officer?",
]
NOWHERE = "What is the master override code for the helipad beacon?"
VARIABLE = {("audit_ref",), ("meta", "run_id"), ("meta", "latency_ms")}


def _ingest(root: Path, *, without: str | None = None) -> Path:
    docs = root / "docs"
    shutil.copytree(EXAMPLES, docs)
    if without:
        (docs / without).unlink()
        (docs / f"{without}.meta.yaml").unlink()
    store = root / "store"
    with Store(Settings(store=store, embedder="hashing"), create=True) as opened:
        assert Ingestor(opened).ingest([docs]).ok
    return store


@pytest.fixture(scope="module")
def with_restricted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _ingest(tmp_path_factory.mktemp("with"))


@pytest.fixture(scope="module")
def without_restricted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _ingest(tmp_path_factory.mktemp("without"), without=RESTRICTED)


def _stable(envelope: dict[str, Any], path: tuple[str, ...] = ()) -> Any:
    """The envelope without the fields that differ between any two runs (ids and timings)."""
    if isinstance(envelope, dict):
        return {k: _stable(v, (*path, k)) for k, v in envelope.items() if (*path, k) not in VARIABLE}
    if isinstance(envelope, list):
        return [_stable(v, path) for v in envelope]
    return envelope


def _ask(store: Path, question: str, role: str = "public") -> dict[str, Any]:
    with Agent(Settings(store=store, embedder="hashing")) as agent:
        return agent.ask(AskRequest(question=question, session_id=uuid.uuid4().hex, role=role)).model_dump(mode="json")


@pytest.mark.parametrize("question", ONLY_IN_RESTRICTED)
def test_a_restricted_answer_reads_exactly_like_a_store_without_the_source(
    question: str, with_restricted: Path, without_restricted: Path
) -> None:
    hidden = _ask(with_restricted, question)
    absent = _ask(without_restricted, question)
    assert hidden["status"] == "abstain", hidden
    assert _stable(hidden) == _stable(absent)


@pytest.mark.parametrize("question", ONLY_IN_RESTRICTED)
def test_a_restricted_answer_reads_exactly_like_a_question_about_nothing(question: str, with_restricted: Path) -> None:
    hidden = _stable(_ask(with_restricted, question))
    nothing = _stable(_ask(with_restricted, NOWHERE))
    assert hidden == nothing
    assert hidden["reason_code"] == "no_evidence"
    text = str(hidden).casefold()
    for leak in ("security", "restricted", "gate-codes", "4417", "70315", "44.05", "alvarez", "sentinel"):
        assert leak not in text, leak


def test_the_check_can_tell_a_readable_answer_apart(with_restricted: Path) -> None:
    # The comparison above is not vacuous: a question the public documents answer gets a different envelope.
    public = _stable(_ask(with_restricted, "What is the minimum lease term?"))
    nothing = _stable(_ask(with_restricted, NOWHERE))
    assert public["status"] == "answer" and public != nothing


def test_tool_errors_for_a_hidden_source_read_like_a_missing_one(
    with_restricted: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for source in (RESTRICTED, "no-such-document.md"):
        args = f'{{"source_id": "{source}", "locator": "p.1 L1-L3"}}'
        code = cli_main(["tool", "quote_fetch", "--store", str(with_restricted), args])
        captured = capsys.readouterr()
        outputs.append((code, (captured.out + captured.err).replace(source, "<SOURCE>")))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] != 0 and "unknown source '<SOURCE>'" in outputs[0][1], outputs[0]
