"""Imports inside functions hide the real dependency graph, so the library keeps them for one purpose: deferring an
optional or heavy dependency (or keeping `quotebound --help` fast). Each one says why, in a `#` comment on its line
or on the comment lines right above it (a group of imports may share one reason)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ("agent", "tools", "graphs", "evals", "prompts")


def _library_files() -> list[Path]:
    files = [ROOT / "__init__.py", ROOT / "testing.py"]
    for folder in LIBRARY:
        files += sorted((ROOT / folder).rglob("*.py"))
    return files


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _deferred_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports that do not run when the module is imported: inside a def (any depth)."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    found.append(inner)
    return found


def _has_reason(lines: list[str], node: ast.Import | ast.ImportFrom) -> bool:
    """A `#` comment on the import's own lines, or above it across the imports of its group (blank lines between
    isort's sections included) and at most one line that opens the block (`try:`, `if ...:`)."""
    if any("#" in lines[row] for row in range(node.lineno - 1, node.end_lineno or node.lineno)):
        return True
    row, opened = node.lineno - 2, False
    while row >= 0:
        text = lines[row].strip()
        if text.startswith("#"):
            return True
        if text.startswith(("import ", "from ")) or text.endswith((",", "(")) or text in {")", ""}:
            if "#" in text:
                return True
            row -= 1
            continue
        code = text.split("#", 1)[0].rstrip()
        if not opened and code.endswith(":") and not code.startswith(("def ", "async def ", "class ")):
            if "#" in text:
                return True
            opened = True  # the block the group sits in: the line above it may carry the reason
            row -= 1
            continue
        return False
    return False


@pytest.mark.parametrize("path", _library_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_deferred_import_says_why(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    silent = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}"
        for node in _deferred_imports(ast.parse(source))
        if not _has_reason(lines, node)
    ]
    assert not silent, "imports inside functions without a reason comment:\n" + "\n".join(silent)


def test_the_check_finds_a_silent_deferred_import() -> None:
    tree = ast.parse("def f():\n    import json\n    return json\n")
    (node,) = _deferred_imports(tree)
    assert not _has_reason(["def f():", "    import json", "    return json"], node)
    assert _has_reason(["def f():", "    import json  # optional: only for the report", "    return json"], node)
