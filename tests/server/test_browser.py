"""The chat page end to end in a real headless Chromium (Debian's `chromium`, driven by Playwright's sync API).

The real app (`create_app`) runs under uvicorn on a free loopback port over examples/hoa (hashing embedder, the
example policy). Questions and expectations come from the golden set (evals/golden/hoa.yaml: written from the
documents) and from the documents themselves, never from a run's output. Every scenario saves a screenshot to
`$QUOTEBOUND_ARTIFACTS/screenshots/<name>.png` (default: `artifacts/` at the repository root), and fails on any
console error, uncaught page error, failed request or unexpected 4xx/5xx of the page.

Chromium is required, not optional: without it these tests fail with a clear message instead of skipping. Point
QUOTEBOUND_CHROMIUM at another binary if it is not /usr/bin/chromium.
"""

from __future__ import annotations

import json
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, get_args
from urllib.parse import quote as percent_encode
from urllib.parse import unquote, urlsplit

import httpx
import pytest
import uvicorn
import yaml
from pydantic import TypeAdapter

from quotebound.agent.core.contracts import ClarifyNotes, Envelope, GapWhy, ReasonCode
from quotebound.agent.facade.agent import Agent
from quotebound.agent.server import create_app

from .conftest import EXAMPLES, ROOT, STEWARD_KEY

pytestmark = pytest.mark.browser

CHROMIUM = Path(os.environ.get("QUOTEBOUND_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("QUOTEBOUND_ARTIFACTS") or ROOT / "artifacts")
SCREENSHOTS = ARTIFACTS / "screenshots"
GOLDEN = ROOT / "evals" / "golden" / "hoa.yaml"
TIMEOUT_MS = 20_000
AUDIT_REF = re.compile(r"^audit://\S+$")


# --- what the expectations are derived from ---------------------------------------------------------------


@cache
def golden() -> dict[str, dict[str, Any]]:
    cases = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]
    return {case["id"]: case for case in cases}


def case(case_id: str, *tags: str) -> dict[str, Any]:
    found = golden()[case_id]
    assert set(tags) <= set(found.get("tags", [])), f"golden case {case_id} is no longer tagged {tags}"
    return found


def squash(text: str) -> str:
    return " ".join(text.split())


def document_text(source_id: str) -> str:
    return squash((EXAMPLES / source_id).read_text(encoding="utf-8"))


def document_meta(source_id: str) -> dict[str, Any]:
    return yaml.safe_load((EXAMPLES / f"{source_id}.meta.yaml").read_text(encoding="utf-8"))


def includes(text: str, expected: str | list[str]) -> bool:
    """A golden `must_include` item: one string, or a list of alternatives any one of which will do."""
    options = [expected] if isinstance(expected, str) else expected
    return any(option.lower() in text.lower() for option in options)


# --- the server and the browser ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def live_server(agent: Agent) -> Iterator[str]:
    """The real app under uvicorn in a background thread; its base URL. Stopped (and joined) afterwards."""
    config = uvicorn.Config(
        create_app(agent), host="127.0.0.1", port=_free_port(), log_level="warning", ws="none", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-browser-tests", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the app did not start under uvicorn")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        assert not thread.is_alive(), "uvicorn did not shut down"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"Chromium is required for the browser tests and was not found at {CHROMIUM}: install Debian's "
            "`chromium` (bash .ci/chromium.sh) or set QUOTEBOUND_CHROMIUM to its path",
            pytrace=False,
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        pytest.fail("Playwright is required for the browser tests: pip install playwright", pytrace=False)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Watch:
    """Everything that went wrong in the page, collected while a scenario runs."""

    problems: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)  # substrings of problems a scenario provokes on purpose
    asks: list[dict[str, Any]] = field(default_factory=list)

    def attach(self, page: Any) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"uncaught error in the page: {error}"))
        page.on("requestfailed", self._failed)
        page.on("response", self._response)
        page.on("request", self._request)

    def _console(self, message: Any) -> None:
        if message.type in ("error", "assert"):
            self.problems.append(f"console {message.type}: {message.text} ({message.location})")

    def _failed(self, request: Any) -> None:
        self.problems.append(f"request failed: {request.method} {request.url}: {request.failure}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status} for {response.request.method} {response.url}")

    def _request(self, request: Any) -> None:
        if request.method == "POST" and urlsplit(request.url).path in ("/ask", "/ask/stream"):
            self.asks.append(
                {
                    "path": urlsplit(request.url).path,
                    "body": json.loads(request.post_data or "{}"),
                    "authorization": request.headers.get("authorization"),
                }
            )

    def check(self, page: Any) -> None:
        problems = [p for p in self.problems if not any(allowed in p for allowed in self.allowed)]
        assert not problems, "\n".join(problems)


