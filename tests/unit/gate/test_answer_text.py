"""The figures of a text as the answerhood rule reads them: its tokens, numbers in words, and written figures the
tokens read as part of a code. One pass over the text: a long, token-dense answer costs no more than its length."""

from __future__ import annotations

import random
import time
from decimal import Decimal

from quotebound.agent.gate import answer_text
from quotebound.agent.gate.answer_text import _DIGITS_RE, Figure, figures
from quotebound.agent.gate.question_words import number_words
from quotebound.agent.gate.tokens import extract_tokens

PIECES = ["€4,411m", "$4.00", "1,000", "12/31/2025", "10:00 p.m.", "§ 4.2", "(12)", "15%", "FY25", "USD500", "-1-1",
          "a1-b2", "twenty-five", "twelve", "2019", "1960s", "Owners may keep", "3.5", "x9", ", ", " "]  # fmt: skip


def _reference(text: str) -> tuple[Figure, ...]:
    """The definition: a written figure counts where no token other than a code overlaps it."""
    tokens = extract_tokens(text)
    found = [Figure(t.key, t.kind, t.text, t.end) for t in tokens]
    numeric = [(t.start, t.end) for t in tokens if t.kind != "code"]
    for m in _DIGITS_RE.finditer(text):
        if all(m.end() <= a or b <= m.start() for a, b in numeric):
            value = Decimal(m.group().lstrip("$€£¥₹").replace(",", ""))
            found.append(Figure(("num", value), "money" if m.group()[0] in "$€£¥₹" else "number", m.group(), m.end()))
    found += [Figure(("num", value), "word", text[a:b], b) for value, a, b in number_words(text)]
    return tuple(found)


def test_figures_are_the_reference_definition() -> None:
    rng = random.Random(15)
    for _ in range(400):
        text = " ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12)))
        assert figures(text) == _reference(text), text


def test_a_code_does_not_hide_the_figure_inside_it() -> None:
    assert ("num", Decimal("4411")) in {f.key for f in figures("Revenue was €4,411m.")}


def test_a_long_token_dense_text_is_read_in_linear_time() -> None:
    unit = "Owners may not keep -1-1 a1-b2 $4.00 12/31/2025 10:00 p.m. § 4.2 1,000 (12) 15% FY25 x9 3.5 "
    text = (unit * 250)[:19_900]
    answer_text.figures.cache_clear()
    start = time.process_time()
    found = figures(text)
    assert time.process_time() - start < 2.0  # ~0.4 s when each figure was checked against every token
    assert len(found) > 1000
