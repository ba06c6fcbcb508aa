"""A policy file: who reads which labels, restricted topics and obligations, in YAML. `FilePolicy` implements
`Policy` (tools/policy.py); `load_policy(settings)` picks it (or `DefaultPolicy` when no file is set).

```yaml
version: 1                       # required; the schema version (only 1 exists)
roles:                           # required, at least one; a caller whose role is not here reads nothing
  public:  {labels: [public]}
  member:  {labels: [public, members], grantable: [restricted]}
  steward: {labels: [public, members, restricted], see_denials: true, read_audit: true, keep_query_text: true}
topics:                          # restricted topics, refused before retrieval for every role not in allow_roles
  - name: security_access_codes
    phrases: ["gate code", "access code"]       # whole words, any case; "-", "_" and spaces alike; plural s/es
    patterns: ['\\b(?:alarm|door)\\s+pins?\\b']     # regexes, case-insensitive
    allow_roles: [steward]
obligations:                     # applied to the text of every readable source they match
  - name: mask-contact-details
    labels: [members]            # source labels (omit = every label)
    roles: [member]              # caller roles (omit = every role)
    mask: [email, phone, account_number, 'pattern:\\bPIN \\d{4}\\b']
  - name: coarse-locations
    labels: [location-precise]
    generalize: {coordinates: 2} # decimal places, 0-8
  - name: drop-private-notes
    drop: ['(?i)^\\s*private note:']   # regexes; a matching line is emptied
enumeration_patterns: []         # regexes (case-insensitive), refused as enumeration on top of the built-in ones
access_request: "To request access, write to the board secretary."
```

Semantics (default deny):
- A source is readable when its label is in the caller's role `labels`, or in the caller's own clearances
  (`Caller.labels`) *and* the role's `grantable` list. Any other label, and any label for an unknown role, is
  denied. `see_denials` lets abstentions say `not_permitted`; `read_audit` lets the role read receipts
  unredacted; `keep_query_text` keeps the question's text in receipts.
- Questions are pre-checked before retrieval (`precheck`): the built-in exfiltration and enumeration patterns
  (tools/precheck.py) for every role, then `enumeration_patterns`, then each topic the caller's role is not
  allowed. A topic or pattern whose regex times out counts as a match (fail closed).
- Obligations of every matching rule apply, in the order documented in tools/obligations.py.

Checked at load, each failure an `OperatorError(MISCONFIGURED)` naming the file and the field (e.g.
`roles.member.labels[1]`): YAML syntax and duplicate keys, unknown keys, wrong types, names and labels (the
characters `A-Z a-z 0-9 _ - .`), regexes (syntax, and none that matches the empty string), roles that a topic
or an obligation names but `roles` does not define, obligation labels no role can read (a typo would silently
never apply), duplicate topic or obligation names, rules with nothing to do. `version` is the sha256 of the
file's bytes, recorded in receipts. There is no fallback: a missing or invalid file never means "open".
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

import regex
import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from quotebound.agent.core.contracts import PolicyDecision, Source
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.tools.obligations import MASK_KINDS, PATTERN_PREFIX, check_obligation, describe
from quotebound.tools.policy import Caller, DefaultPolicy, Obligation, Policy, TopicDecision
from quotebound.tools.precheck import check_builtin, normalize_question

MAX_FILE_BYTES = 1_000_000
PATTERN_TIMEOUT_S = 0.25
_FLAGS = regex.VERSION0


def _regex(value: str) -> str:
    try:
        compiled = regex.compile(value, _FLAGS)
    except (regex.error, OverflowError, RecursionError) as exc:
        raise ValueError(f"not a valid regular expression: {exc}") from None
    if compiled.fullmatch("") is not None:
        raise ValueError("the regular expression matches the empty string, so it would match everything")
    return value


def _phrase(value: str) -> str:
    if not regex.search(r"\w", value):
        raise ValueError("a phrase needs at least one letter or digit")
    return value


def _mask(value: str) -> str:
    if value in MASK_KINDS:
        return value
    if value.startswith(PATTERN_PREFIX):
        _regex(value[len(PATTERN_PREFIX) :])
        return value
    raise ValueError(f"mask {value!r} is not one of {', '.join(MASK_KINDS)} or pattern:<regex>")


Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]  # as AskRequest.role
Label = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]  # as a sidecar's policy_label
RuleName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
Regex = Annotated[str, StringConstraints(min_length=1, max_length=500), AfterValidator(_regex)]
Phrase = Annotated[str, StringConstraints(min_length=1, max_length=200), AfterValidator(_phrase)]
MaskSpec = Annotated[str, StringConstraints(min_length=1, max_length=520), AfterValidator(_mask)]


class _Strict(BaseModel):
    # strict: `see_denials: "yes"` or `labels: [2024]` are errors, not guesses
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RoleSpec(_Strict):
    labels: list[Label] = Field(default_factory=list, max_length=200)
    grantable: list[Label] = Field(default_factory=list, max_length=200)
    see_denials: bool = False
    read_audit: bool = False
    keep_query_text: bool = False


class TopicSpec(_Strict):
    name: RuleName
    phrases: list[Phrase] = Field(default_factory=list, max_length=500)
    patterns: list[Regex] = Field(default_factory=list, max_length=200)
    allow_roles: list[Name] = Field(default_factory=list, max_length=200)

    @model_validator(mode="after")
    def _something_to_match(self) -> Self:
        if not self.phrases and not self.patterns:
            raise ValueError("a topic needs `phrases` or `patterns`")
        return self


class GeneralizeSpec(_Strict):
    coordinates: int = Field(ge=0, le=8, description="decimal places coordinates are rounded to")


class ObligationSpec(_Strict):
    name: RuleName
    labels: list[Label] | None = Field(default=None, min_length=1, description="source labels; omit for all")
    roles: list[Name] | None = Field(default=None, min_length=1, description="caller roles; omit for all")
    mask: list[MaskSpec] = Field(default_factory=list, max_length=50)
    generalize: GeneralizeSpec | None = None
    drop: list[Regex] = Field(default_factory=list, max_length=200)

    @model_validator(mode="after")
    def _something_to_do(self) -> Self:
        if not self.mask and self.generalize is None and not self.drop:
            raise ValueError("an obligation needs `mask`, `generalize` or `drop`")
        return self

    def obligations(self) -> list[Obligation]:
        found = [Obligation(kind="drop", what=pattern, rule=self.name) for pattern in self.drop]
        if self.generalize is not None:
            found.append(
                Obligation(kind="generalize", what="coordinates", rule=self.name, precision=self.generalize.coordinates)
            )
        found += [Obligation(kind="mask", what=what, rule=self.name) for what in self.mask]
        return found


class PolicySpec(_Strict):
    version: Literal[1]
    roles: dict[Name, RoleSpec] = Field(min_length=1, max_length=200)
    topics: list[TopicSpec] = Field(default_factory=list, max_length=500)
    obligations: list[ObligationSpec] = Field(default_factory=list, max_length=500)
    enumeration_patterns: list[Regex] = Field(default_factory=list, max_length=200)
    access_request: str | None = Field(default=None, min_length=1, max_length=500)


# --- loading -----------------------------------------------------------------------------------------------


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader that refuses a mapping with the same key twice (YAML would silently keep the last one)."""