@dataclass
class Chat:
    """One browser tab on the chat page, with its watch."""

    page: Any
    watch: Watch
    base: str

    def turn(self, index: int = -1) -> Any:
        turns = self.page.locator('[data-testid="turn"]')
        return turns.last if index == -1 else turns.nth(index)

    def ask(self, question: str) -> Any:
        before = self.page.locator('[data-testid="turn"]').count()
        self.page.get_by_label("Your question", exact=True).fill(question)
        self.page.get_by_role("button", name="Ask", exact=True).click()
        return self.settled(before)

    def settled(self, before: int) -> Any:
        """The new turn, once its envelope (or a refusal) is rendered."""
        self.page.wait_for_function(
            "n => { const t = document.querySelectorAll('[data-testid=\"turn\"]')[n];"
            " return t !== undefined && !t.hasAttribute('aria-busy'); }",
            arg=before,
        )
        turn = self.turn(before)
        status = turn.get_attribute("data-status")
        assert status in ("answer", "abstain", "clarify", "error"), f"turn ended as {status!r}: {turn.inner_text()}"
        assert turn.get_attribute("data-transport") == "stream", "the page did not use POST /ask/stream"
        return turn

    def screenshot(self, name: str, *, full_page: bool = True) -> Path:
        """The page as `<name>.png` (the whole page; the viewport only while the evidence drawer is open)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def failure_artifacts(self, test_name: str) -> None:
        """What the page looked like when a scenario failed, and what went wrong in it."""
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name)
        self.screenshot(f"{name}-failure")
        (SCREENSHOTS / f"{name}-failure.txt").write_text(
            "\n".join(self.watch.problems) or "no console errors or failed requests", encoding="utf-8"
        )


UNLABELLED = """() => {
  const named = (e) => (e.labels && e.labels.length) || e.getAttribute("aria-label")
    || e.getAttribute("aria-labelledby") || (e.tagName === "BUTTON" && e.textContent.trim());
  const controls = Array.from(document.querySelectorAll("input, select, textarea, button"));
  const ids = Array.from(document.querySelectorAll("[id]"), (e) => e.id);
  return {
    unlabelled: controls.filter((e) => !named(e)).map((e) => e.outerHTML),
    duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
  };
}"""


def assert_accessible(page: Any) -> None:
    """Every control has an accessible name and every id is unique (labels and tabs point at ids)."""
    found = page.evaluate(UNLABELLED)
    assert found == {"unlabelled": [], "duplicateIds": []}, found


@pytest.fixture
def chat(browser: Any, live_server: str, request: pytest.FixtureRequest) -> Iterator[Chat]:
    """A fresh browser context (its own sessionStorage, so its own session_id) on the chat page."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    watch = Watch()
    watch.attach(page)
    page.goto(live_server + "/")
    page.locator('body[data-ready="true"]').wait_for()
    opened = Chat(page, watch, live_server)
    failed_before = request.session.testsfailed  # the test's own report is counted before its teardown runs
    try:
        yield opened
        if request.session.testsfailed > failed_before:
            opened.failure_artifacts(request.node.name)
            return
        try:
            watch.check(page)
            assert_accessible(page)
        except AssertionError:
            opened.failure_artifacts(request.node.name)
            raise
    finally:
        context.close()


# --- scenarios ---------------------------------------------------------------------------------------------


