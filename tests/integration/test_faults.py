"""Faults fail closed: a broken vector store, a corrupt locator index, a model that raises or hangs, a tool that
raises and a gate that raises each end the run in an abstention with the right reason code and a receipt, in
whichever node they strike (retrieve, resolve, draft, validate, repair). Never a crash, never an answer, and
never the exception's text in what the caller (or the receipt) sees: that goes to the operator's log.

Faults are injected for real wherever that is possible: folders deleted or overwritten, SQLite rows and pages
corrupted under an open agent, a Qdrant URL nobody listens on, a model that outlives its deadline.
"""

from __future__ import annotations

import logging
import shutil
import socket
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerEnvelope,
    AnswerLevels,
    AnswerObject,
    AskRequest,
    Draft,
    Fact,
    Support,
)
from quotebound.agent.core.settings import AttemptLimits, Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.base import DraftingModel, DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from quotebound.testing import FaultyModel, answer_message, call_message, scripted_model
from quotebound.tools.registry import ToolRegistry
from quotebound.tools.store import Store

QUESTION = "What is the minimum lease term for renting out a unit?"  # answerable; long enough to skip clarify
LEASE_SOURCE = "declaration.md"
# Text no exception message may carry into an envelope or a receipt.
SECRET = "SECRET-7f3a: /srv/internal/db.sqlite password=hunter2"


def open_agent(store_dir: Path, model: Any = "extractive", **settings: Any) -> Agent:
    return Agent(Settings(store=store_dir, embedder="hashing", **settings), model=model)


@dataclass
class Outcome:
    envelope: Any
    receipt: dict[str, Any]


def ask(agent: Agent, question: str = QUESTION) -> Outcome:
    envelope = agent.ask(AskRequest(question=question, session_id=uuid.uuid4().hex))
    entry = agent.ledger.get(envelope.audit_ref)
    assert entry is not None, "every run, however it ends, writes a receipt"
    return Outcome(envelope, entry["body"])


def assert_fails_closed(outcome: Outcome, reason: str, node: str) -> None:
    """An abstention for `reason`, raised in `node`, that shows nothing of any draft and leaks no exception text."""
    envelope, receipt = outcome.envelope, outcome.receipt
    assert isinstance(envelope, AbstainEnvelope), envelope
    assert envelope.reason_code == reason, (envelope.reason_code, receipt.get("failure_detail"))
    assert envelope.evidence is None  # an unverified or partial draft never reaches the caller
    assert receipt["status"] == "abstain" and receipt["reason_code"] == reason
    assert receipt["path"][-2:] == [node, "abstain"], receipt["path"]
    assert SECRET not in envelope.model_dump_json()
    assert SECRET not in str(receipt)


def set_page_lines(store_dir: Path, value: str) -> None:
    """Corrupt the locator index of `store_dir` through a second connection, as another process would."""
    with sqlite3.connect(store_dir / "index.sqlite") as db:
        db.execute("UPDATE source_locator_index SET page_lines = ?", (value,))
    db.close()


def lease_draft(quote: str = "The minimum lease term is twelve (12) months.") -> Draft:
    level1 = "The minimum lease term is twelve (12) months."
    return Draft(
        levels=AnswerLevels(level1=level1, level2=f"See {LEASE_SOURCE}.", level3=f"Citations: {LEASE_SOURCE}"),
        evidence=AnswerObject(
            mode="answer",
            answer=level1,
            facts=[Fact(text=level1, support=[Support(source_id=LEASE_SOURCE, locator="p.1 L51-L51", quote=quote)])],
        ),
    )


@dataclass
class Saboteur:
    """Delegates to `inner`, and breaks the store before (`before`) or after (`after`) each draft it writes: the
    store failing in the middle of a run, between two nodes."""

    inner: DraftingModel
    before: Callable[[], None] | None = None
    after: Callable[[], None] | None = None
    model_id: str = "saboteur"
    model_version: str = "test"

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        if self.before is not None:
            self.before()
        result = self.inner.draft(request, tools)
        if self.after is not None:
            self.after()
        return result

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        return self.inner.repair(request, tools)


def test_the_healthy_store_answers(store_dir: Path) -> None:
    # The baseline every fault below departs from: the same question answers when nothing is broken.
    with open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert isinstance(outcome.envelope, AnswerEnvelope), outcome.envelope


# --- retrieve ------------------------------------------------------------------------------------------------


def test_deleted_vector_store_abstains(store_dir: Path) -> None:
    shutil.rmtree(store_dir / "qdrant")  # it would reopen as an empty collection and quietly halve retrieval
    with open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "retrieve")
    assert outcome.receipt["failure_detail"] == "retrieval_unavailable"


