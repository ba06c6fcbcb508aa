"""`ChatModel`: a LangChain chat model drafting through the allowlisted tools, then handing back a `Draft`.

The model is untrusted. Its tool calls run only through `ToolRegistry.invoke` (which refuses and records unknown
tools, bad arguments and calls past the limit); the loop is bounded; and its final answer must validate as a
`Draft` (`structured="json"`: parsed from the reply, errors fed back; `"instructor"`: instructor's TOOLS mode).
The gate still re-checks everything afterwards.
"""

from __future__ import annotations

import json
import re
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal, Self

from langchain_core import exceptions as lc_errors
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from pydantic import SecretStr

from quotebound.agent.core.contracts import Draft
from quotebound.agent.core.errors import CallerError, ErrorCode, ModelError, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.chat_io import describe_error, openai_messages, parse_draft, task_messages
from quotebound.prompts import load_prompt
from quotebound.tools.registry import ToolRegistry

REQUEST_TIMEOUT_S = 60.0  # a hung server must end in an exception, which the graph turns into an abstention
HTTP_RETRIES = 1  # transport-level retries (connection resets, 5xx); output retries are `max_retries`
_ERRNO_PREFIX = re.compile(r"^\[Errno -?\d+\]\s*")
_OPENAI_SPEC = re.compile(r"^openai:(?P<model>\S+?)@(?P<url>https?://\S+)$")

Structured = Literal["json", "instructor"]


class ModelOutputError(ModelError):
    """The model never produced a valid `Draft`, even after its errors were fed back to it."""


