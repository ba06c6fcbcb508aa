"""Every tunable of the extractive model, in one place: the line machinery, the frames, tables and meaning all read
their limits from here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thresholds:
    """Every tunable of the extractive strategy, with its default."""

    min_coverage: float = 0.6  # idf-weighted share of the question's words a line must cover to answer
    co_answer_margin: float = 0.2  # lines scoring within this of the best answer too (agreement or conflict)
    context_credit: float = 0.5  # a word found only in the line's heading / table header / document name
    value_bonus: float = 0.1  # the line holds a value of the asked kind
    primary_bonus: float = 0.02  # ties go to primary sources
    focus_bonus: float = 0.1  # times the share of the line's own words that the question asks about
    max_unknown_fraction: float = 0.3  # above this share of words absent from every line: abstain
    max_facts: int = 3
    search_top_n: int = 30
    search_pattern_chars: int = 200  # the tools' default pattern limit
    reserved_calls: int = 4  # tool calls kept back for calc after the searches
    header_fetches: int = 2  # table rows whose header the model fetches with quote_fetch
    header_reach: int = 40  # how many lines above such a row it reads (within quote_fetch's span limit)
    conflict_tolerance_pct: float = 1.0
    frame_fetches: int = 2  # best unframed lines whose lines above (up to their heading) the model fetches
    frame_reach: int = 12  # how many lines above such a line it reads
    frame_gap: float = 0.2  # how far below min_coverage a line may score and still be worth framing
    meaning_floor: float = 0.6  # embedder cosine from which a line word stands in for a question word
    # A sentence answering by meaning (`extractive_semantic`): on hoa and licenses the right sentences score
    # 0.72-0.80 against their question and the best wrong sentence of the asked type 0.69, so the floor sits between.
    semantic_floor: float = 0.7
    semantic_margin: float = 0.1  # a different value within this of the best sentence: too close to choose