def test_the_page_loads_offline_with_its_policy(chat: Chat) -> None:
    page = chat.page
    csp = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    assert csp is not None and "default-src 'self'" in csp
    # Nothing but this origin is ever fetched: scripts, styles, icons, fonts.
    urls = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert urls and all(url.startswith(chat.base + "/") for url in urls), urls
    assert page.get_by_label("Your question", exact=True).is_visible()
    assert page.get_by_label(re.compile("API key")).get_attribute("type") == "password"
    assert page.locator('[data-testid="session-id"]').inner_text().strip()
    chat.screenshot("page-loaded")


def test_a_question_that_clarifies_then_answers(chat: Chat) -> None:
    golden_case = case("clarify-square-footage-4b", "clarify")
    (replies,) = golden_case["replies"]
    first = chat.ask(golden_case["question"])

    assert first.get_attribute("data-status") == "clarify"
    for field_name in golden_case["clarify_fields"]:
        question = first.locator(f'[data-testid="clarify-question"][data-field="{field_name}"]')
        assert question.count() == 1, first.inner_text()
        # The input is labelled by the clarify prompt (accessible name), and filled like a user would.
        prompt = question.locator("label").first.inner_text()
        assert prompt.strip()
        chat.page.get_by_label(prompt, exact=True).fill(replies[field_name])
    chat.screenshot("clarify-question")
    audit_of_clarify = first.get_by_test_id("audit-ref").inner_text()
    assert AUDIT_REF.match(audit_of_clarify)

    before = chat.page.locator('[data-testid="turn"]').count()
    first.get_by_role("button", name="Send replies").click()
    answer = chat.settled(before)

    assert answer.get_attribute("data-status") == "answer", answer.inner_text()
    level1 = answer.get_by_test_id("answer-level1").inner_text()
    for expected in golden_case["must_include"]:
        assert includes(answer.get_by_test_id("answer-panel").inner_text(), expected), (expected, level1)
    # Every supporting quote is verbatim from a document the golden case names.
    quotes = answer.get_by_test_id("support-quote").all_inner_texts()
    assert quotes
    sources = golden_case["sources"]
    for quote in quotes:
        assert any(squash(quote) in document_text(source) for source in sources), quote
    # The replies went back as `context` on the same session, with the same question.
    first_ask, second_ask = chat.watch.asks[-2:]
    # Without a key the server issues the session with the clarify (issue 14): the replies go back on it.
    assert "session_id" not in first_ask["body"] and second_ask["body"]["session_id"]
    assert second_ask["body"]["question"] == first_ask["body"]["question"] == golden_case["question"]
    assert second_ask["body"]["context"] == replies
    assert "context" not in first_ask["body"]
    # One run across the pause: the same run_id, and its trace shows the clarify step.
    assert answer.get_attribute("data-run-id") == first.get_attribute("data-run-id")
    answer.get_by_role("tab", name="Trace").click()
    answer.locator('[data-testid="trace-step"]').first.wait_for()
    nodes = answer.locator('[data-testid="trace-step"]').evaluate_all("els => els.map(e => e.dataset.node)")
    assert "clarify" in nodes and nodes[-1] == "verified_answer", nodes
    answer.get_by_role("tab", name="Answer").click()
    answer.scroll_into_view_if_needed()
    chat.screenshot("clarify-then-answer")


def test_a_conflict_is_shown_in_the_conflicts_panel(chat: Chat) -> None:
    golden_case = case("conflict-monthly-assessment", "conflict")
    turn = chat.ask(golden_case["question"])

    assert turn.get_attribute("data-status") == "answer", turn.inner_text()
    panel = turn.get_by_test_id("panel-conflicts")
    assert panel.get_by_role("heading", name="Conflicts").is_visible()
    rows = panel.get_by_test_id("conflict-value")
    values = rows.evaluate_all('els => els.map(e => e.querySelector("[data-testid=conflict-value-value]").textContent)')
    for pair in golden_case["conflicts"]:
        for expected in pair:
            assert any(expected in value for value in values), (expected, values)
    # Each value names its source and locator, and its quote is verbatim from that source.
    for index in range(rows.count()):
        row = rows.nth(index)
        source = row.get_by_test_id("conflict-value-source").inner_text()
        assert source in golden_case["sources"], source
        locator = row.get_by_test_id("conflict-link").inner_text()
        assert re.fullmatch(r"p\.\d+ L\d+-L\d+", locator), locator
        quote = row.locator("q").inner_text()
        assert squash(quote) in document_text(source), quote
    # The answer itself does not pick a side: both values are in the verified text.
    level1 = turn.get_by_test_id("answer-level1").inner_text()
    for expected in golden_case["must_include"]:
        assert includes(level1, expected), level1
    panel.scroll_into_view_if_needed()
    chat.screenshot("conflict")