class ChatModel:
    """A `DraftingModel` over any LangChain chat model that supports `bind_tools`."""

    def __init__(
        self,
        llm: BaseChatModel,
        *,
        model_id: str,
        structured: Structured = "json",
        instructor_client: Any = None,
        instructor_model: str | None = None,
        max_retries: int = 2,
        max_output_tokens: int | None = None,
        closers: Sequence[Callable[[], object]] = (),
        model_version: str | None = None,
    ) -> None:
        if structured == "instructor" and instructor_client is None:
            raise ValueError("structured='instructor' needs an instructor_client")
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        self.llm = llm
        self.model_id = model_id
        self.model_version = model_version or model_id  # recorded in receipts: the served model's name
        self.structured: Structured = structured
        self.instructor_client = instructor_client
        self.instructor_model = instructor_model or model_id
        self.max_retries = max_retries
        self.max_output_tokens = max_output_tokens
        self._closers = list(closers)

    # --- construction and lifetime -------------------------------------------------------------------------

    @classmethod
    def from_spec(cls, spec: str, settings: Settings, *, timeout_s: float = REQUEST_TIMEOUT_S) -> ChatModel:
        """`chat:<provider>:<model>` (LangChain's `init_chat_model`) or `openai:<model>@<base_url>`."""
        if spec.startswith("openai:"):
            return cls._from_openai_spec(spec, settings, timeout_s)
        provider, sep, model = spec.removeprefix("chat:").partition(":")
        if not spec.startswith("chat:") or not sep or not provider or not model:
            raise CallerError(ErrorCode.BAD_REQUEST, f"bad model spec {spec!r}: expected 'chat:<provider>:<model>'")
        try:  # optional: only `chat:` specs need langchain (not a dependency), absent from the dev environment
            from langchain.chat_models import init_chat_model  # type: ignore[import-not-found]

            llm = init_chat_model(model, model_provider=provider, timeout=timeout_s, max_retries=HTTP_RETRIES)
        except (ImportError, ValueError) as exc:
            raise OperatorError(
                ErrorCode.MISCONFIGURED,
                f"cannot load {spec!r}: `chat:` specs need the `langchain` package and the provider's integration "
                f"package ({exc})",
            ) from exc
        return cls(llm, model_id=spec, max_retries=settings.attempts.output_retries, model_version=model)

    @classmethod
    def _from_openai_spec(cls, spec: str, settings: Settings, timeout_s: float) -> ChatModel:
        match = _OPENAI_SPEC.match(spec)
        if match is None:
            raise CallerError(ErrorCode.BAD_REQUEST, f"bad model spec {spec!r}: expected 'openai:<model>@<base_url>'")
        try:  # heavy (the OpenAI SDK and instructor): only `openai:` specs need them
            import httpx
            import instructor
            from langchain_openai import ChatOpenAI
            from openai import OpenAI
        except ImportError as exc:
            raise OperatorError(
                ErrorCode.MISCONFIGURED, f"`openai:` specs need langchain-openai and instructor installed ({exc})"
            ) from exc
        model, url, key = match["model"], match["url"], _api_key(settings)
        # One HTTP client for the tool loop and for instructor, closed once by `close()`.
        http = httpx.Client(timeout=timeout_s)
        llm = ChatOpenAI(
            model=model,
            base_url=url,
            api_key=SecretStr(key),
            timeout=timeout_s,
            max_retries=HTTP_RETRIES,
            # `max_tokens` in the body: llama.cpp, vLLM and Ollama read it; langchain-openai would send the newer
            # `max_completion_tokens`, which llama.cpp's server ignores (it then generates up to its context).
            extra_body={"max_tokens": settings.attempts.max_output_tokens},
            http_client=http,
        )
        client = OpenAI(base_url=url, api_key=key, timeout=timeout_s, max_retries=HTTP_RETRIES, http_client=http)
        return cls(
            llm,
            model_id=spec,
            model_version=model,
            structured="instructor",
            # llama.cpp's server handles TOOLS mode; its JSON_SCHEMA mode answers 500.
            instructor_client=instructor.from_openai(client, mode=instructor.Mode.TOOLS),
            instructor_model=model,
            max_retries=settings.attempts.output_retries,
            max_output_tokens=settings.attempts.max_output_tokens,
            closers=(http.close,),
        )

    def close(self) -> None:
        closers, self._closers = self._closers, []
        for close in closers:
            close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- DraftingModel ---------------------------------------------------------------------------------------

    def draft(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        return self._run(task_messages(request, repair=False), request, tools)

    def repair(self, request: DraftInput, tools: ToolRegistry) -> Draft:
        # The graph hands repair a registry that allows only quote_fetch, search_source and calc.
        return self._run(task_messages(request, repair=True), request, tools)

    def _run(self, messages: list[BaseMessage], request: DraftInput, tools: ToolRegistry) -> Draft:
        bound = self.llm.bind_tools(tools.langchain_tools())
        reply = self._tool_loop(bound, messages, tools, request.max_tool_calls)
        if self.structured == "instructor":
            return self._instructor_draft(messages, reply)
        return self._json_draft(bound, messages, reply, tools)

    # --- the bounded tool loop -------------------------------------------------------------------------------

    def _tool_loop(
        self, bound: Runnable[LanguageModelInput, Any], messages: list[BaseMessage], tools: ToolRegistry, limit: int
    ) -> AIMessage:
        """Run tool calls until the model answers without one. Every turn that does not answer makes at least one
        call, so after `limit` calls the model is told to answer, and the turn after that ends the loop."""
        made, told = 0, False
        while True:
            reply = _ai(bound.invoke(messages))
            messages.append(reply)
            if not _requested(reply):
                return reply
            made += _run_calls(reply, tools, messages)
            if told:
                return reply  # it ignored "answer now"; its calls got `tool_call_limit` errors from the registry
            if made >= limit:
                messages.append(HumanMessage(load_prompt("answer_now").render()))
                told = True

    # --- structured output -----------------------------------------------------------------------------------

    def _json_draft(
        self,
        bound: Runnable[LanguageModelInput, Any],
        messages: list[BaseMessage],
        reply: AIMessage,
        tools: ToolRegistry,
    ) -> Draft:
        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                messages.append(HumanMessage(load_prompt("output_error").render(error=problem)))
                reply = _ai(bound.invoke(messages))
                messages.append(reply)
                _run_calls(reply, tools, messages)  # every tool call must be answered, even a late one
            if _requested(reply):
                problem = "You called a tool instead of answering; no more tool calls can be made now."
                continue
            try:
                return parse_draft(reply.text)
            except ValueError as exc:  # pydantic's ValidationError (bad JSON included) is a ValueError
                problem = describe_error(exc)
        raise ModelOutputError(
            ErrorCode.INVALID_MODEL_OUTPUT, f"no valid Draft after {self.max_retries + 1} attempt(s): {problem}"
        )

    def _instructor_draft(self, messages: list[BaseMessage], reply: AIMessage) -> Draft:
        from instructor.core import InstructorRetryException  # heavy: only the instructor path needs it

        if not _requested(reply):
            try:  # the model may already have answered with a valid Draft: no need for another round trip
                return parse_draft(reply.text)
            except ValueError:
                pass
        # A trailing assistant turn reads as a prefill to some servers: ask for the answer in a user turn.
        messages.append(HumanMessage(load_prompt("answer_now").render()))
        try:
            draft = self.instructor_client.chat.completions.create(
                model=self.instructor_model,
                response_model=Draft,
                messages=openai_messages(messages),
                max_retries=self.max_retries,  # instructor feeds each validation error back to the model
                **({"max_tokens": self.max_output_tokens} if self.max_output_tokens else {}),
            )
        except InstructorRetryException as exc:
            raise ModelOutputError(
                ErrorCode.INVALID_MODEL_OUTPUT, f"no valid Draft after {self.max_retries + 1} attempt(s): {exc}"
            ) from exc
        # Re-validate into a plain Draft: instructor attaches the raw HTTP response to the model it returns.
        return Draft.model_validate(draft.model_dump(mode="json") if isinstance(draft, Draft) else draft)


# --- helpers ------------------------------------------------------------------------------------------------------


def _ai(message: BaseMessage) -> AIMessage:
    if not isinstance(message, AIMessage):
        raise ModelOutputError(ErrorCode.INVALID_MODEL_OUTPUT, f"expected an AI message, got {message.type!r}")
    return message


def _requested(reply: AIMessage) -> bool:
    return bool(reply.tool_calls or reply.invalid_tool_calls)


def _run_calls(reply: AIMessage, tools: ToolRegistry, messages: list[BaseMessage]) -> int:
    """Run each requested call through the registry (never the tool objects): it refuses and records."""
    requested: list[tuple[str, Any, str | None]] = [(c["name"], c["args"], c.get("id")) for c in reply.tool_calls]
    # Calls whose arguments did not parse still reach the registry, so they are refused *and* recorded.
    requested += [(c.get("name") or "", c.get("args"), c.get("id")) for c in reply.invalid_tool_calls]
    for index, (name, args, call_id) in enumerate(requested):
        if isinstance(args, dict):  # like the registry's LangChain tools: an explicit null means "not given"
            args = {key: value for key, value in args.items() if value is not None}
        outcome = tools.invoke(name, args)
        messages.append(
            ToolMessage(
                content=json.dumps(outcome, ensure_ascii=False),
                tool_call_id=call_id or f"call_{len(messages)}_{index}",
                name=name,
            )
        )
    return len(requested)


def _api_key(settings: Settings) -> str:
    # Local OpenAI-compatible servers (llama.cpp) ignore the key, but the client requires one.
    key = getattr(settings, "model_api_key", None)
    if isinstance(key, SecretStr):
        key = key.get_secret_value()
    return key or "not-needed"


# --- a model server that cannot be reached ----------------------------------------------------------------------


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and the exceptions behind it (`raise ... from`, or raised while handling), outermost first."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen and len(seen) < 32:
        seen.add(id(link))
        yield link
        link = link.__cause__ or (None if link.__suppress_context__ else link.__context__)


def _transport_reason(link: BaseException) -> str | None:
    """What one exception says about reaching the server, if anything. The SDKs are looked up among the loaded
    modules only: an exception of theirs means they are loaded, and nothing is imported to classify."""
    if isinstance(link, socket.gaierror):
        return "the host name does not resolve"
    if isinstance(link, ConnectionRefusedError):
        return "connection refused"
    if isinstance(link, TimeoutError):
        return "timed out"
    if isinstance(link, OSError):
        return (link.strerror or type(link).__name__).lower()
    httpx, openai = sys.modules.get("httpx"), sys.modules.get("openai")
    if isinstance(link, lc_errors.ModelTimeoutError) or (openai and isinstance(link, openai.APITimeoutError)):
        return "timed out"
    if httpx is not None and isinstance(link, httpx.TimeoutException):
        return "timed out"
    status = getattr(link, "status_code", None)
    if (
        isinstance(status, int)
        and status >= 400
        and (isinstance(link, lc_errors.ModelError) or (openai and isinstance(link, openai.APIStatusError)))
    ):
        return f"the server answered HTTP {status}"
    if isinstance(link, lc_errors.ModelConnectionError) or (openai and isinstance(link, openai.APIConnectionError)):
        return "could not connect"
    if (httpx is not None and isinstance(link, httpx.TransportError)) or type(link).__module__.startswith("httpcore"):
        # The HTTP stack keeps the socket's words ("[Errno 111] Connection refused") as its text, not its cause.
        text = _ERRNO_PREFIX.sub("", str(link)).strip().lower()
        return text[:120] if text else "could not connect"
    return None


def unreachable(exc: BaseException) -> str | None:
    """Why the model's server could not be reached or would not serve (connection refused, timed out, a host name
    that does not resolve, an HTTP error status), or None when the failure was something else (the model's own
    output). The most specific reason in the exception's chain wins: "connection refused" over "could not
    connect"."""
    reason = None
    for link in _chain(exc):
        found = _transport_reason(link)
        if found is not None and (reason is None or reason == "could not connect"):
            reason = found
    return reason
