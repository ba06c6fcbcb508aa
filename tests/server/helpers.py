"""Small helpers shared by the HTTP service's tests."""

from __future__ import annotations

import json
from typing import Any

LEAKS = ("Traceback", 'File "', ".py", "RuntimeError", "Exception", "quotebound.", "/tmp", "/work", "pydantic")


def sse_events(text: str) -> list[tuple[str, Any]]:
    """(event, data as JSON) of each server-sent event in a response body."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = None, []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[len("event:") :].strip()
            elif line.startswith("data:"):
                data.append(line[len("data:") :].lstrip())
        if name is not None:
            events.append((name, json.loads("\n".join(data))))
    return events


def assert_no_internals(text: str) -> None:
    for leak in LEAKS:
        assert leak not in text, (leak, text)