@pytest.mark.parametrize(
    ("case_id", "tag"), [("missing-pool-hours", "missing"), ("restricted-vehicle-gate-code-public", "restricted")]
)
def test_an_abstention_shows_its_hints_and_audit_ref(chat: Chat, case_id: str, tag: str) -> None:
    golden_case = case(case_id, tag)
    turn = chat.ask(golden_case["question"])

    assert turn.get_attribute("data-status") == "abstain", turn.inner_text()
    # The code is kept machine-readable; the user reads a sentence (issue 15: no raw reason codes on the page).
    assert turn.get_by_test_id("reason-code").get_attribute("data-reason") == golden_case["reason_code"]
    hints = turn.get_by_test_id("remediation-hint").all_inner_texts()
    assert hints and all(hint.strip() for hint in hints)
    assert turn.get_by_test_id("panel-missing").get_by_test_id("gap").count() >= 1
    audit_ref = turn.get_by_test_id("audit-ref").inner_text()
    assert AUDIT_REF.match(audit_ref), audit_ref
    # The audit_ref shown is a real receipt: a steward reads it back from the same server.
    receipt = httpx.get(
        chat.base + "/audit/" + percent_encode(audit_ref, safe=""),
        headers={"Authorization": f"Bearer {STEWARD_KEY}"},
        timeout=10,
    )
    assert receipt.status_code == 200, receipt.text
    # Nothing of a restricted document reaches the page.
    text = chat.page.locator("body").inner_text()
    for secret in golden_case.get("must_not_include", []):
        assert secret not in text, secret
    turn.scroll_into_view_if_needed()
    chat.screenshot(f"abstain-{tag}")


def test_opening_a_citation_shows_the_evidence_drawer(chat: Chat) -> None:
    golden_case = case("plain-lease-minimum-term", "plain")
    (expected_ref,) = golden_case["locators"]
    (source,) = golden_case["sources"]
    meta = document_meta(source)
    turn = chat.ask(golden_case["question"])
    assert turn.get_attribute("data-status") == "answer", turn.inner_text()

    citation = turn.get_by_test_id("citation").first
    ref = citation.get_attribute("data-ref")
    assert ref is not None and ref.startswith(f"doc://{source}") and ref.endswith(expected_ref.split("#", 1)[1])
    citation.click()

    drawer = chat.page.get_by_role("dialog")
    drawer.wait_for()
    chat.page.locator('#evidence-drawer[data-state="loaded"]').wait_for()
    quote = drawer.get_by_test_id("evidence-quote").inner_text()
    assert quote.strip() and squash(quote) in document_text(source), quote
    for expected in golden_case["must_include"]:
        assert includes(quote, expected), quote
    assert drawer.get_by_test_id("evidence-locator").inner_text() == expected_ref.split("#", 1)[1]
    assert drawer.get_by_test_id("evidence-badge").inner_text() == meta["policy_label"]
    assert drawer.get_by_test_id("evidence-license").inner_text() == meta["license"]
    assert drawer.get_by_test_id("evidence-attribution").inner_text() == meta["attribution"]
    assert drawer.get_by_test_id("evidence-provenance").inner_text() == meta["provenance_kind"]
    assert source in drawer.get_by_test_id("evidence-source").inner_text()
    # The drawer asked for exactly the ref it was opened from, percent-encoded.
    fetched = chat.page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/evidence/'))"
    )
    assert [unquote(urlsplit(url).path[len("/evidence/") :]) for url in fetched] == [ref]
    chat.screenshot("evidence-drawer", full_page=False)

    # Closing it returns focus to the citation; a support link in the Facts panel opens the same quote.
    drawer.get_by_role("button", name="Close the evidence drawer").click()
    assert not drawer.is_visible()
    support = turn.get_by_test_id("fact").first
    support_quote = support.get_by_test_id("support-quote").first.inner_text()
    support.get_by_test_id("support-link").first.click()
    chat.page.locator('#evidence-drawer[data-state="loaded"]').wait_for()
    assert squash(drawer.get_by_test_id("evidence-quote").inner_text()) == squash(support_quote)
    chat.page.keyboard.press("Escape")
    assert not drawer.is_visible()


