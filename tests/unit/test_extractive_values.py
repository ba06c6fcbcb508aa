"""Values the extractive model reads from a line, without a store."""

from __future__ import annotations

from quotebound.agent.models.extractive_values import extract_values


def test_a_time_with_seconds_is_one_value() -> None:
    # "21:49" cut out of "21:49:18" is a time no quote states: the gate refuses the draft that lists it
    times = [v.text for v in extract_values("Received: Tue, 22 Feb 2022 21:49:18 +0000") if v.kind == "time"]
    assert times == ["21:49:18"]
    assert [v.text for v in extract_values("Doors open at 7:30 p.m.") if v.kind == "time"] == ["7:30 p.m."]


def test_a_day_first_date_is_one_whole_date() -> None:
    values = extract_values("Version 3, 29 June 2007")
    dates = [v for v in values if v.kind == "date"]
    assert [v.text for v in dates] == ["29 June 2007"]
    assert dates[0].normalized() == "2007-06-29"


def test_day_first_and_month_first_dates_compare_equal() -> None:
    (day_first,) = [v for v in extract_values("the Council of 11 March 1996 on") if v.kind == "date"]
    (month_first,) = [v for v in extract_values("on March 11, 1996") if v.kind == "date"]
    assert day_first.normalized() == month_first.normalized()
