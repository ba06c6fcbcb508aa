"""The question's subject as the extractive model reads it: the names the question asks about."""

from __future__ import annotations

import re

from quotebound.agent.models.extractive_text import STOPWORDS, Question, normalize


def subject_names(question: Question) -> frozenset[str]:
    """The question's capitalized words after its first (the names of the subject asked about), normalized."""
    found = re.findall(r"\b[A-Z][\w'’-]*", question.text)
    return frozenset(normalize(w.lower()) for w in found[1:] if w.lower() not in STOPWORDS)


__all__ = ["subject_names"]
