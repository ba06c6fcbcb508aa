/* quotebound chat page: plain JavaScript, no build step, no third-party code.
 *
 * Everything the server sends is untrusted text (questions, quotes, titles, hints): it is only ever inserted
 * with textContent or as attribute values, never parsed as HTML. The page's Content-Security-Policy (index.html)
 * allows scripts, styles and requests to this origin only.
 *
 * Routes used (agent/server): POST /ask/stream (server-sent events: node / progress, then one envelope),
 * POST /ask (the fallback: one envelope), GET /evidence/{ref}, GET /runs/{run_id}/trace. URLs are relative to
 * the page, so the service also works behind a reverse proxy that mounts it under a path prefix.
 */
"use strict";

(function () {
  const KEY_STORAGE = "quotebound.apiKey";
  const SESSION_STORAGE = "quotebound.sessionId";

  const NODE_LABELS = {
    preflight: "Checking the question",
    clarify: "Reading your replies",
    retrieve: "Searching the documents",
    resolve: "Resolving evidence under your access policy",
    draft: "Drafting from verbatim quotes",
    repair: "Repairing the draft",
    validate: "Checking every quote and number",
    verified_answer: "Checking the citations once more",
    abstain: "Explaining why there is no answer",
  };

  // What the page says about a step's counts (a node event's summary, a progress event's data). Only these
  // sentences are shown: never the raw field names or values. Each returns "" when there is nothing to say.
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function count(values, name) {
    return typeof values[name] === "number" && Number.isFinite(values[name]) ? values[name] : null;
  }

  const STEP_TEXT = {
    preflight: (v) => (v.clarify === true ? "A detail is needed from you." : v.clarify === false ? "The question can be looked up." : ""),
    clarify: (v) => (count(v, "replies") === null ? "" : plural(count(v, "replies"), "reply", "replies") + " read."),
    retrieve: (v) =>
      count(v, "hits") === null ? "" : count(v, "hits") ? plural(count(v, "hits"), "passage", "passages") + " found." : "No passage found.",
    resolve: (v) =>
      count(v, "bundles") === null
        ? ""
        : count(v, "bundles")
          ? plural(count(v, "bundles"), "passage", "passages") + " you may read."
          : "No passage you may read.",
    draft: (v) => (v.drafted === true ? "A draft is written." : v.drafted === false ? "No draft was written." : ""),
    repair: (v) => (v.drafted === true ? "A new draft is written." : v.drafted === false ? "No new draft was written." : ""),
    validate: (v) =>
      v.ok === true
        ? "Every check passed."
        : v.ok === false
          ? count(v, "findings")
            ? plural(count(v, "findings"), "problem", "problems") + " found."
            : "The draft did not pass."
          : "",
  };

  function stepText(node, values) {
    const describe = STEP_TEXT[node];
    return describe && isObject(values) ? describe(values) : "";
  }

  const REASON_TEXT = {
    no_evidence: "No passage in the documents available to you answers this.",
    insufficient_evidence: "The evidence found does not fully answer this.",
    conflict_unresolved: "The sources disagree and nothing settles which applies.",
    clarify_timeout: "The question stayed ambiguous after the clarify rounds.",
    not_permitted: "This request is not permitted for your role.",
    verification_failed: "No draft could be fully backed by the quotes found.",
    retrieval_unavailable: "Search is unavailable right now.",
    model_error: "The drafting model failed.",
  };
  const REASON_FALLBACK = "There is no answer this time.";

  const GAP_WHY = {
    no_quote_found: "no quote found",
    low_coverage: "the quotes found cover it only in part",
    access_denied: "not available to you",
    clarify_timeout: "the question stayed ambiguous",
  };
  const GAP_WHY_FALLBACK = "not found in the documents available to you";

  // Why a clarify was asked (ClarifyNotes.reason: the preflight's signals), in plain words.
  const CLARIFY_WHY = {
    UnknownIntent: "The question is too short or unclear to look up.",
    AmbiguousSubject: "The question could be about more than one thing.",
    InsufficientParameters: "The answer depends on a detail the question does not give.",
    InsufficientGrounding: "The documents do not say enough about this without more detail.",
  };
  const CLARIFY_WHY_FALLBACK = "A detail is needed to answer this.";

  /** The sentence for a closed enum value: its own, or the fallback; never the raw name. */
  function sentence(table, value, fallback) {
    return Object.prototype.hasOwnProperty.call(table, value) ? table[value] : fallback;
  }

  const state = {
    apiKey: "",
    sessionId: "",
    turns: 0,
    busy: false,
  };

  // --- small DOM helpers (text only) ----------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  /** An element with text content and attributes; children are nodes or strings (inserted as text). */
  function el(tag, options, children) {
    const node = document.createElement(tag);
    const opts = options || {};
    if (opts.className) node.className = opts.className;
    if (opts.testid) node.setAttribute("data-testid", opts.testid);
    if (opts.id) node.id = opts.id;
    if (opts.text !== undefined && opts.text !== null) node.textContent = String(opts.text);
    if (opts.attrs) {
      for (const [name, value] of Object.entries(opts.attrs)) {
        if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
      }
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function within(root, testid) {
    return root.querySelector('[data-testid="' + testid + '"]');
  }

  function asText(value) {
    if (value === null || value === undefined) return "";
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function list(value) {
    return Array.isArray(value) ? value : [];
  }

  // --- identity: API key and session ----------------------------------------------------------------------

  function randomId() {
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes); // works on plain http too, unlike crypto.randomUUID
    return "web-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function loadIdentity() {
    try {
      state.apiKey = window.sessionStorage.getItem(KEY_STORAGE) || "";
      state.sessionId = window.sessionStorage.getItem(SESSION_STORAGE) || "";
    } catch (_err) {
      state.apiKey = "";
      state.sessionId = "";
    }
    // Without a key the server issues the session_id: one this page made up would be refused.
    if (!state.sessionId || (!state.apiKey && state.sessionId.startsWith("web-"))) newSession();
    $("api-key").value = state.apiKey;
    showKeyState();
    showSession();
  }

  function saveKey(value) {
    const changed = state.apiKey !== value.trim();
    state.apiKey = value.trim();
    try {
      if (state.apiKey) window.sessionStorage.setItem(KEY_STORAGE, state.apiKey);
      else window.sessionStorage.removeItem(KEY_STORAGE);
    } catch (_err) {
      /* storage disabled: the key lives in memory for this page only */
    }
    showKeyState();
    if (changed) newSession(); // sessions belong to the caller: another key (or none) is another conversation
  }

  function showKeyState() {
    $("api-key-state").textContent = state.apiKey ? "Key set for this tab" : "No key: public access";
  }

  /** A new conversation: with a key the page names it; without one the server issues it on the first question. */
  function newSession() {
    setSession(state.apiKey ? randomId() : "");
  }

  function setSession(id) {
    state.sessionId = id;
    try {
      if (id) window.sessionStorage.setItem(SESSION_STORAGE, id);
      else window.sessionStorage.removeItem(SESSION_STORAGE);
    } catch (_err) {
      /* in memory only */
    }
    showSession();
  }

  /** The session the server answered on (X-Session-Id): the one to send back, e.g. to answer a clarify. */
  function adoptSession(response) {
    const id = response.headers.get("X-Session-Id");
    if (id && id !== state.sessionId) setSession(id);
  }

  function showSession() {
    $("session-id").textContent = state.sessionId || "new (issued with the first answer)";
  }

  function authHeaders(extra) {
    const headers = Object.assign({}, extra || {});
    if (state.apiKey) headers.Authorization = "Bearer " + state.apiKey;
    return headers;
  }

  // --- HTTP -----------------------------------------------------------------------------------------------

  class HttpProblem extends Error {
    constructor(status, code, message, fields) {
      super(message);
      this.status = status;
      this.code = code;
      this.fields = fields || [];
    }
  }

  /** A non-2xx response as an HttpProblem (the server's `{"error": {...}}` body when it sent one). */
  async function problemOf(response) {
    let body = null;
    try {
      body = await response.json();
    } catch (_err) {
      body = null;
    }
    const error = isObject(body) && isObject(body.error) ? body.error : {};
    const fallback = {
      401: "The API key was not accepted.",
      403: "Your role may not do this.",
      404: "Not found.",
      422: "The request was not valid.",
      429: "Too many requests; wait a moment and try again.",
    };
    const message = asText(error.message) || fallback[response.status] || "The server answered " + response.status + ".";
    return { problem: new HttpProblem(response.status, asText(error.code), message, list(error.fields)), body };
  }

  function isEnvelope(value) {
    return isObject(value) && ["answer", "abstain", "clarify", "error"].includes(value.status);
  }

  /** POST /ask: one envelope (an error envelope comes with 503). */
  async function askPlain(body) {
    const response = await fetch("ask", {
      method: "POST",
      headers: authHeaders({ "Content-Type": "application/json", Accept: "application/json" }),
      body: JSON.stringify(body),
      cache: "no-store",
    });
    if (response.ok) {
      adoptSession(response);
      return response.json();
    }
    const { problem, body: data } = await problemOf(response);
    if (isEnvelope(data)) return data;
    throw problem;
  }

  class StreamUnavailable extends Error {}

  /** Split server-sent events out of a text buffer; returns [events, rest]. */
  function takeEvents(buffer) {
    const events = [];
    const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/);
    const rest = blocks.pop();
    for (const block of blocks) {
      let name = "message";
      const data = [];
      for (const line of block.split(/\r\n|\n|\r/)) {
        if (!line || line.startsWith(":")) continue; // a comment (keep-alive ping)
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") name = value;
        else if (field === "data") data.push(value);
      }
      if (data.length) events.push({ name, data: data.join("\n") });
    }
    return [events, rest];
  }

  /** POST /ask/stream read with fetch + ReadableStream (EventSource cannot POST); onEvent gets node/progress
   * events; resolves with the envelope. Throws StreamUnavailable when the route cannot stream at all, so the
   * caller falls back to POST /ask; an HttpProblem for a refused request. */
  async function askStream(body, onEvent) {
    if (typeof ReadableStream === "undefined" || typeof TextDecoder === "undefined") {
      throw new StreamUnavailable("no streams in this browser");
    }
    let response;
    try {
      response = await fetch("ask/stream", {
        method: "POST",
        headers: authHeaders({ "Content-Type": "application/json", Accept: "text/event-stream" }),
        body: JSON.stringify(body),
        cache: "no-store",
      });
    } catch (_err) {
      throw new StreamUnavailable("the stream could not be opened");
    }
    if ([404, 405, 406, 501].includes(response.status)) throw new StreamUnavailable("no stream route");
    if (!response.ok) {
      const { problem, body: data } = await problemOf(response);
      if (isEnvelope(data)) return data;
      throw problem;
    }
    adoptSession(response);
    const type = response.headers.get("Content-Type") || "";
    if (!type.includes("text/event-stream")) {
      const data = await response.json().catch(() => null);
      if (isEnvelope(data)) return data;
      throw new StreamUnavailable("not an event stream");
    }
    if (!response.body) throw new StreamUnavailable("no response body");
    const reader = response.body.getReader();
    const decoder = new TextDecoder("utf-8");
    let buffer = "";
    let envelope = null;
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() + "\n\n" : decoder.decode(value, { stream: true });
      const [events, rest] = takeEvents(buffer);
      buffer = rest;
      for (const event of events) {
        let data;
        try {
          data = JSON.parse(event.data);
        } catch (_err) {
          continue;
        }
        if (envelope) continue; // nothing counts after the envelope
        if (event.name === "envelope" || (isObject(data) && data.type === "envelope")) {
          envelope = isObject(data) && data.type === "envelope" && isObject(data.envelope) ? data.envelope : data;
        } else if (event.name === "error" && isObject(data) && isObject(data.error)) {
          throw new HttpProblem(0, asText(data.error.code), asText(data.error.message) || "The run failed.");
        } else {
          onEvent(event.name, data);
        }
      }
      if (done) break; // read to the end (the server closes after the envelope): no aborted request
    }
    if (envelope) return envelope;
    throw new HttpProblem(0, "stream_ended", "The connection ended before the answer arrived. Please ask again.");
  }

  // --- turns ----------------------------------------------------------------------------------------------

  function newTurn(question, context) {
    state.turns += 1;
    const n = state.turns;
    const fragment = $("turn-template").content.cloneNode(true);
    const turn = fragment.querySelector(".turn");
    turn.id = "turn-" + n;
    turn.setAttribute("data-turn", String(n));
    turn.setAttribute("data-status", "pending");
    turn.setAttribute("aria-busy", "true");
    within(turn, "turn-question").textContent = question;
    const replies = Object.entries(context || {});
    if (replies.length) {
      const line = within(turn, "turn-replies");
      line.textContent = "Your replies: " + replies.map(([field, value]) => field + " = " + (value || "(blank)")).join("; ");
      line.hidden = false;
    }
    // Tabs: ids unique per turn, so aria-controls / aria-labelledby work.
    for (const tab of turn.querySelectorAll('[role="tab"]')) {
      const name = tab.getAttribute("data-tab");
      tab.id = "turn-" + n + "-tab-" + name;
      tab.setAttribute("aria-controls", "turn-" + n + "-panel-" + name);
      tab.addEventListener("click", () => selectTab(turn, name));
      tab.addEventListener("keydown", (event) => tabKeys(turn, event));
    }
    for (const panel of turn.querySelectorAll('[role="tabpanel"]')) {
      const name = panel.getAttribute("data-panel");
      panel.id = "turn-" + n + "-panel-" + name;
      panel.setAttribute("aria-labelledby", "turn-" + n + "-tab-" + name);
      panel.tabIndex = 0;
    }
    $("transcript").appendChild(fragment);
    turn.scrollIntoView({ block: "nearest" });
    return turn;
  }

  function selectTab(turn, name) {
    for (const tab of turn.querySelectorAll('[role="tab"]')) {
      const selected = tab.getAttribute("data-tab") === name;
      tab.setAttribute("aria-selected", selected ? "true" : "false");
      tab.tabIndex = selected ? 0 : -1;
    }
    for (const panel of turn.querySelectorAll('[role="tabpanel"]')) {
      panel.hidden = panel.getAttribute("data-panel") !== name;
    }
    if (name === "trace") loadTrace(turn);
  }

  function tabKeys(turn, event) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const tabs = Array.from(turn.querySelectorAll('[role="tab"]'));
    const index = tabs.indexOf(event.currentTarget);
    const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    next.focus();
    selectTab(turn, next.getAttribute("data-tab"));
    event.preventDefault();
  }

  function showProgress(turn, name, data) {
    if (!isObject(data)) return;
    const node = asText(data.node);
    if (!node) return;
    const steps = within(turn, "progress-steps");
    let item = null;
    for (const candidate of steps.children) {
      if (candidate.getAttribute("data-node") === node && !candidate.classList.contains("done")) item = candidate;
    }
    if (!item || (name === "node" && item.classList.contains("done"))) {
      item = el("li", { className: "progress-step", testid: "progress-node", attrs: { "data-node": node } }, [
        el("span", { className: "step-label", text: NODE_LABELS[node] || "Working" }),
        " ",
        el("span", { className: "step-detail hint", testid: "progress-detail" }),
      ]);
      steps.appendChild(item);
    }
    const detail = stepText(node, name === "node" ? data.summary : data.data);
    if (detail || name === "node") item.querySelector(".step-detail").textContent = detail;
    if (name === "node") item.classList.add("done");
    within(turn, "progress-state").textContent = (NODE_LABELS[node] || "Working") + "…";
  }

  function finishTurn(turn, status) {
    turn.setAttribute("data-status", status);
    turn.removeAttribute("aria-busy");
    const steps = within(turn, "progress-steps");
    within(turn, "progress-state").textContent = steps.children.length
      ? "Done in " + steps.children.length + (steps.children.length === 1 ? " step." : " steps.")
      : "Done.";
    within(turn, "turn-result").hidden = false;
  }

  /** Ask (or answer a clarify, with `context`); resolves with how the new turn ended. */
  async function ask(question, context) {
    if (state.busy) return "busy";
    state.busy = true;
    $("ask-submit").disabled = true;
    $("ask-status").textContent = "Asking…";
    const turn = newTurn(question, context);
    const body = { question };
    if (state.sessionId) body.session_id = state.sessionId;
    if (context && Object.keys(context).length) body.context = context;
    try {
      let envelope;
      try {
        envelope = await askStream(body, (name, data) => showProgress(turn, name, data));
        turn.setAttribute("data-transport", "stream");
      } catch (err) {
        if (!(err instanceof StreamUnavailable)) throw err;
        within(turn, "progress-state").textContent = "Waiting for the answer…";
        envelope = await askPlain(body);
        turn.setAttribute("data-transport", "plain");
      }
      if (!isEnvelope(envelope)) throw new HttpProblem(0, "bad_response", "The server sent something unexpected.");
      renderEnvelope(turn, envelope, question);
      $("ask-status").textContent = "";
    } catch (err) {
      renderProblem(turn, err);
      $("ask-status").textContent = "";
    } finally {
      state.busy = false;
      $("ask-submit").disabled = false;
    }
    return turn.getAttribute("data-status");
  }

  // --- envelopes ------------------------------------------------------------------------------------------

  function renderEnvelope(turn, envelope, question) {
    const answerPanel = within(turn, "answer-panel");
    answerPanel.textContent = "";
    const meta = isObject(envelope.meta) ? envelope.meta : {};
    if (meta.run_id) turn.setAttribute("data-run-id", asText(meta.run_id));
    const box = el("article", {
      className: "envelope envelope-" + envelope.status,
      testid: "envelope",
      attrs: { "data-status": envelope.status },
    });
    answerPanel.appendChild(box);
    if (envelope.status === "answer") renderAnswer(box, envelope);
    else if (envelope.status === "abstain") renderAbstain(box, envelope);
    else if (envelope.status === "clarify") renderClarify(box, envelope, question, turn);
    else renderErrorEnvelope(box, envelope);
    box.appendChild(renderMeta(envelope, meta));
    finishTurn(turn, envelope.status);
  }

  function statusBadge(text, kind) {
    return el("span", { className: "status-badge status-" + kind, testid: "status-badge", text });
  }

  function renderLevels(box, levels, withLabels) {
    const lv = isObject(levels) ? levels : {};
    const wrap = el("div", { className: "levels", testid: "levels" });
    wrap.appendChild(el("p", { className: "level level1", testid: "answer-level1", text: asText(lv.level1) }));
    if (lv.level2) {
      wrap.appendChild(
        el("details", { className: "level level2-wrap", attrs: { open: withLabels ? "" : null } }, [
          el("summary", { text: "Explanation" }),
          el("p", { className: "level level2", testid: "answer-level2", text: asText(lv.level2) }),
        ]),
      );
    }
    if (lv.level3) {
      wrap.appendChild(
        el("details", { className: "level level3-wrap" }, [
          el("summary", { text: "Sources in detail" }),
          el("p", { className: "level level3", testid: "answer-level3", text: asText(lv.level3) }),
        ]),
      );
    }
    box.appendChild(wrap);
  }

  /** Parse `doc://<source_id>[@vN]#<locator>`; null when it is not a ref. */
  function parseRef(ref) {
    if (typeof ref !== "string" || !ref.startsWith("doc://") || !ref.includes("#")) return null;
    const hash = ref.indexOf("#");
    let body = ref.slice("doc://".length, hash);
    const locator = ref.slice(hash + 1);
    let version = null;
    const pinned = /^(.+)@v([1-9][0-9]*)$/.exec(body);
    if (pinned) {
      body = pinned[1];
      version = Number(pinned[2]);
    }
    return { sourceId: body, locator, version };
  }

  /** The ref to open for a quote: the envelope's own (version-pinned) citation when one matches. */
  function refFor(citations, sourceId, locator) {
    for (const citation of citations) {
      const parsed = parseRef(asText(citation.ref));
      if (parsed && parsed.sourceId === sourceId && parsed.locator === locator) return asText(citation.ref);
    }
    return "doc://" + sourceId + "#" + locator;
  }

  function evidenceButton(ref, text, testid) {
    const button = el("button", {
      className: "cite",
      testid: testid || "citation",
      text,
      attrs: { type: "button", "data-ref": ref, "aria-haspopup": "dialog", title: "Open the evidence: " + ref },
    });
    button.addEventListener("click", () => openEvidence(ref, button));
    return button;
  }

  function panelSection(id, title, testid) {
    const heading = el("h3", { id, text: title });
    const section = el("section", { className: "panel", testid, attrs: { "aria-labelledby": id } }, [heading]);
    return section;
  }

  /** The answer's confidence as the gate computed it (verified_answer sets `evidence.confidence` from its own
   * checks of every quote and locator, whatever the model put there); null when it is not a number in [0, 1]. */
  function gateConfidence(evidence) {
    const value = evidence.confidence;
    return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
  }

  /** The distinct sources a fact cites. */
  function factSources(fact) {
    return Array.from(new Set(list(fact.support).map((support) => asText(support.source_id)).filter(Boolean)));
  }

  function renderAnswer(box, envelope) {
    const evidence = isObject(envelope.evidence) ? envelope.evidence : {};
    const citations = list(envelope.citations);
    const ids = "run-" + asText((envelope.meta || {}).run_id).replace(/[^A-Za-z0-9_-]/g, "") + "-" + state.turns;
    // Only an answer envelope is one that passed the gate: the only place the page says "verified".
    const head = el("p", { className: "answer-head" }, [statusBadge("Verified answer", "answer")]);
    const confidence = gateConfidence(evidence);
    head.appendChild(
      confidence === null
        ? el("span", { className: "confidence hint", testid: "answer-confidence", text: "Confidence not reported." })
        : el("span", {
            className: "confidence",
            testid: "answer-confidence",
            text: "Confidence " + Math.round(confidence * 100) + "%",
            attrs: {
              "data-confidence": String(confidence),
              title: "Computed by the checks, from how exactly each quote and locator matched the documents",
            },
          }),
    );
    box.appendChild(head);
    renderLevels(box, envelope.answer, true);
    // Agreement is claimed only where it was seen: a fact backed by two or more distinct sources, and no
    // conflict listed anywhere in the answer.
    const conflicts = list(evidence.conflicts);
    const agreeing = conflicts.length ? [] : list(evidence.facts).filter((fact) => factSources(fact).length >= 2);
    if (agreeing.length) {
      const most = Math.max(...agreeing.map((fact) => factSources(fact).length));
      box.appendChild(
        el("p", {
          className: "agreement",
          testid: "sources-agree",
          text:
            agreeing.length === 1
              ? "The sources agree: " + most + " sources give the same fact."
              : "The sources agree: " + agreeing.length + " facts are each given by two or more sources.",
        }),
      );
    }

    // Facts, with the quotes that support each.
    const facts = panelSection(ids + "-facts", "Facts", "panel-facts");
    const factList = el("ol", { className: "facts" });
    for (const fact of list(evidence.facts)) {
      const supports = el("ul", { className: "supports" });
      for (const support of list(fact.support)) {
        const sourceId = asText(support.source_id);
        const locator = asText(support.locator);
        supports.appendChild(
          el("li", { className: "support", testid: "support" }, [
            el("blockquote", { className: "quote", testid: "support-quote", text: asText(support.quote) }),
            evidenceButton(refFor(citations, sourceId, locator), sourceId + " " + locator, "support-link"),
          ]),
        );
      }
      const item = el("li", { className: "fact", testid: "fact" }, [
        el("p", { className: "fact-text", testid: "fact-text", text: asText(fact.text) }),
      ]);
      if (fact.calc && isObject(fact.calc)) {
        item.appendChild(
          el("p", { className: "hint", testid: "fact-calc", text: "Computed: " + asText(fact.calc.expr) + " = " + asText(fact.calc.value) }),
        );
      }
      if (fact.secondary_only) item.appendChild(el("p", { className: "hint", text: "Secondary sources only." }));
      const sources = factSources(fact);
      if (!conflicts.length && sources.length >= 2) {
        item.appendChild(
          el("p", { className: "hint", testid: "fact-agreement", text: sources.length + " sources agree on this: " + sources.join(", ") + "." }),
        );
      }
      item.appendChild(supports);
      factList.appendChild(item);
    }
    facts.appendChild(factList.children.length ? factList : el("p", { className: "hint", text: "No facts listed." }));
    box.appendChild(facts);

    box.appendChild(gapsPanel(ids, list(evidence.gaps)));
    if (conflicts.length) box.appendChild(conflictsPanel(ids, conflicts, citations));

    // Citations.
    const cites = panelSection(ids + "-citations", "Citations", "panel-citations");
    const citeList = el("ol", { className: "citations" });
    for (const citation of citations) {
      citeList.appendChild(el("li", {}, [evidenceButton(asText(citation.ref), asText(citation.ref), "citation")]));
    }
    cites.appendChild(citeList);
    box.appendChild(cites);
    box.appendChild(auditLine(envelope.audit_ref));
  }

  function gapsPanel(ids, gaps) {
    const section = panelSection(ids + "-missing", "Missing information", "panel-missing");
    if (!gaps.length) {
      section.appendChild(el("p", { className: "hint", testid: "missing-empty", text: "Nothing reported missing." }));
      return section;
    }
    const items = el("ul", { className: "gaps" });
    for (const gap of gaps) {
      const why = asText(gap.why);
      items.appendChild(
        el("li", { className: "gap", testid: "gap", attrs: { "data-why": why } }, [
          el("span", { className: "gap-need", text: asText(gap.need) }),
          " — ",
          el("span", { className: "gap-why hint", text: sentence(GAP_WHY, why, GAP_WHY_FALLBACK) }),
        ]),
      );
    }
    section.appendChild(items);
    return section;
  }

  function conflictsPanel(ids, conflicts, citations) {
    // Shown only when conflicts are listed. The caption is the page's own words, not the model's `key`.
    const section = panelSection(ids + "-conflicts", "Conflicts", "panel-conflicts");
    for (const conflict of conflicts) {
      const table = el("table", { className: "conflict-values" }, [
        el("caption", { text: "The sources give different values" }),
        el("thead", {}, [
          el("tr", {}, [
            el("th", { text: "Value", attrs: { scope: "col" } }),
            el("th", { text: "Source", attrs: { scope: "col" } }),
            el("th", { text: "Locator", attrs: { scope: "col" } }),
            el("th", { text: "Quote", attrs: { scope: "col" } }),
          ]),
        ]),
      ]);
      const rows = el("tbody");
      for (const value of list(conflict.values)) {
        const sourceId = asText(value.source_id);
        const locator = asText(value.locator);
        rows.appendChild(
          el("tr", { className: "conflict-value", testid: "conflict-value" }, [
            el("td", { className: "value", testid: "conflict-value-value", text: asText(value.value) }),
            el("td", { testid: "conflict-value-source", text: sourceId }),
            el("td", {}, [evidenceButton(refFor(citations, sourceId, locator), locator, "conflict-link")]),
            el("td", {}, [el("q", { className: "quote-inline", text: asText(value.quote) })]),
          ]),
        );
      }
      table.appendChild(rows);
      const block = el("div", { className: "conflict", testid: "conflict", attrs: { "data-key": asText(conflict.key) } }, [
        table,
      ]);
      if (conflict.delta) block.appendChild(el("p", { className: "hint", text: "Difference: " + asText(conflict.delta) }));
      if (conflict.notes) block.appendChild(el("p", { className: "hint", text: asText(conflict.notes) }));
      section.appendChild(block);
    }
    return section;
  }

  function auditLine(auditRef) {
    return el("p", { className: "audit" }, [
      "Audit reference: ",
      el("code", { testid: "audit-ref", text: asText(auditRef) }),
    ]);
  }

  function renderAbstain(box, envelope) {
    const reason = asText(envelope.reason_code);
    const ids = "run-" + asText((envelope.meta || {}).run_id).replace(/[^A-Za-z0-9_-]/g, "") + "-" + state.turns;
    box.appendChild(statusBadge("No answer", "abstain"));
    renderLevels(box, envelope.answer, true);
    box.appendChild(
      el("p", { className: "reason" }, [
        "Why: ",
        el("span", { testid: "reason-code", text: sentence(REASON_TEXT, reason, REASON_FALLBACK), attrs: { "data-reason": reason } }),
      ]),
    );
    const evidence = isObject(envelope.evidence) ? envelope.evidence : {};
    const gaps = list(envelope.gaps).concat(list(evidence.gaps).filter((g) => !list(envelope.gaps).some((h) => h.need === g.need)));
    box.appendChild(gapsPanel(ids, gaps));
    const hints = panelSection(ids + "-hints", "What you can do", "panel-hints");
    const items = el("ul", { className: "hints" });
    for (const hint of list(envelope.remediation_hints)) {
      items.appendChild(el("li", { testid: "remediation-hint", text: asText(hint) }));
    }
    hints.appendChild(items.children.length ? items : el("p", { className: "hint", text: "No suggestions." }));
    box.appendChild(hints);
    if (list(evidence.conflicts).length) box.appendChild(conflictsPanel(ids, list(evidence.conflicts), []));
    box.appendChild(auditLine(envelope.audit_ref));
  }

  function renderClarify(box, envelope, question, turn) {
    box.appendChild(statusBadge("A detail is needed", "clarify"));
    const formId = "clarify-" + state.turns;
    const form = el("form", { className: "clarify-form", testid: "clarify-form", id: formId, attrs: { "aria-label": "Clarify your question" } });
    const fieldset = el("fieldset", {}, [el("legend", { text: "Please clarify to continue" })]);
    list(envelope.questions).forEach((q, index) => {
      const field = asText(q.field);
      const inputId = formId + "-q" + index;
      const row = el("div", { className: "clarify-question", testid: "clarify-question", attrs: { "data-field": field } });
      row.appendChild(el("label", { text: asText(q.prompt) || field, attrs: { for: inputId } }));
      const options = list(q.options).map(asText);
      const freeText = q.allow_free_text !== false;
      if (options.length) {
        const select = el("select", { id: inputId, testid: "clarify-select", attrs: { name: field, "data-field": field } });
        select.appendChild(el("option", { text: "Choose…", attrs: { value: "" } }));
        for (const option of options) select.appendChild(el("option", { text: option, attrs: { value: option } }));
        row.appendChild(select);
        if (freeText) {
          const otherId = inputId + "-other";
          row.appendChild(el("label", { className: "hint", text: "or type your own answer", attrs: { for: otherId } }));
          row.appendChild(
            el("input", {
              id: otherId,
              testid: "clarify-input",
              attrs: { type: "text", name: field + ".other", "data-field": field, "data-other": "1", maxlength: "2000", autocomplete: "off" },
            }),
          );
        }
      } else {
        row.appendChild(
          el("input", {
            id: inputId,
            testid: "clarify-input",
            attrs: { type: "text", name: field, "data-field": field, maxlength: "2000", autocomplete: "off" },
          }),
        );
      }
      fieldset.appendChild(row);
    });
    fieldset.appendChild(el("button", { testid: "clarify-submit", text: "Send replies", attrs: { type: "submit" } }));
    form.appendChild(fieldset);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (state.busy) return;
      const replies = {};
      for (const control of form.querySelectorAll("[data-field]")) {
        if (control.tagName === "DIV") continue;
        const field = control.getAttribute("data-field");
        const value = control.value.trim();
        if (control.getAttribute("data-other") === "1") {
          if (value) replies[field] = value; // typed text wins over the select
        } else if (!(field in replies) || !replies[field]) {
          replies[field] = value;
        }
      }
      fieldset.disabled = true;
      ask(question, replies).then((status) => {
        if (status === "problem" || status === "busy") fieldset.disabled = false; // nothing was resumed: retry
        else turn.setAttribute("data-answered", "true");
      });
    });
    box.appendChild(form);
    const notes = isObject(envelope.notes) ? envelope.notes : {};
    const reasons = Array.from(new Set(list(notes.reason).map((r) => sentence(CLARIFY_WHY, asText(r), CLARIFY_WHY_FALLBACK))));
    if (reasons.length) {
      box.appendChild(
        el("div", { className: "hint", testid: "clarify-reasons" }, [
          el("p", { text: "Why:" }),
          el("ul", {}, reasons.map((text) => el("li", { testid: "clarify-reason", text }))),
        ]),
      );
    }
    box.appendChild(auditLine(envelope.audit_ref));
    window.setTimeout(() => {
      const first = form.querySelector("input, select");
      if (first) first.focus();
    }, 0);
  }

  function renderErrorEnvelope(box, envelope) {
    box.appendChild(statusBadge("The run failed", "error"));
    box.appendChild(el("p", { className: "error-message", testid: "error-message", text: asText(envelope.message) }));
    box.setAttribute("data-code", asText(envelope.code));
    if (envelope.retryable) box.appendChild(el("p", { className: "hint", testid: "error-retry", text: "You may try again." }));
    box.appendChild(auditLine(envelope.audit_ref));
  }

  function renderMeta(envelope, meta) {
    const parts = [];
    if (meta.model_id) parts.push("model " + asText(meta.model_id));
    if (typeof meta.latency_ms === "number") parts.push(Math.round(meta.latency_ms) + " ms");
    if (meta.run_id) parts.push("run " + asText(meta.run_id));
    return el("p", { className: "meta hint", testid: "meta", text: parts.join(" · ") });
  }

  /** A refused request (401, 422, a broken stream) inside its turn; no envelope came back. */
  function renderProblem(turn, err) {
    const panelNode = within(turn, "answer-panel");
    panelNode.textContent = "";
    const problem = err instanceof HttpProblem ? err : new HttpProblem(0, "network", "The server could not be reached.");
    const box = el("div", { className: "problem", testid: "problem", attrs: { role: "alert", "data-code": problem.code } }, [
      el("p", { testid: "problem-message", text: problem.message }),
    ]);
    if (problem.fields.length) {
      const fields = el("ul", { className: "hint" });
      for (const field of problem.fields) {
        fields.appendChild(el("li", { text: asText(field.loc) + ": " + asText(field.msg) }));
      }
      box.appendChild(fields);
    }
    panelNode.appendChild(box);
    within(turn, "tab-trace").hidden = true;
    finishTurn(turn, "problem");
  }

  // --- evidence drawer ------------------------------------------------------------------------------------

  let drawerOpener = null;
  let drawerRequest = 0;

  function setText(id, value) {
    const text = asText(value);
    $(id).textContent = text || "—";
  }

  async function openEvidence(ref, opener) {
    const drawer = $("evidence-drawer");
    const request = ++drawerRequest;
    drawerOpener = opener || null;
    $("evidence-body").hidden = true;
    $("evidence-title").textContent = "Evidence";
    $("evidence-status").textContent = "Loading " + ref + "…";
    drawer.setAttribute("data-ref", ref);
    drawer.setAttribute("data-state", "loading");
    if (!drawer.open) drawer.showModal();
    try {
      const response = await fetch("evidence/" + encodeURIComponent(ref), {
        headers: authHeaders({ Accept: "application/json" }),
        cache: "no-store",
      });
      if (!response.ok) {
        const { problem } = await problemOf(response);
        throw problem;
      }
      const data = await response.json();
      if (request !== drawerRequest) return; // another citation was opened meanwhile
      $("evidence-title").textContent = asText(data.title) || asText(data.source_id) || "Evidence";
      $("evidence-quote").textContent = asText(data.quote);
      const badge = asText(data.badge) || "—";
      $("evidence-badge").textContent = badge;
      $("evidence-badge").setAttribute("data-badge", badge);
      const policy = isObject(data.policy) ? data.policy : {};
      setText("evidence-decision", policy.decision ? "decision: " + asText(policy.decision) : "");
      setText("evidence-source", [asText(data.title), asText(data.source_id)].filter(Boolean).join(" — "));
      setText("evidence-locator", data.locator);
      setText("evidence-version", data.version);
      setText("evidence-ref", data.ref || ref);
      setText("evidence-license", data.license);
      setText("evidence-attribution", data.attribution);
      setText("evidence-provenance", data.provenance_kind);
      setText("evidence-obligations", list(policy.obligations_applied).map(asText).join(", ") || "none");
      setText("evidence-bundle", data.bundle_id);
      $("evidence-status").textContent = "";
      $("evidence-body").hidden = false;
      drawer.setAttribute("data-state", "loaded");
    } catch (err) {
      if (request !== drawerRequest) return;
      const message =
        err instanceof HttpProblem && err.status === 404
          ? "This evidence is not available to you."
          : err instanceof HttpProblem
            ? err.message
            : "The evidence could not be loaded.";
      $("evidence-status").textContent = message;
      drawer.setAttribute("data-state", "error");
    }
  }

  function closeEvidence() {
    const drawer = $("evidence-drawer");
    if (drawer.open) drawer.close();
  }

  // --- trace tab ------------------------------------------------------------------------------------------

  function summary(value) {
    if (!isObject(value)) return asText(value);
    return Object.entries(value)
      .map(([key, item]) => key + ": " + (isObject(item) || Array.isArray(item) ? JSON.stringify(item) : asText(item)))
      .join(", ");
  }

  function ms(value) {
    return typeof value === "number" ? (value < 10 ? value.toFixed(1) : Math.round(value)) + " ms" : "";
  }

  async function loadTrace(turn) {
    const body = within(turn, "trace-body");
    const status = within(turn, "trace-status");
    const runId = turn.getAttribute("data-run-id");
    if (turn.getAttribute("data-trace") === "loaded" || turn.getAttribute("data-trace") === "loading") return;
    if (!runId) {
      status.textContent = "This turn has no run to trace.";
      return;
    }
    turn.setAttribute("data-trace", "loading");
    status.textContent = "Loading the trace…";
    body.textContent = "";
    try {
      const response = await fetch("runs/" + encodeURIComponent(runId) + "/trace", {
        headers: authHeaders({ Accept: "application/json" }),
        cache: "no-store",
      });
      if (!response.ok) {
        const { problem } = await problemOf(response);
        throw problem;
      }
      renderTrace(body, await response.json());
      status.textContent = "";
      turn.setAttribute("data-trace", "loaded");
    } catch (err) {
      status.textContent =
        err instanceof HttpProblem && err.status === 404
          ? "No trace is available to you for this run."
          : err instanceof HttpProblem
            ? err.message
            : "The trace could not be loaded.";
      turn.setAttribute("data-trace", "error");
    }
  }

  function renderTrace(body, trace) {
    const t = isObject(trace) ? trace : {};
    body.appendChild(
      el("p", { className: "trace-head", testid: "trace-head" }, [
        "Run ",
        el("code", { testid: "trace-run-id", text: asText(t.run_id) }),
        " · status ",
        el("code", { testid: "trace-status-code", text: asText(t.status) }),
        " · " + ms(t.ms),
        t.audit_ref ? " · " : "",
        t.audit_ref ? el("code", { text: asText(t.audit_ref) }) : null,
      ]),
    );
    const steps = el("ol", { className: "trace-steps", testid: "trace-steps" });
    for (const step of list(t.steps)) {
      const node = asText(step.node);
      const item = el("li", { className: "trace-step", testid: "trace-step", attrs: { "data-node": node } }, [
        el("div", { className: "trace-step-head" }, [
          el("span", { className: "step-index", text: "#" + asText(step.index) }),
          " ",
          el("code", { className: "step-node", testid: "trace-step-node", text: node }),
          " ",
          el("span", { className: "hint", testid: "trace-step-ms", text: ms(step.ms) }),
          step.error ? el("span", { className: "status-badge status-error", text: "error: " + asText(step.error) }) : null,
        ]),
      ]);
      if (isObject(step.input) && Object.keys(step.input).length) {
        item.appendChild(el("p", { className: "hint" }, ["in: ", el("code", { text: summary(step.input) })]));
      }
      if (isObject(step.output) && Object.keys(step.output).length) {
        item.appendChild(el("p", { className: "hint" }, ["out: ", el("code", { text: summary(step.output) })]));
      }
      const calls = list(step.tool_calls);
      if (calls.length) {
        const callList = el("ul", { className: "tool-calls", attrs: { "aria-label": "Tool calls" } });
        for (const call of calls) {
          callList.appendChild(
            el("li", { className: "tool-call", testid: "trace-tool-call", attrs: { "data-ok": call.ok ? "true" : "false" } }, [
              el("code", { text: asText(call.name) + "(" + summary(call.args) + ")" }),
              " " + (call.ok ? "ok" : "failed" + (call.error ? ": " + asText(call.error) : "")) + " " + ms(call.ms),
              call.result !== undefined && call.result !== null
                ? el("details", {}, [el("summary", { text: "result" }), el("pre", { text: JSON.stringify(call.result, null, 2) })])
                : null,
            ]),
          );
        }
        item.appendChild(callList);
      }
      const findings = list(step.findings);
      if (findings.length) {
        const findingList = el("ul", { className: "findings", attrs: { "aria-label": "Validator findings" } });
        for (const finding of findings) {
          findingList.appendChild(
            el("li", { testid: "trace-finding", attrs: { "data-blocking": finding.blocking ? "true" : "false" } }, [
              el("code", { text: asText(finding.code) }),
              finding.blocking ? " (blocking)" : "",
              finding.detail ? " — " + asText(finding.detail) : "",
            ]),
          );
        }
        item.appendChild(findingList);
      }
      steps.appendChild(item);
    }
    body.appendChild(steps.children.length ? steps : el("p", { className: "hint", text: "No steps recorded." }));
  }

  // --- wiring ---------------------------------------------------------------------------------------------

  function init() {
    loadIdentity();
    $("api-key").addEventListener("change", (event) => saveKey(event.target.value));
    $("key-form").addEventListener("submit", (event) => {
      event.preventDefault();
      saveKey($("api-key").value);
    });
    $("new-conversation").addEventListener("click", () => {
      newSession();
      $("transcript").textContent = "";
      $("question").focus();
    });
    $("ask-form").addEventListener("submit", (event) => {
      event.preventDefault();
      if (state.busy) return; // one question at a time: keep the typed text
      saveKey($("api-key").value);
      const question = $("question").value.trim();
      if (!question) {
        $("ask-status").textContent = "Type a question first.";
        $("question").focus();
        return;
      }
      $("question").value = "";
      ask(question, null);
    });
    $("question").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        $("ask-form").requestSubmit();
      }
    });
    $("evidence-close").addEventListener("click", closeEvidence);
    $("evidence-drawer").addEventListener("close", () => {
      drawerRequest += 1;
      if (drawerOpener && document.body.contains(drawerOpener)) drawerOpener.focus();
      drawerOpener = null;
    });
    $("evidence-drawer").addEventListener("click", (event) => {
      if (event.target === event.currentTarget) closeEvidence(); // a click on the backdrop
    });
    document.body.setAttribute("data-ready", "true");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
