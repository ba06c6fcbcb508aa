from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from quotebound.agent.core.contracts import (
    AbstainEnvelope,
    AnswerObject,
    AskRequest,
    Envelope,
    EvidenceRef,
    Fact,
    Locator,
    canonical_locator,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("p.1 L3-L7", "p.1 L3-L7"), ("p.12 L140", "p.12 L140-L140"), (" p.2 L1-L1 ", "p.2 L1-L1")],
)
def test_locator_round_trip(text: str, canonical: str) -> None:
    assert canonical_locator(text) == canonical
    assert str(Locator.parse(canonical)) == canonical


@pytest.mark.parametrize(
    "bad", ["", "p.0 L1-L2", "p.1 L0-L2", "p.1 L5-L2", "page 1 line 2", "p.1 L1-L2; DROP", "p.-1 L1"]
)
def test_malformed_locators_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        Locator.parse(bad)


def test_evidence_ref_parses_and_prints_back() -> None:
    ref = EvidenceRef.parse("doc://minutes/2025-03.md#p.1 L4-L6")
    assert (ref.source_id, ref.locator, ref.version) == ("minutes/2025-03.md", "p.1 L4-L6", None)
    assert str(ref) == "doc://minutes/2025-03.md#p.1 L4-L6"
    pinned = EvidenceRef.parse("doc://a.md@v3#p.2 L1")
    assert (pinned.version, str(pinned)) == (3, "doc://a.md@v3#p.2 L1-L1")


@pytest.mark.parametrize(
    "bad", ["a.md#p.1 L1", "doc://a.md", "doc://../etc/passwd#p.1 L1", "doc:///abs#p.1 L1", "doc://a.md#x"]
)
def test_bad_evidence_refs_are_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        EvidenceRef.parse(bad)


def test_contracts_forbid_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        Fact.model_validate({"text": "x", "support": [], "trust_me": True})
    with pytest.raises(ValidationError):
        AnswerObject.model_validate({"mode": "answer", "verified": True})


def test_envelope_is_discriminated_by_status() -> None:
    meta = {"run_id": "r1", "model_id": "extractive", "latency_ms": 1.0}
    data = {
        "status": "abstain",
        "reason_code": "no_evidence",
        "answer": {"level1": "Insufficient evidence", "level2": "x", "level3": "Citations: None — nothing found"},
        "audit_ref": "audit://1",
        "meta": meta,
    }
    envelope = TypeAdapter(Envelope).validate_python(data)
    assert isinstance(envelope, AbstainEnvelope)
    with pytest.raises(ValidationError):
        TypeAdapter(Envelope).validate_python({**data, "status": "maybe"})
    with pytest.raises(ValidationError):
        TypeAdapter(Envelope).validate_python({**data, "reason_code": "because"})


def test_ask_request_validation() -> None:
    assert AskRequest(question="What is the assessment?").role == "public"
    for bad in (
        {"question": "   "},
        {"question": ""},
        {"question": "q", "role": "x y"},
        {"question": "q", "session_id": "a b"},
    ):
        with pytest.raises(ValidationError):
            AskRequest.model_validate(bad)
