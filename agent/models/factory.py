"""Turn a model spec into a `DraftingModel`.

- `extractive` (default): offline, deterministic, no LLM.
- `chat:<provider:model>` or `openai:<model>@<base_url>`: a LangChain chat model with tool calling.
"""

from __future__ import annotations

from quotebound.agent.core.errors import CallerError, ErrorCode
from quotebound.agent.core.settings import Settings
from quotebound.agent.models.base import DraftingModel
from quotebound.agent.models.chat import ChatModel
from quotebound.agent.models.extractive import ExtractiveModel


def make_model(spec: DraftingModel | str, settings: Settings) -> DraftingModel:
    if not isinstance(spec, str):
        return spec
    if spec == "extractive":
        return ExtractiveModel()
    if spec.startswith(("chat:", "openai:")):
        return ChatModel.from_spec(spec, settings)
    raise CallerError(
        ErrorCode.BAD_REQUEST,
        f"unknown model {spec!r}: use 'extractive', 'chat:<provider>:<model>' or 'openai:<model>@<base_url>'",
    )
