"""Instructional text inside sources: spans that read like orders to an assistant (prompt injection).

Source text is data. Flagged lines are recorded (bundle `flags`, receipts) and can never support a fact; they
never change what the graph does. The patterns are deliberately generic (cpack-ingestion-gate §3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_PATTERNS = re.compile(
    "|".join(
        (
            r"\b(?:ignore|disregard|forget|override)\b.{0,40}\b(?:previous|prior|above|earlier|all)\b.{0,20}"
            r"\b(?:instructions?|prompts?|rules|messages?)\b",
            r"\byou are now\b",
            r"\bact as (?:an?|the)\b.{0,40}\b(?:assistant|ai|model|system)\b",
            r"\b(?:system|developer) (?:prompt|message|instructions?)\b",
            r"\b(?:reveal|print|show|repeat|leak)\b.{0,30}\b(?:prompt|instructions|hidden|restricted|sources?)\b",
            r"\bdo not (?:mention|cite|reveal|tell)\b",
            r"</?\s*(?:tool|function)[_ ]?calls?\s*>|\"(?:tool|function)_?(?:name|call)\"\s*:",
        )
    ),
    re.IGNORECASE,
)
FLAG_PREFIX = "instructional_text:"


def is_instructional(text: str) -> bool:
    return _PATTERNS.search(text) is not None


def instructional_locators(lines: Iterable[tuple[int, int, str]]) -> list[str]:
    """Single-line locators (`p.P Ln-Ln`) of the lines that carry instructional text."""
    return [f"p.{page} L{line_no}-L{line_no}" for page, line_no, text in lines if text and is_instructional(text)]