def test_corrupt_vector_store_abstains(store_dir: Path) -> None:
    storage = list((store_dir / "qdrant").rglob("storage.sqlite"))
    assert storage, "the embedded Qdrant collection keeps its points in a SQLite file"
    for path in storage:
        path.write_bytes(b"\x00garbage" * 512)
    with open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "retrieve")
    assert outcome.receipt["failure_detail"] == "store_unavailable"


def test_unreachable_vector_server_abstains(store_dir: Path) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on: connection refused, no network
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with open_agent(store_dir, qdrant_url=f"http://127.0.0.1:{port}") as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "retrieve")


def test_vector_store_lost_mid_session_abstains(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        assert isinstance(ask(agent).envelope, AnswerEnvelope)
        agent.store.vectors.close()  # the client goes away under a live agent
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "retrieve")


def test_locator_index_file_overwritten_under_an_open_agent_abstains(store_dir: Path) -> None:
    with open_agent(store_dir) as agent:
        index = store_dir / "index.sqlite"
        size = index.stat().st_size
        with index.open("r+b") as handle:  # keep the header page, destroy every page after it
            handle.seek(4096)
            handle.write(b"\xff" * (size - 4096))
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "retrieve")


def test_locator_index_broken_when_preflight_reads_it_abstains(store_dir: Path) -> None:
    # a question of two content words makes preflight read the index (its grounding signal)
    with open_agent(store_dir) as agent:
        index = store_dir / "index.sqlite"
        size = index.stat().st_size
        with index.open("r+b") as handle:
            handle.seek(4096)
            handle.write(b"\xff" * (size - 4096))
        outcome = ask(agent, "Pool hours?")
    assert_fails_closed(outcome, "retrieval_unavailable", "preflight")


# --- resolve -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("corrupt", ["{{not json", '[3, "x"]', "null"])
def test_corrupt_locator_index_rows_abstain_in_resolve(store_dir: Path, corrupt: str) -> None:
    set_page_lines(store_dir, corrupt)  # retrieval reads chunks and FTS only, so it still finds pointers
    with open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "resolve")


def test_missing_lines_table_abstains_in_resolve(store_dir: Path) -> None:
    with sqlite3.connect(store_dir / "index.sqlite") as db:
        db.execute("DROP TABLE lines")
    db.close()
    with open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "resolve")


# --- draft ---------------------------------------------------------------------------------------------------


def test_model_that_raises_abstains_and_logs_for_the_operator(
    store_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = FaultyModel(ExtractiveModel(), fault="raise", message=SECRET)
    with caplog.at_level(logging.WARNING), open_agent(store_dir, model) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "model_error", "draft")
    assert outcome.receipt["failure_detail"] == "ModelBackendError"
    logged = [r for r in caplog.records if r.exc_info and SECRET in str(r.exc_info[1])]
    assert logged, "the operator's log keeps the exception, with its traceback"


def test_model_past_its_deadline_abstains_without_waiting_for_it(store_dir: Path) -> None:
    model = FaultyModel(ExtractiveModel(), fault="hang", hang_s=120)
    limits = AttemptLimits(model_timeout_s=0.2)
    try:
        with open_agent(store_dir, model, attempts=limits) as agent:
            outcome = ask(agent)
            # The run ended while the model was still hanging: the deadline, not the model, ended it.
            assert not model.finished.is_set()
    finally:
        model.release.set()
        assert model.finished.wait(30)
    assert_fails_closed(outcome, "model_error", "draft")
    assert outcome.receipt["failure_detail"] == "DeadlineExceededError"


def test_model_that_hangs_can_no_longer_use_its_tools_once_abandoned(store_dir: Path) -> None:
    from quotebound.tools.registry import RegistryClosedError

    model = FaultyModel(ExtractiveModel(), fault="hang", hang_s=120)
    with open_agent(store_dir, model, attempts=AttemptLimits(model_timeout_s=0.2)) as agent:
        outcome = ask(agent)
        model.release.set()  # the late model now drafts: its first tool call must be refused
        assert model.finished.wait(30)
    assert isinstance(model.raised, RegistryClosedError)
    assert outcome.receipt["tool_calls"] == []


def test_tool_that_raises_is_recorded_and_the_run_abstains(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import quotebound.tools.registry as registry

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError(SECRET)

    monkeypatch.setattr(registry, "search_source", broken)  # the extractive model searches every source
    with caplog.at_level(logging.WARNING), open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "draft")
    assert outcome.receipt["failure_detail"] == "tool_failed"
    failed = [c for c in outcome.receipt["tool_calls"] if c["error"] == "tool_failed"]
    assert failed and all(c["name"] == "search_source" and not c["ok"] for c in failed)
    assert any(r.exc_info and isinstance(r.exc_info[1], KeyError) for r in caplog.records)


