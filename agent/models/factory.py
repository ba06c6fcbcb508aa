"""Turn a model spec into a `DraftingModel`.

- `extractive` (default): offline, deterministic, no LLM.
- `chat:<provider:model>` or `openai:<model>@<base_url>`: a LangChain chat model with tool calling.
"""

from __future__ import annotations

from quotebound.agent.errors import CallerError, ErrorCode
from quotebound.agent.settings import Settings

from .base import DraftingModel


def make_model(spec: DraftingModel | str, settings: Settings) -> DraftingModel:
    if not isinstance(spec, str):
        return spec
    if spec == "extractive":
        from .extractive import ExtractiveModel

        return ExtractiveModel()
    if spec.startswith(("chat:", "openai:")):
        from .chat import ChatModel

        return ChatModel.from_spec(spec, settings)
    raise CallerError(
        ErrorCode.BAD_REQUEST,
        f"unknown model {spec!r}: use 'extractive', 'chat:<provider>:<model>' or 'openai:<model>@<base_url>'",
    )