def _unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            duplicate = key in seen
            seen.add(key)
        except TypeError:  # an unhashable key; the schema reports it
            continue
        if duplicate:
            raise yaml.constructor.ConstructorError(
                "while reading a mapping", node.start_mark, f"found the key {key!r} twice", key_node.start_mark
            )
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)


def _where(loc: Iterable[int | str]) -> str:
    """pydantic's location as a path a person can find in the file: `obligations[1].mask[0]`."""
    out = ""
    for part in loc:
        if part == "[key]":
            out += " (the name)"
        else:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _yaml_problem(exc: yaml.YAMLError) -> str:
    """`line 3, column 3: found the key 'public' twice (while reading a mapping)`, 1-based like editors."""
    if not isinstance(exc, yaml.MarkedYAMLError) or exc.problem_mark is None:
        return f"not valid YAML: {' '.join(str(exc).split())}"
    mark = exc.problem_mark
    context = f" ({exc.context})" if exc.context else ""
    return f"not valid YAML at line {mark.line + 1}, column {mark.column + 1}: {exc.problem}{context}"


def _misconfigured(name: str, problems: list[str]) -> OperatorError:
    shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
    return OperatorError(ErrorCode.MISCONFIGURED, f"policy file {name}: {shown}")


def parse_policy(data: bytes, name: str = "<policy>") -> PolicySpec:
    """Validate a policy file's bytes; `name` (the path) is named in every error."""
    if len(data) > MAX_FILE_BYTES:
        raise _misconfigured(name, [f"the file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}"])
    try:
        loaded = yaml.load(data.decode("utf-8"), Loader=_UniqueKeyLoader)  # a SafeLoader subclass
    except UnicodeDecodeError as exc:
        raise _misconfigured(name, [f"not UTF-8 text ({exc.reason} at byte {exc.start})"]) from None
    except yaml.YAMLError as exc:
        raise _misconfigured(name, [_yaml_problem(exc)]) from None
    if loaded is None:
        raise _misconfigured(name, ["the file is empty; it needs at least `version: 1` and `roles`"])
    if not isinstance(loaded, dict):
        raise _misconfigured(name, [f"expected a mapping of keys at the top level, not a {type(loaded).__name__}"])
    try:
        spec = PolicySpec.model_validate(loaded)
    except ValidationError as exc:
        raise _misconfigured(name, [f"{_where(e['loc'])}: {e['msg']}" for e in exc.errors()]) from None
    problems = _cross_check(spec)
    if problems:
        raise _misconfigured(name, problems)
    return spec