def test_the_trace_tab_lists_the_run_node_by_node(chat: Chat) -> None:
    golden_case = case("calc-landscaping-per-year", "calc")
    turn = chat.ask(golden_case["question"])
    assert turn.get_attribute("data-status") == "answer", turn.inner_text()
    for expected in golden_case["must_include"]:
        assert includes(turn.get_by_test_id("answer-level1").inner_text(), expected)
    streamed = turn.locator('[data-testid="progress-node"]').evaluate_all("els => els.map(e => e.dataset.node)")

    tab = turn.get_by_role("tab", name="Trace")
    tab.click()
    assert tab.get_attribute("aria-selected") == "true"
    steps = turn.locator('[data-testid="trace-step"]')
    steps.first.wait_for()
    nodes = steps.evaluate_all("els => els.map(e => e.dataset.node)")
    # The trace's steps are the nodes the stream reported while the page waited, in the same order.
    assert nodes == streamed, (nodes, streamed)
    assert nodes[0] == "preflight" and nodes[-1] == "verified_answer"
    assert {"retrieve", "resolve", "draft", "validate"} <= set(nodes)
    assert turn.get_by_test_id("trace-run-id").inner_text() == turn.get_attribute("data-run-id")
    assert turn.get_by_test_id("trace-status-code").inner_text() == "answer"
    for index in range(steps.count()):
        assert steps.nth(index).get_by_test_id("trace-step-ms").inner_text().endswith(" ms")
    draft = turn.locator('[data-testid="trace-step"][data-node="draft"]').first
    assert draft.get_by_test_id("trace-tool-call").count() >= 1, draft.inner_text()
    turn.scroll_into_view_if_needed()
    chat.screenshot("trace-tab")


def test_an_api_key_is_sent_as_a_bearer_token(chat: Chat) -> None:
    golden_case = case("restricted-vehicle-gate-code-steward", "restricted")
    assert golden_case["role"] == "steward"
    (source,) = golden_case["sources"]
    key_field = chat.page.get_by_label(re.compile("API key"))
    key_field.fill(STEWARD_KEY)
    key_field.press("Tab")
    assert chat.page.evaluate("sessionStorage.getItem('quotebound.apiKey')") == STEWARD_KEY

    turn = chat.ask(golden_case["question"])
    assert chat.watch.asks[-1]["authorization"] == f"Bearer {STEWARD_KEY}"
    assert turn.get_attribute("data-status") == "answer", turn.inner_text()
    for expected in golden_case["must_include"]:
        assert includes(turn.get_by_test_id("answer-level1").inner_text(), expected)
    turn.get_by_test_id("citation").first.click()
    chat.page.locator('#evidence-drawer[data-state="loaded"]').wait_for()
    badge = chat.page.get_by_test_id("evidence-badge").inner_text()
    assert badge == document_meta(source)["policy_label"] != "public"
    chat.screenshot("steward-evidence", full_page=False)


