"""Scripted chat models for tests and demos: a queue of replies played back in order (like simonw/llm's mock model).

Built on langchain-core's `GenericFakeChatModel`, which (like every fake chat model in langchain-core 1.7) has no
`bind_tools`; `ScriptedChatModel` adds one that records the tool names and returns the model itself, and keeps
every conversation it was sent so a test can read what the model saw.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.tools import BaseTool
from pydantic import Field

from quotebound.agent.contracts import Draft

from .chat import ChatModel

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
