"""Values the extractive model reads from a line, without a store."""

from __future__ import annotations

from quotebound.agent.models.extractive_text import extract_values


def test_a_time_with_seconds_is_one_value() -> None:
    # "21:49" cut out of "21:49:18" is a time no quote states: the gate refuses the draft that lists it
    times = [v.text for v in extract_values("Received: Tue, 22 Feb 2022 21:49:18 +0000") if v.kind == "time"]
    assert times == ["21:49:18"]
    assert [v.text for v in extract_values("Doors open at 7:30 p.m.") if v.kind == "time"] == ["7:30 p.m."]