def test_without_a_stream_the_page_falls_back_to_post_ask(chat: Chat) -> None:
    golden_case = case("plain-pet-limit", "plain")
    chat.page.route(
        "**/ask/stream",
        lambda route: route.fulfill(
            status=404, content_type="application/json", body='{"error": {"code": "not_found", "message": "x"}}'
        ),
    )
    chat.watch.allowed.extend(["HTTP 404 for POST " + chat.base + "/ask/stream", "404 (Not Found)"])
    before = chat.page.locator('[data-testid="turn"]').count()
    chat.page.get_by_label("Your question", exact=True).fill(golden_case["question"])
    chat.page.get_by_role("button", name="Ask", exact=True).click()
    chat.page.locator('[data-testid="turn"][data-transport="plain"]').wait_for()
    turn = chat.turn(before)
    assert turn.get_attribute("data-status") == "answer", turn.inner_text()
    for expected in golden_case["must_include"]:
        assert includes(turn.get_by_test_id("answer-level1").inner_text(), expected)
    assert [ask["path"] for ask in chat.watch.asks] == ["/ask/stream", "/ask"]
    assert chat.watch.asks[0]["body"] == chat.watch.asks[1]["body"]
    chat.screenshot("fallback-post-ask")


def test_untrusted_text_is_shown_as_text(chat: Chat) -> None:
    payload = '<img src="/static/x.png" onerror="document.body.dataset.pwned = 1"><b>bold</b>'
    turn = chat.ask(payload + " What is the minimum lease term?")
    assert turn.get_by_test_id("turn-question").inner_text().startswith(payload)
    assert chat.page.locator('[data-testid="transcript"] img, [data-testid="transcript"] b').count() == 0
    assert chat.page.evaluate("document.body.dataset.pwned") is None


def test_an_unknown_api_key_is_refused_in_the_page(chat: Chat) -> None:
    chat.watch.allowed.extend(["HTTP 401 for POST " + chat.base + "/ask/stream", "401 (Unauthorized)"])
    chat.page.get_by_label(re.compile("API key")).fill("not-a-key-of-this-server")
    before = chat.page.locator('[data-testid="turn"]').count()
    chat.page.get_by_label("Your question", exact=True).fill(case("plain-pet-limit", "plain")["question"])
    chat.page.get_by_role("button", name="Ask", exact=True).click()
    problem = chat.turn(before).get_by_role("alert")
    problem.wait_for()
    assert "key" in problem.inner_text().lower()
    assert chat.turn(before).get_attribute("data-status") == "problem"
    assert [ask["path"] for ask in chat.watch.asks] == ["/ask/stream"]  # refused, not retried without the key
    assert chat.watch.asks[0]["authorization"] == "Bearer not-a-key-of-this-server"
    chat.screenshot("unknown-api-key")


# --- the page says what is true (issue 15, item 9) ----------------------------------------------------------

SIGNAL_NAMES = get_args(get_args(ClarifyNotes.model_fields["reason"].annotation)[0])
ENUM_NAMES = [*SIGNAL_NAMES, *(code.value for code in ReasonCode), *get_args(GapWhy)]
FIELD_DUMP = re.compile(r"\b[a-z_]+: (?:true|false|null|\d+)\b")  # "clarify: false, signals: 0"


def assert_plain_words(text: str) -> None:
    """No internal field dump and no closed-enum name (signal, reason code, gap why) in what the user reads."""
    assert not FIELD_DUMP.search(text), FIELD_DUMP.search(text)
    for name in ENUM_NAMES:
        assert name not in text, (name, text)


def ask_api(chat: Chat, question: str) -> dict[str, Any]:
    """The envelope POST /ask gives for `question` (the same deterministic run the page made, on a new session)."""
    response = httpx.post(chat.base + "/ask", json={"question": question}, timeout=30)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def serve_envelope(chat: Chat, envelope: dict[str, Any], *, events: tuple[tuple[str, Any], ...] = ()) -> Any:
    """Ask through the page while /ask/stream answers `events` then `envelope` (what a server could send)."""
    body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in [*events, ("envelope", envelope)])
    chat.page.unroute("**/ask/stream")
    chat.page.route(
        "**/ask/stream", lambda route: route.fulfill(status=200, content_type="text/event-stream", body=body)
    )
    return chat.ask("What does the crafted envelope say?")


