"""Scripted models through the real graph over two licenses: "the BSD license" names BSD.txt (whose first line, its
title, never says "license") by its distinctive word, so the honest answer from it ships, and an answer from the
other license, which the kind word "license" would have named, abstains. The model insists on its draft."""

from __future__ import annotations

from pathlib import Path

from quotebound.agent.core.contracts import Support
from quotebound.agent.core.settings import Settings
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store
from tests.integration.test_gate_v2_hostile import answer_message, ask, draft, fact

DOCS = {
    "BSD.txt": (
        "Copyright (c) The Regents of the University of California.\n"
        "All rights reserved.\n"
        "\n"
        "Redistribution and use in source and binary forms, with or without modification, are permitted.\n"
    ),
    "Apache-2.0.txt": ("Apache License\nVersion 2.0, January 2004\n\nCopyright 2004 The Apache Software Foundation.\n"),
}
QUESTION = "Who owns the copyright in the BSD license text?"


def support(source_id: str, number: int) -> Support:
    text = DOCS[source_id].split("\n")[number - 1]
    return Support(source_id=source_id, locator=f"p.1 L{number}-L{number}", quote=text)


def settings(tmp_path: Path, docs: dict[str, str]) -> Settings:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in docs.items():
        (folder / name).write_text(text, encoding="utf-8")
    built = Settings(store=tmp_path / "store", embedder="hashing")
    with Store(built, create=True) as store:
        assert Ingestor(store).ingest([folder]).ok
    return built


def test_the_named_documents_answer_ships(tmp_path: Path) -> None:
    # the other license states no copyright holder here: a second holder would be a disagreement to list
    docs = {**DOCS, "Apache-2.0.txt": DOCS["Apache-2.0.txt"].rsplit("Copyright", 1)[0]}
    level1 = "The Regents of the University of California own the copyright."
    honest = draft(level1, [fact(level1, support("BSD.txt", 1))], level1)
    run = ask(QUESTION, [answer_message(honest)], settings(tmp_path, docs))
    assert run.envelope.status == "answer", run.why()


def test_an_answer_from_another_license_abstains(tmp_path: Path) -> None:
    level1 = "The Apache Software Foundation owns the copyright."
    hostile = draft(level1, [fact(level1, support("Apache-2.0.txt", 4))], level1)
    run = ask(QUESTION, [answer_message(hostile)], settings(tmp_path, DOCS))
    assert run.turns >= 1
    assert run.envelope.status == "abstain", run.why()
    assert "Apache Software Foundation" not in run.shown
