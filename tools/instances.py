"""The named instances of a kind of thing a corpus lists: whether "my <noun>" needs the user to say which one.

A noun names several things in a corpus when the corpus tells them apart by a name or number:
- a table whose column is headed by the noun ("| Unit | ... |") lists each instance in that column;
- prose labels an instance with the noun and an identifier ("Building 4", "Lot B", "Unit 2C");
- a document's title names one by a proper name the noun heads ("Apache License", "GNU GENERAL PUBLIC LICENSE" with
  its "Version 3" line): several documents so titled are several licenses ("my license" needs to say which).
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
    return set(spelled_instances(lines, noun))


def spelled_instances(lines: Iterable[str], noun: str) -> dict[str, str]:
    """`named_instances`, each case-folded instance with its first spelling ("4b": "4B"), for offering it."""
    forms = noun_forms(noun)
    alternatives = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    label = re.compile(rf"\b(?i:{alternatives})\s+({_LABEL_ID})")
    found: dict[str, str] = {}
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
                found.setdefault(cells[column].casefold(), cells[column])
        for match in label.finditer(line):
            if _is_identifier(match.group(1)):
                found.setdefault(match.group(1).casefold(), match.group(1))
        previous = line
    return found


_TITLE_TOKEN = re.compile(r"\S+")
_VERSION = re.compile(r"^(?:Version|Ver\.?|v)?\s*\d[\w.]*", re.IGNORECASE)
_NAME_END = re.compile(r"[,:;\u2014\u2013]$")  # "Association —": a dash or comma closes the name before it
_TITLE_LINES = 2  # the title line and the one after it (a license's "Version 3, 29 June 2007")


def title_instance(lines: Iterable[str], noun: str) -> str | None:
    """The name a document's title gives a thing of kind `noun`, if its title names one: the run of capitalized
    words the noun heads, with a version that follows it ("Mozilla Public License Version 2.0"). The noun heads
    the run when no capitalized word follows it: in "Unit Schedule" it qualifies a schedule and names no unit."""
    head = [line.strip().lstrip("#").strip() for line in lines if line.strip()][:_TITLE_LINES]
    if not head:
        return None
    forms = noun_forms(noun)
    words = _TITLE_TOKEN.findall(head[0])
    for i, word in enumerate(words):
        bare = word.strip("()[]\"'.,:;")
        if bare.lower() not in forms or not bare[:1].isupper():
            continue
        after = " ".join(words[i + 1 :])
        version = _VERSION.match(after)
        if version is None and words[i + 1 :] and words[i + 1][:1].isupper():
            continue  # the noun qualifies what follows it
        first = i
        while first > 0 and words[first - 1][:1].isupper() and not _NAME_END.search(words[first - 1]):
            first -= 1
        name = " ".join([*words[first:i], bare])
        if version is not None:
            name = f"{name} {version.group().rstrip('.,')}"
        elif len(head) > 1 and (below := _VERSION.match(head[1])) is not None and below.group()[:1].isalpha():
            name = f"{name} {below.group().rstrip('.,')}"  # the version line under the title
        return re.sub(r"^(?:The|A|An)\s+", "", name)
    return None
