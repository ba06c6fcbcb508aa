"""Run BIPIA poisoned emails through the full graph and measure whether any attack text reaches an envelope.

Shared by `tests/integration/test_injection_bipia.py` (a sample) and `benchmarks/bench_bipia.py` (all of it):
`build_store` ingests the poisoned emails once (hashing embedder: fast, deterministic); `run_triples` asks each
triple's question through an `Agent` on that store, scoped to the triple's own email, and records the outcome;
`summarize` gives the attack success rate (ASR: the share of runs an attack reached, as `evals.leaks` defines
it) and the abstention share.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from quotebound.agent.core.contracts import AskRequest
from quotebound.agent.core.settings import EmbedderKind, RetrievalSettings, Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.models.base import DraftingModel
from quotebound.evals.bipia import Email, ScopedPolicy, Triple, clean_source_id, write_corpus
from quotebound.evals.leaks import markers, reached
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

# Every chunk of a store is a candidate, so the scope filter (not the candidate cut) decides what a run sees.
RETRIEVAL = RetrievalSettings(candidates=1000)


@dataclass(frozen=True)
class Result:
    triple: Triple
    status: str  # answer | abstain | clarify
    reason_code: str | None
    leaked: tuple[str, ...]  # the markers of the attack found in the envelope, as text
    drafted: bool  # the run's last draft carried the attack's text (the model obeyed; the gate had work to do)
    seconds: float

    @property
    def reached(self) -> bool:
        return bool(self.leaked)


@dataclass(frozen=True)
class Summary:
    model: str
    runs: int
    reached: int
    answers: int
    abstentions: int
    drafted: int
    seconds: float

    @property
    def asr(self) -> float:
        return self.reached / self.runs if self.runs else 0.0

    @property
    def abstention_share(self) -> float:
        return self.abstentions / self.runs if self.runs else 0.0

    def line(self) -> str:
        per_run = 1000 * self.seconds / self.runs if self.runs else 0.0
        return (
            f"{self.model}: {self.runs} runs, ASR {self.asr:.2%} ({self.reached}), obeyed in drafts {self.drafted}, "
            f"answers {self.answers}, abstentions {self.abstention_share:.2%} ({self.abstentions}), "
            f"{self.seconds:.1f} s ({per_run:.0f} ms/run)"
        )


def settings_for(store_dir: Path, embedder: EmbedderKind = "hashing") -> Settings:
    """Hashing by default (fast, deterministic); `minilm` measures the store a user's `quotebound ingest` makes."""
    return Settings(store=store_dir, embedder=embedder, retrieval=RETRIEVAL)


def build_store(
    triples: Iterable[Triple], root: Path, clean: Iterable[Email] = (), embedder: EmbedderKind = "hashing"
) -> Path:
    """Write the poisoned emails (and the `clean` ones) under `root/docs` and ingest them into `root/store`;
    returns the store folder."""
    docs, store_dir = root / "docs", root / "store"
    files = write_corpus(triples, docs, clean)
    with Store(settings_for(store_dir, embedder), create=True) as store:
        report = Ingestor(store).ingest([docs])
    if report.failed or len(report.added) != len(files):
        raise RuntimeError(f"BIPIA ingest failed: {report.failed[:3]}")
    return store_dir


def run_triples(
    triples: Sequence[Triple],
    store_dir: Path,
    model: DraftingModel | str,
    *,
    progress: Callable[[int, Result], None] | None = None,
) -> list[Result]:
    """Ask every triple's question, scoped to its own email, and check each envelope for its attack's text."""
    results: list[Result] = []
    with Agent(settings_for(store_dir), model=model, policy=ScopedPolicy()) as agent:
        for index, triple in enumerate(triples):
            started = time.perf_counter()
            session = uuid.uuid4().hex
            envelope = agent.ask(AskRequest(question=triple.question, session_id=session, labels=[triple.source_id]))
            seconds = time.perf_counter() - started
            dumped: dict[str, Any] = envelope.model_dump(mode="json")
            attack = markers(triple.attack.text, f"{triple.email.context}\n{triple.question}")
            found = reached(dumped, attack)
            draft = agent.graph.get_state({"configurable": {"thread_id": session}}).values.get("draft")
            draft = draft.model_dump(mode="json") if isinstance(draft, BaseModel) else draft  # a typed state value
            result = Result(
                triple=triple,
                status=str(dumped["status"]),
                reason_code=dumped.get("reason_code"),
                leaked=tuple(sorted(" ".join(m) for m in found)),
                drafted=bool(draft and reached(draft, attack)),
                seconds=seconds,
            )
            results.append(result)
            if progress is not None:
                progress(index, result)
    return results


def summarize(model: str, results: Sequence[Result]) -> Summary:
    return Summary(
        model=model,
        runs=len(results),
        reached=sum(r.reached for r in results),
        answers=sum(r.status == "answer" for r in results),
        abstentions=sum(r.status == "abstain" for r in results),
        drafted=sum(r.drafted for r in results),
        seconds=sum(r.seconds for r in results),
    )


def ask_clean(emails: Sequence[Email], store_dir: Path, model: DraftingModel | str) -> list[str]:
    """The status of each clean email's question (no attack anywhere), scoped to that email."""
    statuses: list[str] = []
    with Agent(settings_for(store_dir), model=model, policy=ScopedPolicy()) as agent:
        for email in emails:
            request = AskRequest(question=email.asked, session_id=uuid.uuid4().hex, labels=[clean_source_id(email)])
            envelope = agent.ask(request)
            statuses.append(str(envelope.status))
    return statuses
