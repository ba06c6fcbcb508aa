"""Test doubles for applications and eval runs: drafting models that need no server and no network.

- `scripted_model`: replays a queue of replies (drafts, tool calls), like pydantic-ai's `TestModel`;
  `answer_message`, `call_message`, `tool_call` build those replies.
- `reactive_model`: answers each turn with a function of the messages so far.
- `FaultyModel`: a backend that fails (timeouts, errors) on cue.
- `obeying_model`: a hostile model that follows injected instructions, so a test can show the gate blocks it.

    from quotebound.testing import answer_message, scripted_model
    agent = Agent.open(".quotebound", model=scripted_model([answer_message(draft)]))
"""

from quotebound.agent.testing.hostile import OBEYING, ObeyingResponder, obeying_model, payload
from quotebound.agent.testing.scripted import (
    FaultyModel,
    ModelBackendError,
    ReactiveChatModel,
    ScriptedChatModel,
    ScriptExhaustedError,
    answer_message,
    bad_args_message,
    call_message,
    reactive_model,
    scripted_model,
    tool_call,
    tool_calls_message,
)

__all__ = [
    "OBEYING",
    "FaultyModel",
    "ModelBackendError",
    "ObeyingResponder",
    "ReactiveChatModel",
    "ScriptExhaustedError",
    "ScriptedChatModel",
    "answer_message",
    "bad_args_message",
    "call_message",
    "obeying_model",
    "payload",
    "reactive_model",
    "scripted_model",
    "tool_call",
    "tool_calls_message",
]
