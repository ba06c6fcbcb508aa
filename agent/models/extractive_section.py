"""A numbered section states which section it is: "7. Disclaimer of Warranty. Unless required ..." is section 7,
though it never writes the word. A question asking "which section" is answered by such a line, so the line's own
number stands in for the question's word for a numbered part of a document."""

from __future__ import annotations

import re
from typing import Final

# The words by which a document refers to its own numbered parts (document structure, not any document's phrasing).
PART_WORDS: Final = frozenset({"section", "clause", "article", "paragraph"})

# A line opening with its own number and a title: "7. Disclaimer", "5.2. If You", "10.3 Modified Versions".
# ("12 Units are ..." is a count, not a section: a lone number needs its full stop)
_NUMBERED: Final = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2})+|\d{1,2}(?=\.))\.?\s+[A-Z]")


def section_number(text: str) -> str | None:
    """The number a line opens its section with, or None for a line that is not a numbered section."""
    match = _NUMBERED.match(text)
    return match.group(1) if match else None


def part_credit(word: str, text: str) -> float:
    """Full credit for a question word naming a numbered part when the line opens a numbered section."""
    return 1.0 if word in PART_WORDS and section_number(text) is not None else 0.0
