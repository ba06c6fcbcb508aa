"""Fuzz the service with schemathesis against its own OpenAPI document: whatever a client sends, no operation
answers 5xx, and every response conforms to the document (status codes, headers, bodies, each SSE event; a
schema-valid request is not refused; a key is optional, an unknown one refused). Offline (the app is called
in-process over ASGI), bounded (FUZZ_EXAMPLES per operation, no per-example deadline, derandomized). Each
operation's strategy is driven with hypothesis directly: schemathesis's lazy pytest loader (`from_fixture`) does
not run under pytest 9, and a module-level schema would need a store at collection."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from .conftest import MEMBER, PUBLIC, STEWARD

FUZZ_EXAMPLES = 25
CALLERS: list[dict[str, str]] = [PUBLIC, MEMBER, STEWARD]


def test_no_operation_answers_a_server_error(app: FastAPI, capsys: pytest.CaptureFixture[str]) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 6
    seen: dict[str, int] = {}
    statuses: dict[int, int] = {}

    def fuzz_one(operation: Any) -> None:
        label = f"{operation.method.upper()} {operation.path}"
        # The evidence ref's shape is checked by the route (a 422), not by a path pattern: schemathesis cannot
        # generate path values with the `/` and `#` every ref has, so it would call any other string "valid".
        excluded = [positive_data_acceptance] if operation.path == "/evidence/{ref}" else []

        @given(case=operation.as_strategy())
        @settings(
            max_examples=FUZZ_EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,  # the same examples every run: a failure reproduces
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        def fuzz(case: schemathesis.Case) -> None:
            n = seen[label] = seen.get(label, 0) + 1
            # As generated (random keys: 401s), then with no key, the member's and the steward's key in turn, so
            # the bodies and paths reach the routes behind authentication too.
            if n % 4:
                generated = case.headers or {}
                case.headers = {k: v for k, v in generated.items() if k.lower() not in ("authorization", "x-api-key")}
                case.headers.update(CALLERS[n % 4 - 1])
            checks = list(excluded)
            anonymous = not any(k.lower() in ("authorization", "x-api-key") for k in case.headers or {})
            if anonymous and isinstance(case.body, dict) and case.body.get("session_id") is not None:
                # Without a key only a server-issued session_id is accepted (issue 14; the field's description
                # says so): a schema cannot tell a signed token from any other string, so this 422 is expected.
                checks.append(positive_data_acceptance)
            response = case.call_and_validate(excluded_checks=checks)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            assert response.status_code < 500, (label, case.body, case.path_parameters, response.text[:300])
            assert "Traceback" not in response.text

        fuzz()

    for operation in operations:
        fuzz_one(operation)
    with capsys.disabled():
        print(f"\nfuzz: {len(operations)} operations, {sum(seen.values())} examples {seen}; statuses {statuses}")
