"""Line text of the extractive model: what a line is (a table row, a heading, a lead-in, a web page's chrome, a list
run) and its text without markdown markup.
"""

from __future__ import annotations

import re
from typing import Final

from quotebound.agent.models.extractive_values import NUMERIC_KINDS, extract_values
from quotebound.agent.models.extractive_words import TOKEN


def is_table_row(text: str) -> bool:
    return text.lstrip().startswith("|") and text.rstrip().endswith("|")


def is_heading(text: str) -> bool:
    stripped = text.strip()
    if stripped.startswith("#"):
        return True
    return bool(re.match(r"^(?:§|Section|Article)\s*[\dIVX]+(?:\.\d+)*\.?\s+[^.\d]{1,60}\.?$", stripped))


def table_cells(text: str) -> list[str]:
    return [cell.strip() for cell in text.strip().strip("|").split("|")]


# Words by which a line points ahead to what follows it (a list, a table): "the following", "as follows", "below".
_FORWARD: Final = frozenset(
    "following follows below include includes including consist consists comprise comprises comprised listed".split()
)


def is_lead_in(text: str) -> bool:
    """A line that only introduces what follows: it ends with a colon, and points ahead ("The following table
    presents revenues by location:") or states no value of its own ("| Amounts falling due within one year: | |").
    "Income rose to $299.3 million, primarily as a result of:" states its figure before the colon."""
    body = clean(text).rstrip(" .\"'”’)")
    if not body.endswith(":"):
        return False
    if {w.lower() for w in TOKEN.findall(body)} & _FORWARD:
        return True
    return not any(v.kind in NUMERIC_KINDS or v.kind in ("date", "time") for v in extract_values(body))


# Phrases of a web page's navigation (a document-structure category): a line holding several is page chrome, the
# menu and header a saved page carries ("Jump to content Main menu move to sidebar hide Navigation"), not a claim.
_CHROME: Final = re.compile(
    r"jump to content|skip to (?:main )?content|main menu|move to sidebar|toggle (?:the )?(?:table of contents|menu)"
    r"|navigation|main page|current events|random article|contact us|log ?in|sign ?in|create account|donate"
    r"|edit links|view history|what links here|privacy policy|cookie",
    re.I,
)


def is_page_chrome(text: str) -> bool:
    """A line holding three or more navigation phrases of a web page (`_CHROME`), or a run of list items."""
    return len({m.group().lower() for m in _CHROME.finditer(text)}) >= 3 or is_list_run(text)


# A list's item separators outside a table (a semicolon or a bullet between items): a line holding many of them and
# no sentence end is an index, a page's list of aliases or links, not a claim.
_LIST_SEPARATOR: Final = re.compile(r"\s[;•·]\s|;\s")
_SENTENCE_END: Final = re.compile(r"[a-z)\]][.!?]\s+[A-Z]")
_LIST_ITEMS: Final = 5


def is_list_run(text: str) -> bool:
    """Five or more list separators and no sentence end: "Морис Рош ; Edmund Burke-Roche ; Maurice Roche ; ..."."""
    if is_table_row(text):
        return False
    return len(_LIST_SEPARATOR.findall(text)) >= _LIST_ITEMS and _SENTENCE_END.search(text) is None


def is_label(cell: str) -> bool:
    """A table cell that names rather than states: words, and no amount, percent, date or count."""
    named = ("entity", "identifier")
    return bool(re.search(r"[^\W\d_]", cell)) and all(v.kind in named for v in extract_values(cell))


def clean(text: str) -> str:
    """The line without markdown markup, for a fact's text: only the line's own tokens, never new ones."""
    if is_table_row(text):
        cells = [c.replace("**", "").replace("__", "").replace("`", "").strip() for c in table_cells(text)]
        cells = [c for c in cells if c]
        if len(cells) > 2 and re.fullmatch(r"\d{1,3}", cells[0]):  # a row number
            cells = cells[1:]
        labels = [c for c in cells if is_label(c)]
        values = [c for c in cells if c not in labels]
        if labels and values:
            return f"{' / '.join(labels)}: {', '.join(values)}"
        return ", ".join(cells)
    stripped = re.sub(r"^\s*(?:#+\s*|>\s*|[-*+]\s+)", "", text)
    return re.sub(r"\*\*|__|`", "", stripped).strip()
