"""The HTTP service under load, and what tracing costs a run. Prints figures; asserts nothing.

    python benchmarks/bench_server.py [--sessions 50] [--concurrency 1,10,50] [--embedder minilm|hashing]

1. Serves examples/hoa (ingested into a temporary store, with the example policy) with `quotebound serve`'s
   app under uvicorn on a free loopback port, and for each concurrency level runs `--sessions` sessions, each a
   clarify and its resume ("What's the square footage of my unit?", then its own unit), half through `POST /ask`
   and half through `POST /ask/stream`. Prints wall time, requests/s and per-request p50/p95/max latency.
2. Asks a fixed question set in-process through `Agent.ask`, traced (the default) and with the trace store
   switched off, interleaved pass by pass: the price of recording every step.

Runs offline; the numbers are this machine's (2 cores here), with the server and the client in one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Literal

import httpx
import uvicorn
from bench_corpus import percentile

from quotebound.agent.core.settings import Settings
from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app
from quotebound.tools.ingest import Ingestor
from quotebound.tools.store import Store

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples" / "hoa"
POLICY = EXAMPLES / "policy.yaml"
EmbedderName = Literal["minilm", "hashing"]
SQFT = "What's the square footage of my unit?"
UNITS = [f"{floor}{letter}" for floor in range(1, 7) for letter in "ABCD"]
QUESTIONS = [
    "What is the minimum lease term?",
    "What is the monthly regular assessment per unit for 2025?",
    "What are the opening hours of the swimming pool?",
    "How many days' notice is required for a special meeting of the members?",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _envelope_status(response: httpx.Response) -> str:
    """The status of the envelope a response carries (`/ask`: the body; `/ask/stream`: its `envelope` event)."""
    if response.status_code != 200:
        return "-"
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        events = response.text.split("\n\n")
        data = next((e.split("data: ", 1)[1] for e in events if e.startswith("event: envelope\n")), None)
        return str(json.loads(data)["status"]) if data is not None else "no envelope"
    return str(response.json()["status"])


async def _session(client: httpx.AsyncClient, index: int, latencies: list[float]) -> str:
    """One clarify and its resume. Without an API key the server issues the session_id: the first request
    omits it, the resume sends back the one the server returned (X-Session-Id)."""
    path = "/ask" if index % 2 == 0 else "/ask/stream"
    outcomes = []
    body: dict[str, object] = {"question": SQFT}
    for reply in (None, {"unit": UNITS[index % len(UNITS)]}):
        if reply is not None:
            body = {**body, "context": reply}
        started = time.perf_counter()
        response = await client.post(path, json=body)
        latencies.append((time.perf_counter() - started) * 1000)
        outcomes.append(f"{response.status_code} {_envelope_status(response)}")
        if "X-Session-Id" in response.headers:
            body["session_id"] = response.headers["X-Session-Id"]
    return "/".join(outcomes)


async def _load(base: str, sessions: int, concurrency: int) -> None:
    latencies: list[float] = []
    limit = asyncio.Semaphore(concurrency)

    async def bounded(client: httpx.AsyncClient, index: int) -> str:
        async with limit:
            return await _session(client, index, latencies)

    timeout = httpx.Timeout(300.0)
    async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=httpx.Limits(max_connections=200)) as client:
        started = time.perf_counter()
        outcomes = await asyncio.gather(*(bounded(client, i) for i in range(sessions)))
        wall = time.perf_counter() - started
    expected = "200 clarify/200 answer"
    ok = sum(outcome == expected for outcome in outcomes)
    others = Counter(outcome for outcome in outcomes if outcome != expected)
    print(
        f"  concurrency {concurrency:>3}: {sessions} sessions, {len(latencies)} requests in {wall:.1f} s "
        f"({len(latencies) / wall:.1f} req/s); per request p50 {percentile(latencies, 0.50):.0f} ms, "
        f"p95 {percentile(latencies, 0.95):.0f} ms, max {max(latencies):.0f} ms; {ok}/{sessions} sessions {expected}"
        + "".join(f"; {n} {outcome}" for outcome, n in sorted(others.items()))
    )


def bench_server(store: Path, sessions: int, levels: list[int], embedder: EmbedderName) -> None:
    settings = Settings(store=store, embedder=embedder, policy_file=POLICY)
    with Agent(settings) as agent:
        port = _free_port()
        config = uvicorn.Config(
            create_app(agent), host="127.0.0.1", port=port, log_level="warning", ws="none", lifespan="off"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            print(f"server: {sessions} clarify-and-resume sessions per level, half /ask, half /ask/stream")
            for level in levels:
                asyncio.run(_load(f"http://127.0.0.1:{port}", sessions, level))
        finally:
            server.should_exit = True
            thread.join(timeout=30)


def bench_tracing(store: Path, embedder: EmbedderName, repeat: int = 3) -> None:
    settings = Settings(store=store, embedder=embedder, policy_file=POLICY)
    with Agent(settings) as agent:
        traces = agent.traces
        for question in QUESTIONS:  # warm-up: caches, the embedder
            agent.ask(question)
        timings: dict[str, list[float]] = {"traced": [], "untraced": []}
        for _ in range(repeat):
            for label, store_on in (("traced", traces), ("untraced", None)):
                agent.traces = store_on
                for question in QUESTIONS:
                    started = time.perf_counter()
                    agent.ask(question)
                    timings[label].append((time.perf_counter() - started) * 1000)
        agent.traces = traces
    traced, untraced = (statistics.median(timings[k]) for k in ("traced", "untraced"))
    print(
        f"tracing: {len(QUESTIONS)} questions x {repeat}, median per question {traced:.1f} ms traced vs "
        f"{untraced:.1f} ms with the trace store off ({traced - untraced:+.1f} ms)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--concurrency", default="1,10,50", help="comma-separated levels")
    parser.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    args = parser.parse_args(argv)
    levels = [int(level) for level in args.concurrency.split(",") if level.strip()]
    root = Path(tempfile.mkdtemp(prefix="bench-server-"))
    try:
        store = root / "store"
        started = time.perf_counter()
        settings = Settings(store=store, embedder=args.embedder)
        with Store(settings, create=True) as opened:
            Ingestor(opened).ingest([EXAMPLES])
        print(f"ingest examples/hoa ({args.embedder}): {time.perf_counter() - started:.1f} s")
        bench_server(store, args.sessions, levels, args.embedder)
        bench_tracing(store, args.embedder)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
