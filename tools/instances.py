"""The named instances of a kind of thing a corpus lists: whether "my <noun>" needs the user to say which one.

A noun names several things in a corpus when the corpus tells them apart by a name or number:
- a table whose column is headed by the noun ("| Unit | ... |") lists each instance in that column;
- prose labels an instance with the noun and an identifier ("Building 4", "Lot B", "Unit 2C").
Nothing here knows about any one corpus's subject: only the noun the question used and the text's layout.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]*-[\s:|-]*\|\s*$")
_LABEL_ID = r"[A-Z0-9][\w-]{0,15}\b"


def noun_forms(noun: str) -> set[str]:
    """The noun and its plain English singular/plural forms, lower-case ("unit" → unit, units)."""
    word = noun.lower()
    forms = {word, f"{word}s", f"{word}es"}
    if word.endswith("ies") and len(word) > 4:
        forms.add(f"{word[:-3]}y")
    if word.endswith("es") and len(word) > 3:
        forms.add(word[:-2])
    if word.endswith("s") and len(word) > 2:
        forms.add(word[:-1])
    if word.endswith("y") and len(word) > 2:
        forms.add(f"{word[:-1]}ies")
    return forms


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _is_identifier(label: str) -> bool:
    """A label that names one instance: it carries a digit ("4", "2C", "C-07") or is a short capital ("B")."""
    return any(ch.isdigit() for ch in label) or (label.isupper() and len(label) <= 3)


def named_instances(lines: Iterable[str], noun: str) -> set[str]:
    """The distinct instances of `noun` the lines tell apart: values of a table column headed by the noun, and
    identifiers written right after the noun in prose. Case-folded, so "unit 4b" and "Unit 4B" are one."""
    forms = noun_forms(noun)
    alternatives = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    label = re.compile(rf"\b(?i:{alternatives})\s+({_LABEL_ID})")
    found: set[str] = set()
    column: int | None = None  # the noun's column in the table being read, if any
    previous = ""
    for line in lines:
        if not _TABLE_ROW.match(line):
            column = None
        elif _TABLE_RULE.match(line):
            header = [cell.lower() for cell in _cells(previous)] if _TABLE_ROW.match(previous) else []
            column = next((i for i, cell in enumerate(header) if cell in forms), None)
        elif column is not None:
            cells = _cells(line)
            if column < len(cells) and cells[column]:
                found.add(cells[column].casefold())
        for match in label.finditer(line):
            if _is_identifier(match.group(1)):
                found.add(match.group(1).casefold())
        previous = line
    return found