def _cross_check(spec: PolicySpec) -> list[str]:
    """What one field alone cannot tell: names that must refer to something, and must not repeat."""
    problems: list[str] = []
    roles = set(spec.roles)
    readable = {label for role in spec.roles.values() for label in (*role.labels, *role.grantable)}
    for kind, names in (("topics", [t.name for t in spec.topics]), ("obligations", [o.name for o in spec.obligations])):
        seen: set[str] = set()
        for i, name in enumerate(names):
            if name in seen:
                problems.append(f"{kind}[{i}].name: {name!r} is used by an earlier rule; names must be unique")
            seen.add(name)
    for i, topic in enumerate(spec.topics):
        for j, role in enumerate(topic.allow_roles):
            if role not in roles:
                problems.append(f"topics[{i}].allow_roles[{j}]: role {role!r} is not defined under `roles`")
    for i, rule in enumerate(spec.obligations):
        for j, role in enumerate(rule.roles or []):
            if role not in roles:
                problems.append(f"obligations[{i}].roles[{j}]: role {role!r} is not defined under `roles`")
        for j, label in enumerate(rule.labels or []):
            if label not in readable:
                problems.append(
                    f"obligations[{i}].labels[{j}]: no role can read label {label!r}, so this rule would never apply"
                )
    return problems


# --- the policy --------------------------------------------------------------------------------------------


def phrase_regex(phrase: str) -> str:
    """`gate code` → whole words, with spaces, hyphens, underscores or nothing between them ("gatecode"), and an
    optional plural."""
    words = [regex.escape(word) for word in regex.split(r"[\s_-]+", phrase.strip()) if word]
    plural = "(?:e?s)?" if regex.search(r"\w$", phrase.strip()) else ""
    return r"(?<!\w)" + r"[\s_-]*".join(words) + plural + r"(?!\w)"


@dataclass(frozen=True)
class _Topic:
    name: str
    allow_roles: frozenset[str]
    matchers: tuple[regex.Pattern[str], ...]  # the phrases as one pattern, then each regex on its own


def _compile_topic(topic: TopicSpec) -> _Topic:
    phrases = [phrase_regex(p) for p in topic.phrases]
    matchers = [regex.compile("|".join(phrases), _FLAGS | regex.IGNORECASE)] if phrases else []
    matchers += [regex.compile(p, _FLAGS | regex.IGNORECASE) for p in topic.patterns]
    return _Topic(topic.name, frozenset(topic.allow_roles), tuple(matchers))