def test_locator_index_corrupted_before_a_tool_call_abstains_in_draft(store_dir: Path) -> None:
    inner = scripted_model(
        [call_message("quote_fetch", source_id=LEASE_SOURCE, locator="p.1 L1-L2"), answer_message(lease_draft())]
    )
    model = Saboteur(inner, before=lambda: set_page_lines(store_dir, "{{"))
    with open_agent(store_dir, model) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "draft")
    assert [c["error"] for c in outcome.receipt["tool_calls"]] == ["retrieval_unavailable"]


# --- validate ------------------------------------------------------------------------------------------------


def test_locator_index_corrupted_after_the_draft_abstains_in_validate(store_dir: Path) -> None:
    model = Saboteur(ExtractiveModel(), after=lambda: set_page_lines(store_dir, "{{"))
    with open_agent(store_dir, model) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "validate")
    assert outcome.receipt["gate"]["passed"] is None  # the gate never reached a verdict


def test_gate_that_raises_abstains_as_unverified(
    store_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import quotebound.graphs.validation as validation

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError(SECRET)

    monkeypatch.setattr(validation, "validate_draft", broken)
    with caplog.at_level(logging.WARNING), open_agent(store_dir) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "verification_failed", "validate")
    assert outcome.receipt["failure_detail"] == "ZeroDivisionError"
    assert any(r.exc_info and isinstance(r.exc_info[1], ZeroDivisionError) for r in caplog.records)


# --- repair --------------------------------------------------------------------------------------------------


def _fails_the_gate() -> DraftingModel:
    """A model whose first draft misquotes its source, so the gate sends the run to repair."""
    return scripted_model([answer_message(lease_draft(quote="Leases may be as short as one week."))])


@pytest.mark.parametrize("fault", ["raise", "hang"])
def test_repair_model_fault_abstains(store_dir: Path, fault: str) -> None:
    model = FaultyModel(_fails_the_gate(), fault=fault, when="repair", message=SECRET)  # type: ignore[arg-type]
    try:
        with open_agent(store_dir, model, attempts=AttemptLimits(model_timeout_s=0.5)) as agent:
            outcome = ask(agent)
    finally:
        model.release.set()
    assert_fails_closed(outcome, "model_error", "repair")
    assert outcome.receipt["path"][:5] == ["preflight", "retrieve", "resolve", "draft", "validate"]


def test_tool_that_raises_in_repair_abstains(store_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import quotebound.tools.registry as registry

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OSError(SECRET)

    monkeypatch.setattr(registry, "quote_fetch", broken)
    replies = [
        answer_message(lease_draft(quote="Leases may be as short as one week.")),
        call_message("quote_fetch", source_id=LEASE_SOURCE, locator="p.1 L1-L2"),
        answer_message(lease_draft()),
    ]
    with open_agent(store_dir, scripted_model(replies)) as agent:
        outcome = ask(agent)
    assert_fails_closed(outcome, "retrieval_unavailable", "repair")
    assert [(c["node"], c["error"]) for c in outcome.receipt["tool_calls"]] == [("repair", "tool_failed")]


# --- the registry on its own -----------------------------------------------------------------------------------


@pytest.fixture
def registry(ingested: Path, tmp_path: Path) -> Iterator[ToolRegistry]:
    from quotebound.tools.context import ToolContext
    from quotebound.tools.corpus import Corpus

    copy = tmp_path / "store"
    shutil.copytree(ingested, copy)
    with Store(Settings(store=copy, embedder="hashing")) as store:
        yield ToolRegistry(ToolContext(Corpus(store)))


def test_unexpected_tool_exception_is_a_typed_result_without_its_text(
    registry: ToolRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import quotebound.tools.registry as module

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(module, "calc", broken)
    outcome = registry.invoke("calc", {"expr": "1+1"})
    assert outcome["ok"] is False and outcome["error"] == "tool_failed"
    assert SECRET not in str(outcome)
    assert [(c.name, c.error) for c in registry.faults] == [("calc", "tool_failed")]


def test_store_fault_inside_a_tool_is_recorded_then_raised(registry: ToolRegistry) -> None:
    from quotebound.agent.core.errors import OperatorError

    registry.ctx.corpus.store.db.execute("UPDATE source_locator_index SET page_lines = '{{'")
    with pytest.raises(OperatorError):
        registry.invoke("quote_fetch", {"source_id": LEASE_SOURCE, "locator": "p.1 L1"})
    assert [c.error for c in registry.faults] == ["retrieval_unavailable"]


def test_a_closed_registry_refuses_every_call(registry: ToolRegistry) -> None:
    from quotebound.tools.registry import RegistryClosedError

    registry.close()
    with pytest.raises(RegistryClosedError):
        registry.invoke("calc", {"expr": "1+1"})
    assert registry.calls == []
