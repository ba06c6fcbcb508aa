"""Per-question latency of the full graph, and its ratio to LangGraph's prebuilt ReAct agent. Prints figures;
asserts nothing.

    python benchmarks/bench_graph.py [--repeat 3] [--chunks 10000] [--skip-large]
                                     [--embedder minilm|hashing] [--large-embedder hashing|minilm]

For each corpus (examples/hoa, then a generated corpus of about `--chunks` chunks made by bench_corpus.py's
generator) the script ingests into a temporary store exactly as `quotebound ingest` does (the example corpus
with the embedder `quotebound ingest` would use, the generated one with the hashing embedder unless told
otherwise, to keep the build short; the output names both), then:

1. asks a fixed question set through `Agent.ask` with the default `extractive` model (one warm-up pass, then
   `--repeat` timed passes) and prints p50/p95/mean per question and the count of each end status;
2. runs the same questions through `langgraph.prebuilt.create_react_agent` with the same four tools (the
   quotebound `ToolRegistry`'s own LangChain tools, so the same caller, policy and limits) and a scripted chat
   model that, for each question, requests one by one the tool calls the extractive model made for it (read
   from the quotebound run's `tool_calls`) and then replies with the quotebound envelope as its final message;
3. prints the ratio `quotebound graph / prebuilt ReAct`, both measured in this one process, interleaved pass
   by pass.

What the ratio means: both sides run the same tool calls on the same store, so the ratio is the price of
everything quotebound does around a bare tool loop: the preflight gate, hybrid retrieval (BM25 plus the
query's dense embedding), resolving every hit into a policy-checked EvidenceBundle within the token budget,
the extractive model's own line scoring, the hard gate re-verifying every quote, the terminal's envelope and
its receipt in the audit ledger, and a SQLite checkpoint at every step (the prebuilt agent has no
checkpointer; a second baseline gives it the same SqliteSaver, to separate that cost). The scripted model
answers instantly: with a real LLM the model's turns would dominate both sides and the ratio would approach
one. It measures overhead, not end-to-end speed.

A last, untimed pass attributes a quotebound run's time to its nodes (LangChain callbacks, registered
through a context variable) and reports what is left for checkpointing and the LangGraph runtime.

`langchain.agents.create_agent` replaces `create_react_agent` in LangGraph 1.x, but `langchain` is not a
quotebound dependency, so the prebuilt agent of `langgraph-prebuilt` is the baseline here. Runs offline.
"""

from __future__ import annotations

import argparse
import random
import re
import sqlite3
import statistics
import tempfile
import time
import uuid
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal
from uuid import UUID

from bench_corpus import make_markdown, percentile
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tracers.context import register_configure_hook
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10

from quotebound import Agent, AskRequest
from quotebound.agent.core.contracts import Envelope, ErrorEnvelope
from quotebound.agent.core.settings import Settings
from quotebound.testing import ScriptedChatModel, tool_call, tool_calls_message
from quotebound.tools.ingest import Ingestor
from quotebound.tools.registry import ToolRegistry
from quotebound.tools.store import Store

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "hoa"
EmbedderName = Literal["minilm", "hashing"]

# Answers, a planted conflict, calc derivations, abstentions and clarify pauses (mostly the demo's questions).
HOA_QUESTIONS = [
    "What is the minimum lease term for renting out a unit?",
    "What is the total operating budget for 2025?",
    "What is the monthly HOA assessment for 2025?",
    "How much is the monthly reserve fund contribution in the 2025 budget?",
    "What are the pool's opening hours?",
    "What's the square footage of my unit?",
    "How much does the landscaping contract cost per year?",
    "What is the combined cost of snow and ice removal and trash and recycling collection?",
    "What percentage of the total annual budget is the reserve fund contribution?",
    "How many directors are on the board?",
    "When is the special assessment due?",
    "Are dues waived this year?",
    "Has the Board cancelled all assessments?",
    "What is the gate code?",
    "What is the reserve fund balance?",
    "When does the master insurance policy renew?",
]
# bench_corpus.sentence: "<seven words> item <n> costs $<amount>."
_GENERATED_LINE = re.compile(r"^(?P<words>.+) item (?P<item>\d+) costs (?P<amount>\$[\d,]+\.\d\d)\.$")
_GENERATED_EXTRA = [
    "What are the opening hours of the swimming pool?",  # off-corpus: should abstain
    "How much is the parking fee for my garage?",  # "my garage": a clarify pause
]

