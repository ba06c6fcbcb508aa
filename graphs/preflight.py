"""`preflight`: the content-agnostic answerability gate, before any model or tool call.

Four signals, none of which assumes anything about what the documents are about (two read their layout):
- UnknownIntent: the question has too little to act on (intent confidence below `tau_intent`);
- AmbiguousSubject: deixis only the user can resolve: "my unit" / "our lot" when the corpus the caller may read
  tells several units / lots apart (by a table column or a label such as "Lot B"; "my dog" names nothing the
  documents distinguish, so there is nothing to ask), and "today" / "this year";
- InsufficientParameters: a computation over a quantity the user left open ("for a few months");
- InsufficientGrounding: the corpus knows the topic but covers too little of a very short question.
Before any of them, the policy pre-check: a restricted topic, an attempt to enumerate what is
hidden or to exfiltrate prompts or the policy fails closed (`gate: deny`), before any retrieval or clarify.
What the session context or earlier replies already resolve is not asked again. The same clarify prompt
repeated `max_same_prompt_rounds` times without new values upgrades the run to
`proceed_after_clarify_timeout` (the answer must then say the detail was never given); a cooldown resets the counter.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field

from langgraph.runtime import Runtime

from quotebound.agent.core.contracts import ClarifyNotes, ClarifyQuestion, GateStatus, Locator, ReasonCode
from quotebound.agent.gate.gather import readable_sources
from quotebound.agent.gate.question_scope import scoped_sources, source_names
from quotebound.graphs.context import RunContext
from quotebound.graphs.faults import is_store_fault, store_fault
from quotebound.graphs.names import Node
from quotebound.graphs.state import (
    ClarifyCounter,
    ClarifyPlan,
    Failure,
    ResolvedContext,
    RunState,
    Signal,
    Source,
)
from quotebound.tools.instances import noun_forms, spelled_instances, title_instance
from quotebound.tools.policy import Caller

_STOPWORDS = frozenset(
    """a about an and any are as at be by can could do does for from had has have how i if in is it its me my of
    on or our please should so tell than that the their them there these they this those to us was we were what
    when where which who whom whose why will with would you your know want like""".split()
)
_WORD = re.compile(r"[^\W\d_][\w'-]*|\d[\w.,/-]*", re.UNICODE)
_QUESTION_FORM = re.compile(
    r"^\s*(what|how|when|where|who|whom|whose|which|why|is|are|was|were|do|does|did|can|could|should|may|must|"
    r"will|would|list|show|give|tell|explain|describe|summari[sz]e|compare|find)\b|\?\s*$",
    re.IGNORECASE,
)
_POSSESSIVE = re.compile(r"\b(my|our)\s+(?:own\s+)?([^\W\d_][\w-]{1,40})(?:\s+([A-Z0-9][\w-]{0,15}\b))?", re.UNICODE)
_TEMPORAL = re.compile(
    r"\b(today|tonight|tomorrow|yesterday|right now|currently|this (?:week|month|quarter|year)|"
    r"last (?:week|month|quarter|year)|next (?:week|month|quarter|year))\b",
    re.IGNORECASE,
)
_EXPLICIT_TIME = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b|\b\d{4}-\d{2}-\d{2}\b")
_OPEN_QUANTITY = re.compile(
    r"\b(?:for|over|of|after|in)\s+(?:a\s+few|some|several|many|a\s+number\s+of|x|n)\s+([^\W\d_][\w-]{2,30})",
    re.IGNORECASE,
)

_INSTANCE_SEARCH_LIMIT = 200  # chunks mentioning the noun whose sources are read for its instances
_MAX_OPTIONS = 8  # instances offered as a clarify's options; more are asked for by name, as free text


@dataclass(frozen=True)
class Assessment:
    signals: list[Signal]
    missing: list[str]
    questions: list[ClarifyQuestion]
    intent_confidence: float
    coverage: float | None = None
    resolved_from: list[Source] = field(default_factory=list)
    # the session values this question refers to ("my unit" -> unit); only they join the question downstream
    used: list[str] = field(default_factory=list)


def content_words(text: str) -> list[str]:
    # a one-digit number names a thing ("Camera 2"); a one-letter word is a fragment
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in _STOPWORDS and (len(w) > 1 or w.isdigit())]


def intent_confidence(question: str) -> float:
    words = content_words(question)
    base = 0.7 if len(words) >= 2 else 0.4 if words else 0.0
    return min(1.0, base + (0.3 if _QUESTION_FORM.search(question) else 0.0))


def _ask(field_name: str, prompt: str, options: list[str] | None = None) -> ClarifyQuestion:
    return ClarifyQuestion(field=field_name, prompt=prompt, options=options or [], allow_free_text=True)


def assess(question: str, context: dict[str, str], ctx: RunContext, caller: Caller | None = None) -> Assessment:
    """The four signals for one question, given what the session already knows."""
    thresholds = ctx.settings.gate
    signals: list[Signal] = []
    missing: list[str] = []
    questions: list[ClarifyQuestion] = []
    resolved_from: list[Source] = ["text"]
    known = {k.lower(): v for k, v in context.items() if v.strip()}
    if known:
        resolved_from.append("session")
    used: list[str] = []

    def knows(name: str) -> bool:
        if name in known:
            used.append(name)
            return True
        return False

    confidence = intent_confidence(question)
    if confidence < thresholds.tau_intent:
        signals.append("UnknownIntent")
        if not knows("topic"):
            missing.append("topic")
            questions.append(_ask("topic", "What would you like to know? Please ask a full question."))

    for match in _POSSESSIVE.finditer(question):
        noun, identifier = match.group(2).lower(), match.group(3)
        if identifier or knows(noun) or noun in missing:
            continue
        instances = _instances(noun, ctx, caller or Caller())
        if len(instances) < 2:
            continue  # the documents know one such thing or none: the user has nothing to pick between
        if names_instance(question, noun, ctx, caller or Caller()):
            continue  # the question names which one
        signals.append("AmbiguousSubject")
        missing.append(noun)
        options = sorted(instances.values()) if len(instances) <= _MAX_OPTIONS else []
        questions.append(_ask(noun, f"Which {noun} do you mean? Please give its name or number.", options))
    if _TEMPORAL.search(question) and not _EXPLICIT_TIME.search(question) and not knows("time_scope"):
        signals.append("AmbiguousSubject")
        missing.append("time_scope")
        questions.append(_ask("time_scope", "Which date or period do you mean (for example a year)?"))

    for match in _OPEN_QUANTITY.finditer(question):
        field_name = f"number_of_{match.group(1).lower()}"
        if not knows(field_name) and field_name not in missing:
            signals.append("InsufficientParameters")
            missing.append(field_name)
            questions.append(_ask(field_name, f"How many {match.group(1).lower()} exactly?"))

    coverage = None
    words = content_words(question)
    if not missing and 0 < len(words) <= 2:
        coverage = _lexical_coverage(question, words, ctx, caller or Caller())
        if 0 < coverage < thresholds.retrieval_min_coverage and not knows("detail"):
            signals.append("InsufficientGrounding")
            missing.append("detail")
            questions.append(_ask("detail", "Can you add more detail (a name, a date, or what it is about)?"))
    return Assessment(sorted(set(signals)), missing, questions, confidence, coverage, resolved_from, sorted(set(used)))


def names_instance(question: str, noun: str, ctx: RunContext, caller: Caller) -> bool:
    """The question names the one readable document that is the `noun` it asks about ("my license" in a question
    about GPLv3): nothing is left to pick between. A document is such a thing when the noun is one of its names
    (its id's or title's words: "GNU GENERAL PUBLIC LICENSE"); "my unit" under "the FY2025 budget" still asks."""
    sources = readable_sources(ctx.tools_for(caller.role, sorted(caller.labels)))
    named = scoped_sources(question, sources)
    forms = noun_forms(noun)
    return len(named) == 1 and any(forms & source_names(s).words for s in sources if s.source_id in named)


def _instances(noun: str, ctx: RunContext, caller: Caller) -> dict[str, str]:
    """The instances of `noun` the sources the caller may read tell apart (two units in a unit table, "Building 1"
    and "Building 2", two documents titled "Apache License" and "MIT License"), case-folded, with a spelling to
    offer; it stops past `_MAX_OPTIONS`. Only readable text counts, as the caller sees it: whether to ask, and
    what to offer, must not reveal what a hidden source or a masked value lists. The sources read are those whose
    chunks mention the noun (the table's header row, the labelled mention, the title); each is read whole, as a
    table's rows follow its header in later chunks."""
    hits = ctx.corpus.lexical_search(" ".join(sorted(noun_forms(noun))), _INSTANCE_SEARCH_LIMIT)
    if not hits:
        return {}
    tools = ctx.tools_for(caller.role, sorted(caller.labels))
    pointers = ctx.corpus.chunk_pointers(cid for cid, _ in hits)
    instances: dict[str, str] = {}
    seen: set[str] = set()
    for chunk_id, _ in hits:
        pointer = pointers.get(chunk_id)
        if pointer is None or pointer.source_id in seen:
            continue
        seen.add(pointer.source_id)
        if not tools.can_read(pointer.source_id):
            continue
        source = tools.readable_source(pointer.source_id, pointer.version)
        lines = [text for _, _, text in tools.visible_iter_lines(source)]
        found = spelled_instances(lines, noun)
        titled = title_instance(lines, noun)
        if titled is not None:
            found.setdefault(" ".join(titled.casefold().split()), titled)
        for key, spelled in found.items():
            instances.setdefault(key, spelled)
        if len(instances) > _MAX_OPTIONS:
            break
    return instances


def _lexical_coverage(question: str, words: list[str], ctx: RunContext, caller: Caller) -> float:
    """Share of the question's content words found in the best lexical hits (no model, no embedding), among the
    sources the caller may read: whether to ask for detail must not depend on a hidden source's words."""
    hits = ctx.corpus.lexical_search(question, ctx.settings.retrieval.candidates)
    if not hits:
        return 0.0
    tools = ctx.tools_for(caller.role, sorted(caller.labels))
    pointers = ctx.corpus.chunk_pointers(cid for cid, _ in hits)
    readable: dict[str, bool] = {}
    texts: list[str] = []
    for chunk_id, _ in hits:  # in BM25 order
        pointer = pointers.get(chunk_id)
        if pointer is None:
            continue
        if pointer.source_id not in readable:
            readable[pointer.source_id] = tools.can_read(pointer.source_id)
        if readable[pointer.source_id]:
            # the text as the caller sees it: a masked word must not decide whether to ask for detail
            source = tools.readable_source(pointer.source_id, pointer.version)
            texts.append("\n".join(tools.visible_lines(source, Locator.parse(pointer.locator))[0]))
        if len(texts) == 5:
            break
    text = " ".join(texts).lower()
    return sum(1 for w in words if w in text) / len(words)


def fingerprint(question: str, missing: list[str]) -> str:
    normalized = " ".join(content_words(question))
    return hashlib.sha256(f"{normalized}|{','.join(sorted(missing))}".encode()).hexdigest()[:16]


def preflight(state: RunState, runtime: Runtime[RunContext]) -> RunState:
    ctx = runtime.context
    caller = Caller(role=state.get("role", "public"), labels=frozenset(state.get("labels") or ()))
    precheck = ctx.policy.precheck(caller, state["question"])
    path = [Node.PREFLIGHT.value]
    if not precheck.allowed:
        # The topic name stays in the run's record (receipt), never in what the caller sees.
        denial = Failure(reason_code=ReasonCode.NOT_PERMITTED, detail=precheck.reason, topic=precheck.topic)
        if not ctx.policy.reveals_denials(caller):
            # Its envelope reads like an ordinary abstention; so must its latency (graphs/timing.py).
            ctx.abstention_times.pad(float(state.get("started_at") or time.time()))
        return {"path": path, "signals": [], "missing": [], "gate": "deny", "failure": denial}
    context = dict(state.get("context") or {})
    try:
        found = assess(state["question"], context, ctx, caller)
    except Exception as exc:
        if not is_store_fault(exc):
            raise
        # the grounding signal reads the index: a broken store ends the run in an abstention, like retrieve's
        fault = store_fault(Node.PREFLIGHT, exc)
        return {"path": path, "signals": [], "missing": [], "gate": "deny", "failure": fault}
    if not found.questions:
        resolved = ResolvedContext(sources=found.resolved_from, keys=found.used)
        plan = ClarifyPlan(resolved_context=resolved)
        return {"path": path, "signals": found.signals, "missing": found.missing, "gate": "proceed", "clarify": plan}

    policy = ctx.settings.clarify
    key = fingerprint(state["question"], found.missing)
    stored = (state.get("clarify_counters") or {}).get(key) or ClarifyCounter(count=0, last=0.0)
    counter = ClarifyCounter(count=stored["count"], last=stored["last"])  # a copy: the state's own is not edited
    now = time.time()
    if now - counter["last"] > policy.cooldown_minutes * 60:
        counter["count"] = 0
    gate: GateStatus
    if counter["count"] >= policy.max_same_prompt_rounds:
        gate = "proceed_after_clarify_timeout"
    else:
        gate = "clarify"
        counter["count"] += 1
    counter["last"] = now
    plan = ClarifyPlan(questions=found.questions, notes=ClarifyNotes(reason=found.signals), round=counter["count"])
    return {
        "path": path,
        "signals": found.signals,
        "missing": found.missing,
        "gate": gate,
        "clarify": plan,
        "clarify_counters": {key: counter},
    }
