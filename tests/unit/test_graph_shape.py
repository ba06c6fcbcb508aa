"""The graph's shape: only the two terminals reach END, and the drawing is under review as a snapshot."""

from __future__ import annotations

import os
from pathlib import Path

from quotebound.graphs import TERMINALS, Node, build_graph

SNAPSHOT = Path(__file__).parent.parent / "snapshots" / "graph.mmd"


def _edges() -> dict[str, set[str]]:
    drawn = build_graph().get_graph()
    edges: dict[str, set[str]] = {node: set() for node in drawn.nodes}
    for edge in drawn.edges:
        edges[edge.source].add(edge.target)
    return edges


def _simple_paths(edges: dict[str, set[str]], start: str, end: str) -> list[list[str]]:
    paths: list[list[str]] = []
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    while stack:
        node, path = stack.pop()
        for nxt in edges[node]:
            if nxt == end:
                paths.append([*path, nxt])
            elif nxt not in path:
                stack.append((nxt, [*path, nxt]))
    return paths


def test_graph_has_exactly_the_named_nodes() -> None:
    assert set(_edges()) == {n.value for n in Node} | {"__start__", "__end__"}


def test_every_path_to_end_passes_through_exactly_one_terminal() -> None:
    edges = _edges()
    terminals = {t.value for t in TERMINALS}
    paths = _simple_paths(edges, "__start__", "__end__")
    assert len(paths) > 5
    for path in paths:
        assert len(terminals.intersection(path)) == 1, path
        assert path[-2] in terminals, path
    assert {source for source, targets in edges.items() if "__end__" in targets} == terminals
    for terminal in terminals:
        assert edges[terminal] == {"__end__"}


def test_every_node_can_reach_a_terminal() -> None:
    edges = _edges()
    for node in Node:
        if node in TERMINALS:
            continue
        assert _simple_paths(edges, node.value, "__end__"), node


def test_mermaid_drawing_matches_the_reviewed_snapshot() -> None:
    drawing = build_graph().get_graph().draw_mermaid()
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(drawing, encoding="utf-8")
    assert SNAPSHOT.exists(), "no snapshot: run UPDATE_SNAPSHOTS=1 pytest tests/unit/test_graph_shape.py"
    assert drawing == SNAPSHOT.read_text(encoding="utf-8"), (
        "the graph's shape changed: review the drawing, then run "
        "UPDATE_SNAPSHOTS=1 pytest tests/unit/test_graph_shape.py"
    )