# Node timing without touching the graph: LangChain picks up a handler set in this variable for every run.
_NODE_TIMER: ContextVar[BaseCallbackHandler | None] = ContextVar("bench_graph_node_timer", default=None)
register_configure_hook(_NODE_TIMER, inheritable=True)


@dataclass
class Question:
    text: str
    expected: str | None = None  # generated corpus: the amount the quoted line states


@dataclass
class Recorded:
    """What quotebound did for one question: the script the ReAct baseline replays."""

    status: str
    calls: list[tuple[str, dict[str, Any], bool]]
    final: str


@dataclass
class Timings:
    ms: list[float] = field(default_factory=list)

    def add(self, started: float) -> None:
        self.ms.append((time.perf_counter() - started) * 1000)

    @property
    def p50(self) -> float:
        return percentile(self.ms, 0.5)

    @property
    def p95(self) -> float:
        return percentile(self.ms, 0.95)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.ms)

    def line(self, label: str) -> str:
        return f"  {label:<44} p50 {self.p50:7.1f} ms   p95 {self.p95:7.1f} ms   mean {self.mean:7.1f} ms"


class NodeTimer(BaseCallbackHandler):
    """Wall time of each node, i.e. of each run whose parent is a graph's root run, summed by node name."""

    def __init__(self) -> None:
        self.roots: set[UUID] = set()
        self.started: dict[UUID, tuple[str, float]] = {}
        self.ms: defaultdict[str, float] = defaultdict(float)

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        if parent_run_id is None:
            self.roots.add(run_id)
            self.started[run_id] = ("(graph)", time.perf_counter())
        elif parent_run_id in self.roots:
            self.started[run_id] = (str(kwargs.get("name") or "?"), time.perf_counter())

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._end(run_id)  # a clarify pause ends its node with GraphInterrupt

    def _end(self, run_id: UUID) -> None:
        if run_id in self.started:
            name, started = self.started.pop(run_id)
            self.ms[name] += (time.perf_counter() - started) * 1000


# --- corpora ------------------------------------------------------------------------------------------------


def ingest(docs: Path, store_dir: Path, embedder: EmbedderName) -> tuple[int, int, float]:
    """Ingest `docs` the way `quotebound ingest` does; returns (sources, chunks, seconds)."""
    with Store(Settings(store=store_dir, embedder=embedder), create=True) as store:
        started = time.perf_counter()
        report = Ingestor(store).ingest([docs])
        elapsed = time.perf_counter() - started
    if not report.ok:
        raise SystemExit(f"ingest of {docs} failed: {report.failed}")
    return len(report.added), report.chunks, elapsed


def generated_questions(root: Path, rng: random.Random, n: int = 14) -> list[Question]:
    """`n` questions about random generated lines, plus an off-corpus question and a clarify one. Most name the
    line's seven words and its item number, and the extractive model quotes that one line. Every fifth names
    only the item number; then the model lists the many lines sharing "item" and "costs" as a conflict (the
    expected line among them), which is the gate's slow path."""
    lines = [line for path in sorted(root.glob("*.md")) for line in path.read_text(encoding="utf-8").splitlines()]
    matches = [m for line in lines if (m := _GENERATED_LINE.match(line))]
    questions = []
    for k, match in enumerate(rng.sample(matches, n)):
        subject = "" if k % 5 == 4 else f"the {match['words'].lower()} "
        questions.append(Question(f"How much does {subject}item {match['item']} cost?", expected=match["amount"]))
    return questions + [Question(text) for text in _GENERATED_EXTRA]


# --- the two agents -----------------------------------------------------------------------------------------


def ask_quotebound(agent: Agent, question: Question, session_id: str | None = None) -> Envelope | ErrorEnvelope:
    return agent.ask(AskRequest(question=question.text, session_id=session_id))


def record(agent: Agent, question: Question) -> tuple[Recorded, str | None]:
    """One untimed quotebound run whose tool calls become the ReAct script; also, for a generated question, how
    the expected amount came back ("answer", "in a conflict" or "missed")."""
    session = uuid.uuid4().hex
    envelope = ask_quotebound(agent, question, session)
    state = agent.graph.get_state({"configurable": {"thread_id": session}}).values
    calls = [(c.name, dict(c.args), c.ok) for c in state.get("tool_calls", [])]
    found = None
    if question.expected is not None:
        found = "missed"
        if envelope.status == "answer" and question.expected in envelope.answer.level1:
            found = "in a conflict" if envelope.evidence.conflicts else "answer"
    return Recorded(envelope.status, calls, envelope.model_dump_json()), found