def crafted_answer(*, conflicts: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An answer envelope whose one fact is given by two documents (both quotes verbatim from examples/hoa)."""
    envelope: dict[str, Any] = {
        "status": "answer",
        "answer": {
            "level1": "Dogs must be leashed in the Common Area.",
            "level2": "The Declaration requires it; the spring newsletter repeats it.",
            "level3": "declaration.md p.1 L45; newsletter-spring-2025.md p.1 L36.",
        },
        "evidence": {
            "mode": "answer",
            "answer": "Dogs must be leashed in the Common Area.",
            "facts": [
                {
                    "text": "Dogs must be leashed in the Common Area.",
                    "support": [
                        {
                            "source_id": "declaration.md",
                            "locator": "p.1 L45-L45",
                            "quote": "Dogs must be leashed at all times in the Common Area.",
                        },
                        {
                            "source_id": "newsletter-spring-2025.md",
                            "locator": "p.1 L36-L36",
                            "quote": "please keep dogs leashed in the Common Area.",
                        },
                    ],
                    "confidence": 0.95,
                }
            ],
            "conflicts": conflicts or [],
            "confidence": 0.95,
        },
        "citations": [
            {"ref": "doc://declaration.md@v1#p.1 L45-L45", "bundle_id": "b1"},
            {"ref": "doc://newsletter-spring-2025.md@v1#p.1 L36-L36", "bundle_id": "b2"},
        ],
        "audit_ref": "audit://crafted",
        "meta": {"run_id": "crafted", "model_id": "crafted", "latency_ms": 1.0},
    }
    TypeAdapter(Envelope).validate_python(envelope)  # a shape the API can send
    for fact in envelope["evidence"]["facts"]:
        for support in fact["support"]:
            assert squash(support["quote"]) in document_text(support["source_id"]), support
    return envelope


def test_an_abstention_says_why_in_words_and_never_says_verified(chat: Chat) -> None:
    golden_case = case("missing-pool-hours", "missing")
    turn = chat.ask(golden_case["question"])

    assert turn.get_attribute("data-status") == "abstain", turn.inner_text()
    text = turn.inner_text()
    # The page's own words never call an abstention verified (the server's level texts may say what it could
    # not verify: they are the abstention's explanation, not a claim about it).
    assert "verified answer" not in text.lower(), text
    assert "verif" not in turn.get_by_test_id("status-badge").inner_text().lower()
    assert "verif" not in turn.get_by_test_id("progress").inner_text().lower()
    assert_plain_words(text)  # the progress steps too: no "clarify: false, signals: 0"
    reason = turn.get_by_test_id("reason-code")
    assert reason.get_attribute("data-reason") == golden_case["reason_code"]
    assert reason.inner_text().strip().endswith("."), reason.inner_text()
    for why in turn.locator('[data-testid="gap"] .gap-why').all_inner_texts():
        assert why.strip()
    assert turn.get_by_test_id("answer-confidence").count() == 0


def test_a_clarify_gives_its_reasons_without_signal_names(chat: Chat) -> None:
    golden_case = case("clarify-square-footage-4b", "clarify")
    turn = chat.ask(golden_case["question"])

    assert turn.get_attribute("data-status") == "clarify", turn.inner_text()
    envelope = ask_api(chat, golden_case["question"])
    assert envelope["status"] == "clarify" and envelope["notes"]["reason"], envelope
    reasons = turn.get_by_test_id("clarify-reason").all_inner_texts()
    assert reasons and all(reason.strip().endswith(".") for reason in reasons), reasons
    text = turn.inner_text()
    assert_plain_words(text)
    assert "verif" not in text.lower(), text


def test_an_answer_shows_the_gate_confidence_and_no_agreement_from_one_source(chat: Chat) -> None:
    golden_case = case("plain-lease-minimum-term", "plain")
    turn = chat.ask(golden_case["question"])
    envelope = ask_api(chat, golden_case["question"])

    assert turn.get_attribute("data-status") == envelope["status"] == "answer", turn.inner_text()
    assert turn.get_by_test_id("status-badge").inner_text() == "Verified answer"
    confidence = envelope["evidence"]["confidence"]
    assert isinstance(confidence, float)
    shown = turn.get_by_test_id("answer-confidence")
    assert shown.inner_text() == f"Confidence {round(confidence * 100)}%"
    assert float(shown.get_attribute("data-confidence") or "nan") == confidence
    # Every fact cites one source: nothing was compared, so nothing is said about agreement.
    assert all(len({s["source_id"] for s in fact["support"]}) < 2 for fact in envelope["evidence"]["facts"])
    text = turn.inner_text()
    assert "sources agree" not in text.lower() and turn.get_by_test_id("sources-agree").count() == 0, text
    assert_plain_words(text)


def test_two_sources_that_agree_are_said_to_agree_and_a_conflict_says_nothing_of_it(chat: Chat) -> None:
    turn = serve_envelope(chat, crafted_answer())
    assert turn.get_attribute("data-status") == "answer", turn.inner_text()
    assert turn.get_by_test_id("answer-confidence").inner_text() == "Confidence 95%"
    assert "agree" in turn.get_by_test_id("sources-agree").inner_text()
    agreement = turn.get_by_test_id("fact-agreement").inner_text()
    assert "declaration.md" in agreement and "newsletter-spring-2025.md" in agreement, agreement
    assert turn.get_by_test_id("panel-conflicts").count() == 0
    chat.screenshot("sources-agree")

    conflict = {
        "key": "model-supplied-key",
        "values": [
            {
                "value": "leashed",
                "source_id": "declaration.md",
                "locator": "p.1 L45-L45",
                "quote": "Dogs must be leashed at all times in the Common Area.",
            },
            {
                "value": "leashed",
                "source_id": "newsletter-spring-2025.md",
                "locator": "p.1 L36-L36",
                "quote": "please keep dogs leashed in the Common Area.",
            },
        ],
    }
    turn = serve_envelope(chat, crafted_answer(conflicts=[conflict]))
    assert turn.get_by_test_id("panel-conflicts").count() == 1
    assert "agree" not in turn.inner_text().lower(), turn.inner_text()
    assert "model-supplied-key" not in turn.inner_text()  # the caption is the page's words, not the model's key


def test_values_the_page_does_not_know_get_a_generic_sentence(chat: Chat) -> None:
    # A newer server may add a signal, a reason code or a node: the page never shows the raw name.
    clarify = {
        "status": "clarify",
        "session_id": "s-1",
        "questions": [{"field": "unit", "prompt": "Which unit?"}],
        "notes": {"reason": ["AmbiguousSubject", "SomeFutureSignal"]},
        "audit_ref": "audit://crafted",
        "meta": {"run_id": "crafted-1", "model_id": "crafted", "latency_ms": 1.0},
    }
    events = (
        ("node", {"node": "preflight", "summary": {"clarify": True, "signals": 2, "missing": 1}}),
        ("node", {"node": "future_node", "summary": {"secret_field": 3}}),
    )
    turn = serve_envelope(chat, clarify, events=events)
    text = turn.inner_text()
    assert "SomeFutureSignal" not in text and "future_node" not in text and "secret_field" not in text, text
    assert_plain_words(text)
    assert len(turn.get_by_test_id("clarify-reason").all_inner_texts()) == 2

    abstain = {
        "status": "abstain",
        "reason_code": "some_future_code",
        "answer": {"level1": "I can't tell from the documents.", "level2": "", "level3": ""},
        "gaps": [{"need": "the pool hours", "why": "some_future_why"}],
        "evidence": {"mode": "report_insufficient_evidence", "confidence": 1.0},
        "audit_ref": "audit://crafted",
        "meta": {"run_id": "crafted-2", "model_id": "crafted", "latency_ms": 1.0},
    }
    turn = serve_envelope(chat, abstain)
    text = turn.inner_text()
    assert "some_future" not in text and "verified answer" not in text.lower(), text
    # A model's number on an abstention is never shown as a confidence.
    assert "100%" not in text and turn.get_by_test_id("answer-confidence").count() == 0, text
    assert turn.get_by_test_id("reason-code").get_attribute("data-reason") == "some_future_code"
