"""No two modules of the library import each other, directly or through others (TYPE_CHECKING imports count too).

The layer contract (`make lint`) orders the packages; this keeps the modules inside one package acyclic as well,
so every module can be read, tested and imported on its own."""

from __future__ import annotations

import grimp

IGNORED = ("quotebound.tests", "quotebound.benchmarks", "quotebound.examples")


def _cycles(imports: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports[target]))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_library_has_no_import_cycles() -> None:
    graph = grimp.build_graph("quotebound", include_external_packages=False)
    modules = {m for m in graph.modules if not m.startswith(IGNORED)}
    imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert _cycles(imports) == []


def test_the_check_finds_a_cycle() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(imports) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