def react_agent(registry: ToolRegistry, checkpointer: Any = None) -> tuple[Any, ScriptedChatModel]:
    llm = ScriptedChatModel(messages=iter([]))
    with warnings.catch_warnings():
        # LangGraph 1.x deprecates create_react_agent in favour of langchain's create_agent (langchain is not
        # installed here); silence exactly that warning and nothing else.
        warnings.filterwarnings(
            "ignore", message="create_react_agent has been moved", category=LangGraphDeprecatedSinceV10
        )
        graph = create_react_agent(llm, registry.langchain_tools(), checkpointer=checkpointer)
    return graph, llm


def script(recorded: Recorded) -> list[AIMessage]:
    """One AI turn per recorded tool call (a ReAct loop, not one parallel batch), then the final answer."""
    turns = [tool_calls_message(tool_call(name, args)) for name, args, _ in recorded.calls]
    return [*turns, AIMessage(content=recorded.final)]


def ask_react(
    graph: Any, llm: ScriptedChatModel, registry: ToolRegistry, question: Question, rec: Recorded
) -> tuple[float, int]:
    """Run one question through the prebuilt agent. Returns its ms, and how many tool results differ (ok or
    refused) from the quotebound run's: a sanity check, 0 when both really ran the same calls."""
    llm.messages = iter(script(rec))
    llm.received.clear()
    registry.calls.clear()
    config = {"configurable": {"thread_id": uuid.uuid4().hex}, "recursion_limit": 200}
    started = time.perf_counter()
    graph.invoke({"messages": [HumanMessage(question.text)]}, config)
    elapsed = (time.perf_counter() - started) * 1000
    got = [call.ok for call in registry.calls]
    want = [ok for _, _, ok in rec.calls]
    return elapsed, sum(a != b for a, b in zip(got, want, strict=False)) + abs(len(got) - len(want))


# --- one corpus ---------------------------------------------------------------------------------------------


def timed(fn: Callable[[], Any], into: Timings) -> Any:
    started = time.perf_counter()
    result = fn()
    into.add(started)
    return result


def run_corpus(store_dir: Path, embedder: EmbedderName, questions: list[Question], repeat: int) -> None:
    settings = Settings(store=store_dir, embedder=embedder)
    with Agent(settings) as agent:
        # The baseline's tools: the registry the draft node would build, for the same caller and policy.
        registry = ToolRegistry(agent.context.tools_for("public"))
        saver_db = sqlite3.connect(store_dir / "react-checkpoints.sqlite", check_same_thread=False)
        bare, bare_llm = react_agent(registry)
        saved, saved_llm = react_agent(registry, SqliteSaver(saver_db))

        recorded: list[Recorded] = []
        found: Counter[str] = Counter()
        for question in questions:  # the warm-up pass, which also records the scripts
            rec, hit = record(agent, question)
            recorded.append(rec)
            if hit is not None:
                found[hit] += 1
        mismatches = 0
        for question, rec in zip(questions, recorded, strict=True):  # the baselines' warm-up
            mismatches += ask_react(bare, bare_llm, registry, question, rec)[1]
            mismatches += ask_react(saved, saved_llm, registry, question, rec)[1]

        qb, react, react_saved = Timings(), Timings(), Timings()
        for _ in range(repeat):
            for question in questions:
                timed(partial(ask_quotebound, agent, question), qb)
            for graph, llm, into in ((bare, bare_llm, react), (saved, saved_llm, react_saved)):
                for question, rec in zip(questions, recorded, strict=True):
                    ms, differ = ask_react(graph, llm, registry, question, rec)
                    into.ms.append(ms)
                    mismatches += differ

        profile = profile_nodes(agent, questions)
        saver_db.close()

    statuses = Counter(rec.status for rec in recorded)
    n_calls = sum(len(rec.calls) for rec in recorded)
    print(
        f"  {len(questions)} questions × {repeat} timed pass{'es' if repeat != 1 else ''} (+1 warm-up); end status: "
        + ", ".join(f"{s} {statuses.get(s, 0)}" for s in ("answer", "abstain", "clarify"))
        + f"; {n_calls / len(questions):.1f} tool calls per question"
    )
    if found:
        print(
            f"  the expected line of {found.total()} generated questions: quoted as the answer {found['answer']}, "
            f"listed in a conflict {found['in a conflict']}, missed {found['missed']}"
        )
    print(qb.line("quotebound graph (Agent.ask, extractive)"))
    print(react.line("prebuilt ReAct (scripted, same tool calls)"))
    print(react_saved.line("prebuilt ReAct + SqliteSaver checkpointer"))
    print(
        f"  quotebound graph / prebuilt ReAct = {qb.p50 / react.p50:.2f}× at p50, {qb.mean / react.mean:.2f}× by mean"
        f"  (/ ReAct + SqliteSaver: {qb.p50 / react_saved.p50:.2f}× at p50, {qb.mean / react_saved.mean:.2f}× by mean)"
    )
    if mismatches:
        print(f"  warning: {mismatches} baseline tool results differed from the quotebound run's")
    print(profile)


