"""Scripted chat models for tests and demos: a queue of replies played back in order (like simonw/llm's mock model).

Built on langchain-core's `GenericFakeChatModel`, which (like every fake chat model in langchain-core 1.7) has no
`bind_tools`; `ScriptedChatModel` adds one that records the tool names and returns the model itself, and keeps
every conversation it was sent so a test can read what the model saw. `ReactiveChatModel` computes each reply
from the conversation instead (a hostile model that reads its evidence). `FaultyModel` wraps any drafting model
and fails on cue: it raises, or hangs past any deadline, in `draft` or in `repair`.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import BaseTool
from pydantic import Field

from quotebound.agent.core.contracts import Draft
from quotebound.agent.models.base import DraftingModel, DraftInput
from quotebound.agent.models.chat import ChatModel
from quotebound.tools.registry import ToolRegistry

_ids = itertools.count(1)


class ScriptExhaustedError(RuntimeError):
    """The model was asked for more replies than its script holds."""


class ScriptedChatModel(GenericFakeChatModel):
    received: list[list[BaseMessage]] = Field(default_factory=list, description="each conversation sent, in order")
    bound_tools: list[list[str]] = Field(default_factory=list, description="tool names of each bind_tools call")

    def bind_tools(self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool], **_: Any) -> Any:
        self.bound_tools.append([getattr(tool, "name", str(tool)) for tool in tools])
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        try:
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        except StopIteration:
            raise ScriptExhaustedError(f"the script ran out after {len(self.received) - 1} replies") from None

    @property
    def _llm_type(self) -> str:
        return "quotebound-scripted"


Responder = Callable[[list[BaseMessage]], AIMessage]


class ReactiveChatModel(ScriptedChatModel):
    """A fake chat model whose every reply is `respond(conversation)`: no queue to run out of."""

    respond: Responder

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.respond(list(messages)))])


def reactive_model(respond: Responder, model_id: str = "reactive", max_retries: int = 2) -> ChatModel:
    """A `ChatModel` (json structured output) whose replies `respond` computes from each conversation."""
    llm = ReactiveChatModel(messages=iter(()), respond=respond)
    return ChatModel(llm, model_id=model_id, structured="json", max_retries=max_retries)


class ModelBackendError(RuntimeError):
    """What a `FaultyModel` raises: an unexpected failure of the model's backend."""


@dataclass
class FaultyModel:
    """A drafting model that fails on cue in `draft` or `repair` and otherwise delegates to `inner`.

    `fault="raise"` raises `ModelBackendError(message)`; `fault="hang"` blocks until `release` is set (or
    `hang_s` passes), then carries on as `inner` would, like a slow backend that answers too late.
    """

    inner: DraftingModel
    fault: Literal["raise", "hang"]
    when: Literal["draft", "repair"] = "draft"
    message: str = "the model backend failed"
    hang_s: float = 60.0
    model_id: str = "faulty"
    model_version: str = "test"
    release: threading.Event = field(default_factory=threading.Event)
    finished: threading.Event = field(default_factory=threading.Event, repr=False)
    raised: BaseException | None = field(default=None, repr=False)  # what the call raised, late or not

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        return self._run("draft", request, tools)

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        return self._run("repair", request, tools)

    def _run(self, step: Literal["draft", "repair"], request: DraftInput, tools: ToolRegistry) -> Draft:
        try:
            if step == self.when:
                if self.fault == "raise":
                    raise ModelBackendError(self.message)
                self.release.wait(self.hang_s)
            return self.inner.repair(request, tools) if step == "repair" else self.inner.draft(request, tools)
        except BaseException as exc:
            self.raised = exc
            raise
        finally:
            self.finished.set()


def scripted_model(messages: Sequence[AIMessage | str], model_id: str = "scripted", max_retries: int = 2) -> ChatModel:
    """A `ChatModel` (json structured output) that replies with `messages`, one per model turn."""
    llm = ScriptedChatModel(messages=iter(list(messages)))
    return ChatModel(llm, model_id=model_id, structured="json", max_retries=max_retries)


def tool_call(name: str, args: dict[str, Any] | None = None, *, call_id: str | None = None) -> dict[str, Any]:
    """One tool call, for `tool_calls_message`."""
    return {"name": name, "args": dict(args or {}), "id": call_id or f"call_{next(_ids)}", "type": "tool_call"}


def tool_calls_message(*calls: dict[str, Any], content: str = "") -> AIMessage:
    """An AI turn that requests `calls` (build each with `tool_call`)."""
    return AIMessage(content=content, tool_calls=list(calls))


def call_message(name: str, **args: Any) -> AIMessage:
    """An AI turn that requests a single tool call."""
    return tool_calls_message(tool_call(name, args))


def bad_args_message(name: str, raw_args: str) -> AIMessage:
    """An AI turn whose tool-call arguments are not valid JSON (LangChain reports it as an invalid tool call)."""
    invalid = {"name": name, "args": raw_args, "id": f"call_{next(_ids)}", "error": "arguments are not JSON"}
    return AIMessage(content="", invalid_tool_calls=[{**invalid, "type": "invalid_tool_call"}])


def answer_message(draft: Draft | dict[str, Any], *, fenced: bool = True) -> AIMessage:
    """The final AI turn: the Draft as JSON, in a ```json block unless `fenced=False`."""
    payload = draft.model_dump(mode="json") if isinstance(draft, Draft) else draft
    text = json.dumps(payload, ensure_ascii=False, indent=2)
    return AIMessage(content=f"```json\n{text}\n```" if fenced else text)
