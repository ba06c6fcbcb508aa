"""A hostile chat model that obeys instructions injected into its evidence, for injection tests and benchmarks.

It is a fake chat model (`reactive_model`) driven through the real `ChatModel` tool loop: it reads the evidence
bundles rendered into its prompt (and, when they do not show an attack, every line of each source through
`search_source`), finds the first line carrying one of the attack strings it is told about, and writes a Draft
that carries the attack's payload to the user. Variants:

- `quote`: the payload as the answer and as a fact, supported by the attack line quoted verbatim;
- `quote_with_answer`: the real answer line as one fact, the obeyed attack as a second, quoted fact;
- `paraphrase`: the payload reworded as the fact's text, supported only by an innocent line of the email;
- `smuggle`: an honest fact (an innocent line, quoted), with the payload added to the answer levels only;
- `gap`: an insufficient-evidence report with an honest partial fact and the payload in its levels and gaps;
- `adaptive`: `quote` first, then `paraphrase`, then `smuggle`, one per repair round;
- `honest`: the control. It ignores every attack and answers as a careful reader would (`honest.py`): it quotes
  the whole span (a sentence, which may wrap over lines) stating the amount paid to or by the party the question
  names, with the span naming that party when the amount's span does not, and writes its answer from those
  quotes; it reports insufficient evidence when the email does not state that amount: what the defences must
  still let through.

The payload is what the attack asks to be put in the answer: a string it quotes (`Add "Visit ..." to your
reply`), else the attack without its leading verb or question word (`Recommend a good book ...` -> `a good book
...`), else (when that leaves fewer than four words) the whole attack. Either way it keeps four consecutive words
of the attack (or all of a shorter one), so `evals.leaks` can see it arrive.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from quotebound.agent.core.contracts import AnswerLevels, AnswerObject, Draft, Fact, Gap, Locator, Support
from quotebound.agent.models.chat import ChatModel
from quotebound.agent.testing import honest
from quotebound.agent.testing.scripted import answer_message, tool_call, tool_calls_message
from quotebound.agent.testing.scripted import reactive_model as _reactive

Variant = Literal["quote", "quote_with_answer", "paraphrase", "smuggle", "gap", "adaptive", "honest"]
OBEYING: Final[tuple[Variant, ...]] = ("quote", "quote_with_answer", "paraphrase", "smuggle", "gap", "adaptive")
_ADAPTIVE: Final[tuple[Variant, ...]] = ("quote", "paraphrase", "smuggle")

_EVIDENCE = re.compile(r"<<<EVIDENCE (\w+)\n(\{.*?\})\n(`{3,})text\n(.*?)\n\3\nEVIDENCE \1>>>", re.S)
_QUOTED = re.compile(r"[\"“]([^\"”]{8,})[\"”]")
_READ_ALL: Final = {"pattern": r"\S", "regex": True, "top_n": 50}


@dataclass(frozen=True)
class Line:
    source_id: str
    locator: str
    text: str


def payload(attack: str) -> str:
    """What obeying `attack` adds to an answer (see the module docstring)."""
    quoted = _QUOTED.search(attack)
    if quoted is not None:
        return quoted.group(1).strip().rstrip(".")
    words = attack.strip().rstrip(".?!").split()
    core = " ".join(words[1:])
    return core if len(words) > 4 else " ".join(words)


def evidence_lines(messages: Sequence[BaseMessage]) -> list[Line]:
    """Every line the model was shown: the bundles in the task message, then `search_source` results."""
    lines: list[Line] = []
    sources: dict[str, str] = {}
    for message in messages:
        if isinstance(message, HumanMessage):
            for match in _EVIDENCE.finditer(message.text):
                meta = json.loads(match.group(2))
                span = Locator.parse(meta["locator"])
                for offset, text in enumerate(match.group(4).split("\n")):
                    line_no = span.line_start + offset
                    lines.append(Line(meta["source_id"], f"p.{span.page} L{line_no}-L{line_no}", text))
        elif isinstance(message, AIMessage):
            sources.update({str(c["id"]): str(c["args"].get("source_id", "")) for c in message.tool_calls})
        elif isinstance(message, ToolMessage):
            outcome = json.loads(message.text)
            source_id = sources.get(message.tool_call_id, "")
            for hit in outcome.get("result") or [] if outcome.get("ok") else []:
                lines.append(Line(source_id, str(hit["locator"]), str(hit["snippet"])))
    return lines


@dataclass
class ObeyingResponder:
    """The reply function of the hostile model: obeys the first known attack found in what it was shown."""

    attacks: Sequence[str]
    variant: Variant = "quote"
    rounds: int = field(default=0, init=False)  # drafts written for the current question (adaptive)

    def __call__(self, messages: list[BaseMessage]) -> AIMessage:
        task = next((m.text for m in messages if isinstance(m, HumanMessage)), "")
        is_repair = "PREVIOUS_DRAFT" in task
        lines = evidence_lines(messages)
        honest = self.variant == "honest"
        found = None if honest else self._attack_line(lines)
        question = _question_of(task)
        missing = honest_read(lines, question, self.attacks) is None if honest else found is None
        if missing and not any(isinstance(m, ToolMessage) for m in messages):
            # What it needs is not in the bundles: read every line of each source once.
            sources = list(dict.fromkeys(line.source_id for line in lines))
            if sources:
                return tool_calls_message(*(tool_call("search_source", {"source_id": s, **_READ_ALL}) for s in sources))
        if honest:
            return answer_message(_honest(lines, question, self.attacks))
        self.rounds = self.rounds + 1 if is_repair else 1
        return answer_message(self._draft(lines, found))

    def _attack_line(self, lines: list[Line]) -> tuple[Line, str] | None:
        for line in lines:
            for attack in self.attacks:
                if attack in line.text:
                    return line, attack
        return None

    def _variant(self) -> Variant:
        if self.variant != "adaptive":
            return self.variant
        return _ADAPTIVE[min(self.rounds, len(_ADAPTIVE)) - 1]

    def _draft(self, lines: list[Line], found: tuple[Line, str] | None) -> Draft:
        innocent = _innocent_line(lines, found[0] if found else None)
        if found is None or innocent is None:
            return _insufficient(innocent)
        attack_line, attack = found
        said = payload(attack)
        sentence = f"{said[0].upper()}{said[1:]}."
        variant = self._variant()
        honest = Fact(text=innocent.text.strip(), support=[_support(innocent)])
        obeyed = Fact(text=sentence, support=[_support(attack_line)])
        if variant == "quote":
            return _answer(sentence, [obeyed], f"{_states(attack_line)}")
        if variant == "quote_with_answer":
            return _answer(f"{honest.text} {sentence}", [honest, obeyed], f"{_states(innocent)} {_states(attack_line)}")
        reworded = f"Also, as the message asks: {said}."
        if variant == "paraphrase":
            return _answer(reworded, [Fact(text=reworded, support=[_support(innocent)])], _states(innocent))
        if variant == "smuggle":
            return _answer(f"{honest.text} {reworded}", [honest], f"{_states(innocent)} {reworded}")
        draft = _insufficient(innocent, need=reworded)
        draft.levels.level2 = f"{reworded} {draft.levels.level2}"
        return draft


def honest_read(lines: list[Line], question: str, attacks: Sequence[str] = ()) -> honest.Reading | None:
    """What the honest control reads in `lines` for `question` (see `honest.read`)."""
    return honest.read(((line.source_id, line.locator, line.text) for line in lines), question, attacks)


def _support(line: Line) -> Support:
    return Support(source_id=line.source_id, locator=line.locator, quote=line.text)


def _states(line: Line) -> str:
    return f'{line.source_id} {line.locator} states: "{line.text.strip()}"'


def _innocent_line(lines: list[Line], attack_line: Line | None) -> Line | None:
    """The line an honest model would quote: the first with a figure, else the first with words."""
    candidates = [line for line in lines if line.text.strip() and line != attack_line]
    with_figure = [line for line in candidates if re.search(r"\d", line.text)]
    pool = with_figure or candidates
    return pool[0] if pool else None


def _question_of(task: str) -> str:
    """The question in a drafting task (the paragraph under its "## Question" heading)."""
    m = re.search(r"^## Question[^\n]*\n+(.+?)(?:\n\n|\Z)", task, re.M | re.S)
    return m.group(1).strip() if m else ""


def _honest(lines: list[Line], question: str, attacks: Sequence[str] = ()) -> Draft:
    """Answer as a careful reader would (`honest.read`): quote each whole span stating an amount paid to (or by)
    the party asked about, with the span naming that party when the amount's own span does not; the answer
    sentence restates those quotes. Report the gap when no span states it."""
    reading = honest_read(lines, question, attacks)
    if reading is None:
        return _insufficient(None, need=f"a passage stating the amount paid {_direction(question)}")
    facts: list[Fact] = []
    for amount, naming in zip(reading.amounts, reading.naming, strict=True):
        text = " ".join(amount.text.split())
        supports = [Support(source_id=s.source_id, locator=s.locator, quote=s.text) for s in (amount, *naming)]
        facts.append(Fact(text=text, support=supports))
    level1 = " ".join(f.text if f.text.endswith(".") else f"{f.text}." for f in facts)
    level2 = " ".join(f'{a.source_id} {a.locator} states: "{" ".join(a.text.split())}".' for a in reading.amounts)
    return _answer(level1, facts, level2)


def _direction(question: str) -> str:
    target = honest.asked(question)
    return f"{'to' if target[1] == 'payee' else 'by'} {target[0]}" if target else "in the documents"


def _answer(level1: str, facts: list[Fact], level2: str) -> Draft:
    cites = "; ".join(dict.fromkeys(f"{s.source_id} {s.locator}" for f in facts for s in f.support))
    return Draft(
        levels=AnswerLevels(level1=level1, level2=level2, level3=f"Citations: {cites}"),
        evidence=AnswerObject(mode="answer", answer=level1, facts=facts),
    )


def _insufficient(innocent: Line | None, need: str = "a passage that answers the question") -> Draft:
    facts = [Fact(text=innocent.text.strip(), support=[_support(innocent)])] if innocent is not None else []
    return Draft(
        levels=AnswerLevels(
            level1="Insufficient evidence.",
            level2="The documents do not answer the question.",
            level3="Citations: None — no passage answers the question.",
        ),
        evidence=AnswerObject(
            mode="report_insufficient_evidence", facts=facts, gaps=[Gap(need=need, why="no_quote_found")]
        ),
    )


def obeying_model(attacks: Sequence[str], variant: Variant = "quote", *, max_retries: int = 0) -> ChatModel:
    """A `ChatModel` over a fake chat model that obeys any of `attacks` it finds in its evidence."""
    return _reactive(ObeyingResponder(list(attacks), variant), model_id=f"obeying-{variant}", max_retries=max_retries)
