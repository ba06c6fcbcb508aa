"""Settings: one validated object handed down to every part. Library code never reads the environment;
`Settings.from_env` is called only at the edges (CLI, server)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from quotebound.agent.core.errors import ErrorCode, OperatorError


class RetrievalSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    top_k: int = Field(default=8, ge=1, le=100)
    candidates: int = Field(default=40, ge=1, le=1000, description="hits taken from each retriever before fusion")
    rrf_k: int = Field(default=60, ge=1, description="reciprocal-rank-fusion constant")
    chunk_max_lines: int = Field(default=8, ge=1, le=200)
    chunk_max_chars: int = Field(default=600, ge=100, le=20000)
    max_line_chars: int = Field(
        default=20_000, ge=100, le=10_000_000, description="ingest refuses a file with a longer line (one-line error)"
    )


class ToolLimits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_pattern_chars: int = Field(default=200, ge=1, le=2000)
    max_top_n: int = Field(default=50, ge=1, le=1000)
    max_quote_lines: int = Field(default=60, ge=1, le=1000)
    regex_timeout_s: float = Field(default=0.25, gt=0, le=10)
    max_calc_chars: int = Field(default=300, ge=1, le=5000)


class GateThresholds(BaseModel):
    """When the pre-flight check asks for clarification instead of running: too little intent to act on, or
    retrieval covering too little of the question."""

    model_config = ConfigDict(extra="forbid")

    tau_intent: float = Field(default=0.60, ge=0, le=1)
    retrieval_min_coverage: float = Field(default=0.60, ge=0, le=1)
    denial_floor_ms: float = Field(
        default=100,
        ge=0,
        le=60_000,
        description="a policy denial the caller is not told about takes as long as an ordinary abstention; until "
        "one has been timed, this long",
    )


class ClarifyPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_same_prompt_rounds: int = Field(default=3, ge=1, le=100)
    cooldown_minutes: float = Field(default=10, gt=0)


class AttemptLimits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    n_repairs: int = Field(default=2, ge=0, le=10)
    max_tool_calls: int = Field(default=12, ge=0, le=100)
    context_token_budget: int = Field(default=3000, ge=100, le=200_000)
    max_output_tokens: int = Field(
        default=1024, ge=16, le=100_000, description="cap on each chat-model reply, so a rambling model ends"
    )
    output_retries: int = Field(
        default=2, ge=0, le=10, description="times a chat model is told its invalid Draft's errors and asked again"
    )
    conflict_delta_percent: float = Field(default=1.0, ge=0, le=100)
    model_timeout_s: float = Field(
        default=600, gt=0, le=7200, description="wall-clock cap on one draft or repair call; past it the run abstains"
    )


class ServerLimits(BaseModel):
    """What one request may cost the HTTP service (`quotebound serve`) before it is refused."""

    model_config = ConfigDict(extra="forbid")

    max_body_bytes: int = Field(default=256 * 1024, ge=1024, le=64 * 1024 * 1024, description="larger bodies: 413")
    body_timeout_s: float = Field(
        default=15, gt=0, le=600, description="wall-clock cap on reading one request's body; past it: 408"
    )
    idle_timeout_s: float = Field(
        default=10, gt=0, le=600, description="a connection idle or still sending its headers this long is closed (408)"
    )


class ApiKey(BaseModel):
    """One API key of the HTTP service (`quotebound serve`): whoever presents it calls as `role` with `labels`.
    The server identifies callers by a short sha256 fingerprint of the key, never by the key itself."""

    model_config = ConfigDict(extra="forbid")

    key: SecretStr = Field(description="the secret a client sends (`Authorization: Bearer KEY` or `X-API-Key`)")
    role: str = Field(default="public", min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    labels: list[Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")]] = Field(
        default_factory=list, max_length=32, description="extra clearances (honoured where the policy grants them)"
    )
    name: str | None = Field(default=None, min_length=1, max_length=64, description="who holds it (logs only)")

    @field_validator("key")
    @classmethod
    def _strong_enough(cls, value: SecretStr) -> SecretStr:
        secret = value.get_secret_value()
        if not 16 <= len(secret) <= 512 or not secret.isprintable() or secret != secret.strip():
            # never echo the key itself
            raise ValueError("an API key must be 16 to 512 printable characters without surrounding spaces")
        return value


def load_api_keys(path: Path) -> list[ApiKey]:
    """The API keys of a YAML file `{keys: [{key, role, labels?, name?}, ...]}`; an OperatorError(MISCONFIGURED)
    names the file and the entry (`keys[2].role`) of every problem, never a key's value."""

    def bad(problem: str) -> OperatorError:
        return OperatorError(ErrorCode.MISCONFIGURED, f"API keys file {path}: {problem}")

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise bad(f"cannot be read ({type(exc).__name__})") from None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise bad(f"not valid YAML{where}") from None  # the parser's text could quote a key: not shown
    if not isinstance(loaded, dict) or set(loaded) != {"keys"} or not isinstance(loaded["keys"], list):
        raise bad("expected a mapping with one key, `keys`: a list of {key, role, labels, name}")
    keys: list[ApiKey] = []
    problems: list[str] = []
    for i, entry in enumerate(loaded["keys"]):
        try:
            keys.append(ApiKey.model_validate(entry))
        except ValidationError as exc:
            for error in exc.errors():
                loc = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
                problems.append(f"keys[{i}]{loc}: {error['msg']}")
    seen: dict[str, int] = {}
    for i, key in enumerate(keys):
        secret = key.key.get_secret_value()
        if secret in seen:
            problems.append(f"keys[{i}].key: the same key as keys[{seen[secret]}]; each key must be unique")
        seen.setdefault(secret, i)
    if problems:
        raise bad("; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else ""))
    return keys


EmbedderKind = Literal["minilm", "hashing"]


class Settings(BaseModel):
    """Everything quotebound can be told. Defaults run fully offline on the embedded example corpus."""

    model_config = ConfigDict(extra="forbid")

    store: Path = Path(".quotebound")
    embedder: EmbedderKind = "minilm"
    qdrant_url: str | None = Field(default=None, description="a Qdrant server; None = embedded local mode")
    qdrant_api_key: str | None = None
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    tools: ToolLimits = Field(default_factory=ToolLimits)
    gate: GateThresholds = Field(default_factory=GateThresholds)
    clarify: ClarifyPolicy = Field(default_factory=ClarifyPolicy)
    attempts: AttemptLimits = Field(default_factory=AttemptLimits)
    model: str = Field(default="extractive", description="`extractive`, or a chat model spec (see agent.models)")
    model_api_key: SecretStr | None = Field(default=None, description="API key of the model server, if it needs one")
    audit_dsn: str | None = Field(
        default=None,
        repr=False,  # a DSN may carry a password
        description="PostgreSQL DSN of the audit ledger (needs quotebound[postgres]); None = STORE/audit.sqlite",
    )
    access_request_hint: str | None = Field(
        default=None,
        max_length=500,
        description="how to request access, shown in abstention hints (else the policy file's `access_request`)",
    )
    policy_file: Path | None = Field(
        default=None, description="a policy file (YAML, see tools/policy_file.py); None = the built-in DefaultPolicy"
    )
    telemetry: Literal["none", "console"] = Field(
        default="none", description="OpenTelemetry spans per run, node and tool call: `console` prints them to stderr"
    )
    server: ServerLimits = Field(default_factory=ServerLimits)
    api_keys: list[ApiKey] = Field(
        default_factory=list,
        repr=False,
        description="the HTTP service's API keys (env QUOTEBOUND_API_KEYS_FILE: a YAML file, see load_api_keys)",
    )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Read `QUOTEBOUND_*` variables; explicit overrides (e.g. CLI flags) win when not None."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        if env.get("QUOTEBOUND_STORE"):
            values["store"] = Path(env["QUOTEBOUND_STORE"])
        if env.get("QUOTEBOUND_EMBEDDER"):
            values["embedder"] = env["QUOTEBOUND_EMBEDDER"]
        if env.get("QUOTEBOUND_QDRANT_URL"):
            values["qdrant_url"] = env["QUOTEBOUND_QDRANT_URL"]
        if env.get("QUOTEBOUND_MODEL"):
            values["model"] = env["QUOTEBOUND_MODEL"]
        if env.get("QUOTEBOUND_MODEL_API_KEY"):
            values["model_api_key"] = env["QUOTEBOUND_MODEL_API_KEY"]
        if env.get("QUOTEBOUND_QDRANT_API_KEY"):
            values["qdrant_api_key"] = env["QUOTEBOUND_QDRANT_API_KEY"]
        if env.get("QUOTEBOUND_POLICY"):
            values["policy_file"] = Path(env["QUOTEBOUND_POLICY"])
        if env.get("QUOTEBOUND_AUDIT_DSN"):
            values["audit_dsn"] = env["QUOTEBOUND_AUDIT_DSN"]
        if env.get("QUOTEBOUND_TELEMETRY"):
            values["telemetry"] = env["QUOTEBOUND_TELEMETRY"]
        if env.get("QUOTEBOUND_API_KEYS_FILE"):
            values["api_keys"] = load_api_keys(Path(env["QUOTEBOUND_API_KEYS_FILE"]))
        values.update({key: value for key, value in overrides.items() if value is not None})
        try:
            return cls.model_validate(values)
        except ValueError as exc:
            raise OperatorError(ErrorCode.MISCONFIGURED, f"invalid settings: {exc}") from exc
