"""One word in two inflections: "budgeted" is the verb of the column "FY2025 budget". The normalizer joins plurals
only; this joins the -ed and -ing forms of a verb with its base, both ways, so a question's verb meets the noun a
table header or heading frames its lines with. Only framing words are matched so (`extractive_score`): a line's
own words must say the question's, or another document's sentence in another tense would answer for it.

English spelling rules only (a doubled final consonant, a dropped final e), no word list.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

_MIN_BASE: Final = 4  # shorter bases ("us" of "used", "be" of "bed") join unrelated words


@lru_cache(maxsize=65536)  # called for every token of every line read, for each question
def bases(word: str) -> frozenset[str]:
    """The word itself and the bases it may be an -ed / -ing form of ("planned": plan; "serving": serve)."""
    found = {word}
    if not word.isalpha():
        return frozenset(found)
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_BASE - 1:
            stem = word[: -len(ending)]
            found |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:  # "planned", "budgetting": the doubled consonant
                found.add(stem[:-1])
    return frozenset(w for w in found if len(w) >= _MIN_BASE or w == word)


def inflected(word: str, toks: Iterable[str]) -> bool:
    """Whether some token is `word` in another inflection (a shared base), not the word itself."""
    own = bases(word)
    return any(tok != word and own & bases(tok) for tok in toks)