def _search(pattern: regex.Pattern[str], text: str) -> bool:
    try:
        return pattern.search(text, timeout=PATTERN_TIMEOUT_S) is not None
    except TimeoutError:
        return True  # fail closed: a pattern that cannot decide refuses the question


class FilePolicy:
    """The `Policy` a policy file describes (see the module docstring)."""

    def __init__(self, spec: PolicySpec, *, version: str, name: str = "<policy>") -> None:
        self.spec = spec
        self.name = name
        self._version = version
        self._topics = [_compile_topic(topic) for topic in spec.topics]
        self._enumeration = [regex.compile(p, _FLAGS | regex.IGNORECASE) for p in spec.enumeration_patterns]
        self._rules = [(rule, rule.obligations()) for rule in spec.obligations]
        for _, obligations in self._rules:
            for obligation in obligations:
                try:
                    check_obligation(obligation)
                except OperatorError as exc:
                    raise _misconfigured(name, [f"obligations: {exc.message}"]) from None

    @classmethod
    def from_bytes(cls, data: bytes, name: str = "<policy>") -> FilePolicy:
        return cls(parse_policy(data, name), version="sha256:" + hashlib.sha256(data).hexdigest(), name=name)

    @classmethod
    def load(cls, path: Path) -> FilePolicy:
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise _misconfigured(str(path), [f"cannot be read ({exc.strerror or exc})"]) from None
        return cls.from_bytes(data, str(path))

    def _readable_labels(self, caller: Caller) -> frozenset[str]:
        role = self.spec.roles.get(caller.role)
        if role is None:
            return frozenset()
        return frozenset(role.labels) | (caller.labels & frozenset(role.grantable))

    def decide(self, caller: Caller, source: Source) -> PolicyDecision:
        role = self.spec.roles.get(caller.role)
        if role is None:
            return PolicyDecision(decision="deny", reason="unknown_role")
        label = source.policy_label
        if label in role.labels:
            reason = f"label_{label}"
        elif label in role.grantable and label in caller.labels:
            reason = f"granted_{label}"
        else:
            return PolicyDecision(decision="deny", reason="default_deny")
        applied = [describe(o) for o in self._matching(caller, source)]
        return PolicyDecision(decision="allow", reason=reason, obligations_applied=applied)

    def _matching(self, caller: Caller, source: Source) -> list[Obligation]:
        return [
            obligation
            for rule, obligations in self._rules
            if (rule.labels is None or source.policy_label in rule.labels)
            and (rule.roles is None or caller.role in rule.roles)
            for obligation in obligations
        ]

    def obligations(self, caller: Caller, source: Source) -> list[Obligation]:
        if source.policy_label not in self._readable_labels(caller):
            return []  # nothing of it is shown at all
        return self._matching(caller, source)

    def precheck(self, caller: Caller, question: str) -> TopicDecision:
        text = normalize_question(question)
        builtin = check_builtin(text)
        if builtin is not None:
            return TopicDecision(allowed=False, reason=builtin)
        if any(_search(pattern, text) for pattern in self._enumeration):
            return TopicDecision(allowed=False, reason="enumeration")
        for topic in self._topics:
            if caller.role not in topic.allow_roles and any(_search(m, text) for m in topic.matchers):
                return TopicDecision(allowed=False, reason="restricted_topic", topic=topic.name)
        return TopicDecision(allowed=True)

    def _flag(self, caller: Caller, name: Literal["see_denials", "read_audit", "keep_query_text"]) -> bool:
        role = self.spec.roles.get(caller.role)
        return bool(role is not None and getattr(role, name))

    def reveals_denials(self, caller: Caller) -> bool:
        return self._flag(caller, "see_denials")

    def keeps_query_text(self, caller: Caller) -> bool:
        return self._flag(caller, "keep_query_text")

    def reads_audit(self, caller: Caller) -> bool:
        return self._flag(caller, "read_audit")

    @property
    def access_request_hint(self) -> str | None:
        return self.spec.access_request

    @property
    def version(self) -> str:
        return self._version


def load_policy(settings: Settings) -> Policy:
    """The policy `settings.policy_file` describes, or `DefaultPolicy` when none is set."""
    if settings.policy_file is None:
        return DefaultPolicy()
    return FilePolicy.load(settings.policy_file)
