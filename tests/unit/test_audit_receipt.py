"""The receipt contract, its redaction for a viewer, the error envelope, and the versions receipts record."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from quotebound.agent.audit import sha256_text
from quotebound.agent.audit.receipt_view import WITHHELD, redact_receipt
from quotebound.agent.audit.verify import ChainReport
from quotebound.agent.core.contracts import ErrorEnvelope, PolicyDecision
from quotebound.agent.core.errors import ErrorCode, ModelError, OperatorError
from quotebound.agent.core.receipt import (
    Receipt,
    ReceiptBundle,
    ReceiptCaller,
    ReceiptCitation,
    ReceiptFlag,
    ReceiptModel,
    ReceiptPolicy,
    ReceiptPrecheck,
    ReceiptQuery,
)
from quotebound.agent.core.run_errors import error_code, error_envelope
from quotebound.agent.core.version import __version__
from quotebound.prompts import prompt_versions

QUESTION = "What does the HR file say about guest parking for Jane Roe?"
PUBLIC_REF = "doc://rules.md@v1#p.1 L3-L3"
HIDDEN_REF = "doc://hr/salaries.md@v2#p.1 L7-L8"


def _receipt() -> Receipt:
    def bundle(ref: str, source_id: str, obligations: list[str]) -> ReceiptBundle:
        return ReceiptBundle(
            ref=ref,
            source_id=source_id,
            bundle_id=sha256_text("bundle " + ref),
            digest=sha256_text("text " + ref),
            policy=PolicyDecision(decision="allow", reason=f"label {source_id}", obligations_applied=obligations),
        )

    return Receipt(
        audit_ref="audit://quotebound/abc",
        run_id="abc",
        session_id="s1",
        status="answer",
        caller=ReceiptCaller(role="steward", labels=["hr-confidential"]),
        query=ReceiptQuery(
            sha256=sha256_text(QUESTION),
            text=QUESTION,
            context_sha256=sha256_text('{"guest":"Jane Roe"}'),
            context={"guest": "Jane Roe"},
        ),
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        finished_at=datetime(2026, 1, 1, 0, 0, 1, tzinfo=UTC),
        latency_ms=1000.0,
        path=["preflight", "retrieve", "resolve", "draft", "validate", "verified_answer"],
        bundles=[bundle(PUBLIC_REF, "rules.md", ["mask-phone"]), bundle(HIDDEN_REF, "hr/salaries.md", ["mask-ssn"])],
        citations=[
            ReceiptCitation(ref=PUBLIC_REF, bundle_id=sha256_text("c1")),
            ReceiptCitation(ref=HIDDEN_REF, bundle_id=sha256_text("c2")),
        ],
        instructional_flags=[ReceiptFlag(ref=HIDDEN_REF, locator="p.1 L8-L8")],
        policy=ReceiptPolicy(
            version="file:sha256:1",
            precheck=ReceiptPrecheck(decision="allow", topic="payroll_secrets"),
            obligations_applied=["mask-phone", "mask-ssn"],
        ),
        model=ReceiptModel(id="extractive", version=__version__),
        prompt_versions=prompt_versions(),
        output_sha256=sha256_text("{}"),
    )


def _readable_public_only(source_id: str, version: int | None) -> bool:
    return source_id == "rules.md"


def test_a_non_audit_reader_sees_no_query_no_labels_and_no_hidden_source() -> None:
    original = _receipt()
    shown = redact_receipt(original, reads_audit=False, readable=_readable_public_only)
    assert shown.query.text is None and shown.query.context is None
    assert shown.query.sha256 == original.query.sha256  # the hash stays: integrity, not content
    assert shown.caller.labels == [WITHHELD] and shown.caller.role == "steward"
    public, hidden = shown.bundles
    assert public == original.bundles[0]
    assert (hidden.ref, hidden.source_id, hidden.policy.reason, hidden.policy.obligations_applied) == (
        WITHHELD,
        WITHHELD,
        WITHHELD,
        [],
    )
    assert hidden.digest == original.bundles[1].digest and hidden.bundle_id == original.bundles[1].bundle_id
    assert [c.ref for c in shown.citations] == [PUBLIC_REF, WITHHELD]
    assert shown.instructional_flags == [ReceiptFlag(ref=WITHHELD, locator=WITHHELD)]
    assert shown.policy.obligations_applied == ["mask-phone"]
    assert shown.policy.precheck is not None and shown.policy.precheck.topic == WITHHELD
    text = json.dumps(shown.model_dump(mode="json"))
    for secret in ("salaries", "hr/", "hr-confidential", "Jane Roe", "payroll", "mask-ssn", QUESTION):
        assert secret not in text, secret
    Receipt.model_validate(shown.model_dump(mode="json"))  # still a valid receipt
    assert original.query.text == QUESTION and original.bundles[1].ref == HIDDEN_REF  # the original is untouched


def test_an_audit_reader_sees_the_query_but_still_not_sources_it_may_not_read() -> None:
    shown = redact_receipt(_receipt(), reads_audit=True, readable=_readable_public_only)
    assert shown.query.text == QUESTION and shown.query.context == {"guest": "Jane Roe"}
    assert shown.caller.labels == ["hr-confidential"]
    assert shown.policy.precheck is not None and shown.policy.precheck.topic == "payroll_secrets"
    assert [b.ref for b in shown.bundles] == [PUBLIC_REF, WITHHELD]


def test_a_reader_of_everything_sees_the_receipt_as_written() -> None:
    original = _receipt()
    assert redact_receipt(original, reads_audit=True, readable=lambda source_id, version: True) == original


def test_the_viewer_is_asked_about_the_version_the_ref_pins() -> None:
    asked: list[tuple[str, int | None]] = []

    def readable(source_id: str, version: int | None) -> bool:
        asked.append((source_id, version))
        return False

    redact_receipt(_receipt(), reads_audit=False, readable=readable)
    assert ("hr/salaries.md", 2) in asked and ("rules.md", 1) in asked


def test_the_receipt_contract_is_strict() -> None:
    data = _receipt().model_dump(mode="json")
    with pytest.raises(ValidationError):
        Receipt.model_validate({**data, "answer_text": "smuggled"})
    with pytest.raises(ValidationError):
        Receipt.model_validate({**data, "output_sha256": "md5:abc"})
    with pytest.raises(ValidationError):
        Receipt.model_validate({**data, "status": "shipped"})


# --- the error envelope --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("exc", "code", "retryable"),
    [
        (OperatorError(ErrorCode.AUDIT_UNAVAILABLE, "disk full: /var/lib/qb/audit.sqlite"), "audit_unavailable", True),
        (OperatorError(ErrorCode.STORE_UNAVAILABLE, "cannot open /srv/hr/salaries.md"), "store_unavailable", True),
        (OperatorError(ErrorCode.MISCONFIGURED, "policy /etc/qb/policy.yaml: bad"), "misconfigured", False),
        (RuntimeError("KeyError 'hr/salaries.md' at /srv/app.py:12"), "internal_error", False),
        (ModelError(ErrorCode.UNKNOWN_SOURCE, "unknown source 'hr/salaries.md'"), "unknown_source", False),
    ],
)  # fmt: skip
def test_an_error_envelope_says_only_fixed_text(exc: Exception, code: str, retryable: bool) -> None:
    envelope = error_envelope(error_code(exc), audit_ref="audit://quotebound/e", run_id="r", model_id="m", latency_ms=3)
    assert isinstance(envelope, ErrorEnvelope) and envelope.status == "error"
    assert envelope.code.value == code and envelope.retryable is retryable
    assert envelope.audit_ref == "audit://quotebound/e" and envelope.meta.run_id == "r"
    for leak in ("/", "salaries", "disk", "KeyError", "policy.yaml"):
        assert leak not in envelope.message, (leak, envelope.message)
    assert "audit_ref" in envelope.message


def test_a_chain_report_reads_as_one_line() -> None:
    intact = ChainReport(ok=True, count=4, tip_hash=sha256_text("t"))
    assert intact.summary() == f"4 receipts, chain intact (tip {sha256_text('t')})"
    broken = ChainReport(ok=False, count=3, first_bad_seq=3, first_bad_ref="audit://q/3", problem="altered")
    assert broken.summary().startswith("chain broken at receipt seq 3 (audit://q/3): the stored hash")
    gone = ChainReport(ok=False, count=2, first_bad_seq=3, problem="missing")
    assert "seq 3 (audit_ref unknown)" in gone.summary()


# --- versions a receipt records ------------------------------------------------------------------------------


def test_prompt_versions_are_the_sha256_of_each_prompt_file() -> None:
    folder = Path(__file__).resolve().parents[2] / "prompts"
    expected = {path.stem: "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest() for path in folder.glob("*.md")}
    assert expected and prompt_versions() == expected


def test_model_versions() -> None:
    from quotebound.agent.core.settings import Settings
    from quotebound.agent.models.extractive import ExtractiveModel
    from quotebound.testing import scripted_model

    assert ExtractiveModel().model_version == __version__
    assert scripted_model([], model_id="scripted-1").model_version == "scripted-1"
    from quotebound.agent.models.chat import ChatModel

    with ChatModel.from_spec("openai:smollm2-q4@http://127.0.0.1:9/v1", Settings()) as chat:
        assert chat.model_id == "openai:smollm2-q4@http://127.0.0.1:9/v1" and chat.model_version == "smollm2-q4"