def profile_nodes(agent: Agent, questions: list[Question]) -> str:
    """One more pass, outside the figures above, with the node timer: mean ms per question in each node."""
    timer = NodeTimer()
    token = _NODE_TIMER.set(timer)
    wall = Timings()
    tool_ms = 0.0
    try:
        for question in questions:
            session = uuid.uuid4().hex
            timed(partial(ask_quotebound, agent, question, session), wall)
            state = agent.graph.get_state({"configurable": {"thread_id": session}}).values
            tool_ms += sum(c.ms for c in state.get("tool_calls", []))
    finally:
        _NODE_TIMER.reset(token)
    n = len(questions)
    graph_ms = timer.ms.pop("(graph)", 0.0)
    nodes = sorted(timer.ms.items(), key=lambda item: -item[1])
    parts = [f"{name} {ms / n:.1f}" for name, ms in nodes]
    outside = graph_ms - sum(timer.ms.values())
    return (
        f"  per question, mean ms by node (one more pass, {wall.mean:.1f} ms/question with the timer): "
        + ", ".join(parts)
        + f"; tool calls (inside draft/repair) {tool_ms / n:.1f}; checkpoints and LangGraph between nodes "
        f"{outside / n:.1f}; Agent.ask outside the graph {(sum(wall.ms) - graph_ms) / n:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes over the question set (default 3)")
    parser.add_argument("--chunks", type=int, default=10_000, help="size of the generated corpus (default 10000)")
    parser.add_argument("--skip-large", action="store_true", help="only the example corpus")
    parser.add_argument(
        "--embedder",
        choices=["minilm", "hashing"],
        default=Settings.from_env().embedder,
        help="dense embedder of the example store (default: what `quotebound ingest` uses: QUOTEBOUND_EMBEDDER, "
        "else minilm)",
    )
    parser.add_argument(
        "--large-embedder",
        choices=["minilm", "hashing"],
        default="hashing",
        help="dense embedder of the generated store (default hashing: minilm embeds about 20 chunks/s on two "
        "cores, so a 10k-chunk build takes about 9 minutes)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-graph-") as tmp:
        store_dir = Path(tmp) / "store-hoa"
        sources, chunks, seconds = ingest(EXAMPLES, store_dir, args.embedder)
        print(f"examples/hoa: {sources} sources, {chunks} chunks, embedder {args.embedder} (ingest {seconds:.1f} s)")
        run_corpus(store_dir, args.embedder, [Question(q) for q in HOA_QUESTIONS], args.repeat)
        if args.skip_large:
            return
        docs = Path(tmp) / "generated"
        docs.mkdir()
        rng = random.Random(11)
        make_markdown(docs, rng, args.chunks)
        store_dir = Path(tmp) / "store-generated"
        sources, chunks, seconds = ingest(docs, store_dir, args.large_embedder)
        print(
            f"generated corpus (bench_corpus.make_markdown, {args.chunks} requested): {sources} sources, "
            f"{chunks} chunks, embedder {args.large_embedder} (ingest {seconds:.1f} s)"
        )
        run_corpus(store_dir, args.large_embedder, generated_questions(docs, rng), args.repeat)


if __name__ == "__main__":
    main()
