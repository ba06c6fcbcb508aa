"""A money question that names a party's role ("paid by X", "paid to X") is answered only through the transfer
reading, even when a meaning embedder credits the question's "paid" for a line's "charged": the direction is the
whole answer, and word coverage cannot see it."""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from quotebound.agent.models.base import DraftInput
from quotebound.agent.models.extractive import ExtractiveModel
from tests.unit.conftest import NO_TOOLS, whole_document

_PAYMENT_WORDS = frozenset({"paid", "pay", "charged", "charge", "sent", "send"})


class _PaymentSynonyms:
    """A stand-in for the MiniLM scorer: every payment word has one vector (cosine 1.0 between them), every other
    word its own, orthogonal to the rest."""

    def vectors(self, texts: Sequence[str]) -> list[Any]:
        found = []
        for text in texts:
            vector = np.zeros(4096, dtype=np.float32)
            vector[0 if text.lower() in _PAYMENT_WORDS else 1 + zlib.crc32(text.encode()) % 4095] = 1.0
            found.append(vector)
        return found


EMAIL = "Hi David,\nYour Mercury debit card was charged $200.00 by PayPal.\nThe settled amount may differ."


def _facts(question: str) -> list[str]:
    bundle = whole_document("mail.txt", EMAIL)
    request = DraftInput(question=question, bundles=[bundle], max_tool_calls=0, meaning=_PaymentSynonyms())
    draft = ExtractiveModel().draft(request, NO_TOOLS)
    return [f.value or "" for f in draft.evidence.facts]


def test_the_biller_is_paid_to() -> None:
    assert _facts("Find the $ value paid to PayPal?") == ["$200.00"]


def test_money_charged_by_a_biller_was_not_paid_by_it_even_when_paid_reads_as_charged() -> None:
    assert _facts("Find the $ value paid by PayPal?") == []
