"""Clarify from the corpus: "my license" over several documents titled as licenses asks which one, offering the
titles as options; one such document, a title where the noun only qualifies ("Unit Schedule"), or a question naming
the one license (`question_scope`), asks nothing."""

from __future__ import annotations

import uuid
from pathlib import Path

from quotebound.agent.core.contracts import AskRequest, ClarifyEnvelope
from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

_SIDECAR = "policy_label: public\nprovenance_kind: primary\n"
_LICENSES = {
    "apache.txt": "Apache License\n    Version 2.0, January 2004\n\nThis License requires a copy of this License.\n",
    "gpl.txt": "GNU GENERAL PUBLIC LICENSE\nVersion 3, 29 June 2007\n\nThis License requires the source code.\n",
    "mit.txt": "MIT License\n\nThis license requires the copyright notice in all copies.\n",
}


def _ask(root: Path, files: dict[str, str], question: str) -> object:
    docs = root / "docs"
    docs.mkdir()
    for name, text in files.items():
        (docs / name).write_text(text, encoding="utf-8")
        (docs / f"{name}.meta.yaml").write_text(_SIDECAR, encoding="utf-8")
    settings = Settings(store=root / "store", embedder="hashing")
    with Store(settings, create=True) as store:
        Ingestor(store).ingest([docs])
    with Agent(settings, model="extractive") as agent:
        return agent.ask(AskRequest(question=question, session_id=uuid.uuid4().hex))


def test_my_license_over_three_titled_licenses_asks_which_with_their_titles(tmp_path: Path) -> None:
    envelope = _ask(tmp_path, _LICENSES, "What does my license require?")
    assert isinstance(envelope, ClarifyEnvelope), envelope
    [question] = envelope.questions
    assert question.field == "license"
    assert question.options == ["Apache License Version 2.0", "GNU GENERAL PUBLIC LICENSE Version 3", "MIT License"]


def test_one_titled_license_asks_nothing(tmp_path: Path) -> None:
    envelope = _ask(tmp_path, {"mit.txt": _LICENSES["mit.txt"]}, "What does my license require?")
    assert not isinstance(envelope, ClarifyEnvelope), envelope


def test_a_question_naming_one_license_does_not_ask_which(tmp_path: Path) -> None:
    envelope = _ask(tmp_path, _LICENSES, "Under GPLv3, what does my license require?")
    assert not isinstance(envelope, ClarifyEnvelope), envelope


def test_a_question_naming_a_document_of_another_kind_still_asks(tmp_path: Path) -> None:
    files = {**_LICENSES, "budget-2025.md": "# Annual Budget 2025\n\nThe budget funds the legal review.\n"}
    envelope = _ask(tmp_path, files, "Under the 2025 budget, what does my license require?")
    assert isinstance(envelope, ClarifyEnvelope), envelope
