"""The four tools and the allowlist that is the only way a model reaches them."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from quotebound.agent.core.contracts import EvidenceBundle
from quotebound.tools.context import ToolContext
from quotebound.tools.corpus import Corpus
from quotebound.tools.ingest import IngestReport
from quotebound.tools.policy import Caller
from quotebound.tools.registry import REPAIR_TOOLS, ToolName, ToolRegistry

Ingest = Callable[..., IngestReport]

BUDGET = (
    "# Budget 2025\n\nThe monthly assessment is $325.00 per unit.\n"
    "Reserve contribution: $48,000.\nLandscaping: $21,600.\n"
)
SECRET = "# Gate codes\n\nThe north gate code is 4471.\n"


@pytest.fixture
def registry(make_files, ingest: Ingest, corpus: Corpus) -> ToolRegistry:
    root = make_files({"budget.md": BUDGET, "gate.md": SECRET, "gate.md.meta.yaml": "policy_label: restricted\n"})
    assert ingest(root).ok
    return ToolRegistry(ToolContext(corpus, caller=Caller(role="public")))


def test_exactly_four_tools_are_exposed(registry: ToolRegistry) -> None:
    names = sorted(tool.name for tool in registry.langchain_tools())
    assert names == ["calc", "quote_fetch", "resolve_evidence", "search_source"]
    assert {t.name for t in ToolRegistry(registry.ctx, allowed=REPAIR_TOOLS).langchain_tools()} == {
        "calc",
        "quote_fetch",
        "search_source",
    }


@pytest.mark.parametrize("name", ["shell", "python", "read_file", "QUOTE_FETCH", "quote_fetch ", ""])
def test_unknown_tools_are_refused_and_recorded(registry: ToolRegistry, name: str) -> None:
    outcome = registry.invoke(name, {"source_id": "budget.md", "locator": "p.1 L1"})
    assert outcome == {"ok": False, "error": "tool_not_allowed", "message": outcome["message"]}
    assert "allowed tools" in outcome["message"]
    assert registry.refusals[-1].name == name and registry.refusals[-1].error == "tool_not_allowed"


def test_repair_registry_refuses_resolve_evidence(registry: ToolRegistry) -> None:
    repair = ToolRegistry(registry.ctx, allowed=REPAIR_TOOLS)
    assert repair.invoke("resolve_evidence", {"ref": "doc://budget.md#p.1 L3"})["error"] == "tool_not_allowed"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("quote_fetch", {"source_id": "budget.md"}),
        ("quote_fetch", {"source_id": "budget.md", "locator": "p.1 L1", "pattern": "x"}),
        ("quote_fetch", {"source_id": "budget.md", "locator": "line 3"}),
        ("search_source", {"source_id": "budget.md"}),
        ("search_source", {"source_id": "budget.md", "pattern": "x", "top_n": 0}),
        ("search_source", {"source_id": "budget.md", "pattern": "x", "top_n": "all"}),
        ("search_source", {"source_id": "budget.md", "pattern": "x", "exec": "rm -rf /"}),
        ("calc", {"expr": 5}),
        ("resolve_evidence", {"ref": "http://evil.example/x"}),
        ("resolve_evidence", {}),
    ],
)
def test_invalid_arguments_become_readable_errors(registry: ToolRegistry, name: str, args: dict[str, object]) -> None:
    outcome = registry.invoke(name, args)
    assert outcome["ok"] is False
    assert outcome["error"] == "invalid_tool_arguments"
    assert outcome["message"]


def test_non_object_arguments_are_refused(registry: ToolRegistry) -> None:
    outcome = registry.invoke("calc", ["1+1"])  # type: ignore[arg-type]
    assert outcome["error"] == "invalid_tool_arguments"


def test_quote_fetch_by_locator_and_by_pattern(registry: ToolRegistry) -> None:
    by_locator = registry.invoke("quote_fetch", {"source_id": "budget.md", "locator": "p.1 L3"})
    assert by_locator["result"] == {
        "source_id": "budget.md",
        "locator": "p.1 L3-L3",
        "quote": "The monthly assessment is $325.00 per unit.",
    }
    by_pattern = registry.invoke("quote_fetch", {"source_id": "budget.md", "pattern": "reserve CONTRIBUTION"})
    assert by_pattern["result"]["locator"] == "p.1 L4-L4"
    assert by_pattern["result"]["quote"] == "Reserve contribution: $48,000."


def test_quote_fetch_rejects_locators_outside_the_index(registry: ToolRegistry) -> None:
    for locator in ("p.2 L1-L2", "p.1 L4-L99", "p.1 L40"):
        outcome = registry.invoke("quote_fetch", {"source_id": "budget.md", "locator": locator})
        assert outcome["error"] == "unknown_locator", locator


def test_search_source_returns_verbatim_lines_with_locators(registry: ToolRegistry) -> None:
    outcome = registry.invoke("search_source", {"source_id": "budget.md", "pattern": "$", "top_n": 2})
    assert outcome["result"] == [
        {"locator": "p.1 L3-L3", "snippet": "The monthly assessment is $325.00 per unit."},
        {"locator": "p.1 L4-L4", "snippet": "Reserve contribution: $48,000."},
    ]
    regex = registry.invoke("search_source", {"source_id": "budget.md", "pattern": r"\$\d{2},\d{3}", "regex": True})
    assert [hit["locator"] for hit in regex["result"]] == ["p.1 L4-L4", "p.1 L5-L5"]
    assert registry.invoke("search_source", {"source_id": "budget.md", "pattern": "zebra"})["result"] == []


def test_catastrophic_regex_is_refused(registry: ToolRegistry) -> None:
    outcome = registry.invoke("search_source", {"source_id": "budget.md", "pattern": "(a+)+$", "regex": True})
    assert outcome["error"] == "pattern_rejected"


def test_calc_is_exact_and_errors_are_values(registry: ToolRegistry) -> None:
    assert registry.invoke("calc", {"expr": "325.00 * 12"})["result"] == {"value": "3900"}
    assert registry.invoke("calc", {"expr": "__import__('os').system('id')"})["error"] == "calc_error"
    assert registry.invoke("calc", {"expr": "9**9**9"})["error"] == "calc_error"


def test_resolve_evidence_returns_a_bundle_with_digests(registry: ToolRegistry) -> None:
    outcome = registry.invoke("resolve_evidence", {"ref": "doc://budget.md#p.1 L3-L4"})
    bundle = EvidenceBundle.model_validate(outcome["result"])
    assert bundle.text == "The monthly assessment is $325.00 per unit.\nReserve contribution: $48,000."
    assert bundle.ref == "doc://budget.md@v1#p.1 L3-L4"
    assert bundle.policy.decision == "allow"
    assert bundle.digest.startswith("sha256:") and bundle.bundle_id.startswith("sha256:")
    again = registry.invoke("resolve_evidence", {"ref": "doc://budget.md#p.1 L3-L4"})
    assert again["result"]["bundle_id"] == bundle.bundle_id


def test_restricted_sources_do_not_exist_for_the_public(registry: ToolRegistry) -> None:
    """A hidden source and a missing one produce the same refusal, word for word apart from the name given."""
    calls = [
        ("quote_fetch", {"locator": "p.1 L3"}),
        ("search_source", {"pattern": "gate"}),
        ("resolve_evidence", {}),
    ]
    for name, extra in calls:

        def call(source_id: str, name: str = name, extra: dict[str, object] = extra) -> dict[str, object]:
            args = (
                {"ref": f"doc://{source_id}#p.1 L3"}
                if name == "resolve_evidence"
                else {"source_id": source_id, **extra}
            )
            return registry.invoke(name, args)

        hidden, missing = call("gate.md"), call("nothere.md")
        assert hidden["error"] == missing["error"] == "unknown_source"
        assert str(hidden["message"]).replace("gate.md", "X") == str(missing["message"]).replace("nothere.md", "X")
        assert "4471" not in json.dumps(hidden) and "restricted" not in json.dumps(hidden)


def test_langchain_tools_route_through_the_registry(registry: ToolRegistry) -> None:
    tools = {tool.name: tool for tool in registry.langchain_tools()}
    text = tools[ToolName.CALC].invoke({"expr": "21,600 / 12"})
    assert json.loads(text) == {"ok": True, "result": {"value": "1800"}}
    assert registry.calls[-1].name == "calc" and registry.calls[-1].ok
