"""Prompt text, shipped as package data and read with importlib.resources.

Each `<name>.md` is a `str.format` template. A value is substituted once and never re-parsed, so braces inside
evidence or questions are inert; literal braces in a template are written `{{` `}}`. Rendering is strict: a
placeholder without a value is a bug, not something to paper over with an empty string.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class _Values(dict[str, str]):
    """The mapping handed to `format_map`: a missing placeholder names itself and the template."""

    def __init__(self, template: str, values: Mapping[str, object]) -> None:
        super().__init__({key: str(value) for key, value in values.items()})
        self.template = template

    def __missing__(self, key: str) -> str:
        raise KeyError(f"prompt {self.template!r} needs a value for {{{key}}}")


@dataclass(frozen=True)
class Prompt:
    name: str
    text: str
    sha256: str

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(field for _, field, _, _ in string.Formatter().parse(self.text) if field)

    def render(self, values: Mapping[str, object] | None = None, /, **more: object) -> str:
        supplied = {**(values or {}), **more}
        unknown = set(supplied) - self.placeholders
        if unknown:
            raise KeyError(f"prompt {self.name!r} has no placeholder(s) {sorted(unknown)}")
        return self.text.format_map(_Values(self.name, supplied))


@cache
def load_prompt(name: str) -> Prompt:
    """The prompt `prompts/<name>.md` (cached: package data does not change while a process runs)."""
    if not _NAME_RE.match(name):
        raise ValueError(f"not a prompt name: {name!r}")
    resource = files(__name__).joinpath(f"{name}.md")
    if not resource.is_file():
        raise FileNotFoundError(f"no prompt named {name!r}")
    raw = resource.read_bytes()
    return Prompt(name=name, text=raw.decode("utf-8"), sha256="sha256:" + hashlib.sha256(raw).hexdigest())


def prompt_versions() -> dict[str, str]:
    """{prompt name: sha256} of every shipped prompt, for audit receipts."""
    names = sorted(entry.name[:-3] for entry in files(__name__).iterdir() if entry.name.endswith(".md"))
    return {name: load_prompt(name).sha256 for name in names if _NAME_RE.match(name)}
