"""`apply_obligations`: masks, coordinate generalization and drops, each with what it must and must not touch."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.tools.obligations import PLACEHOLDERS, apply_obligations, check_obligation, describe
from quotebound.tools.policy import Obligation

EMAIL = Obligation("mask", "email", rule="contacts")
PHONE = Obligation("mask", "phone", rule="contacts")
ACCOUNT = Obligation("mask", "account_number", rule="contacts")
COARSE = Obligation("generalize", "coordinates", rule="coarse", precision=2)
PRIVATE = Obligation("drop", r"(?i)^\s*private note:", rule="notes")


def one(line: str, *obligations: Obligation) -> str:
    return apply_obligations([line], obligations)[0][0]


# --- mask: email ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("Write to dana.whitlock@cedarhollow.example today.", "Write to [email withheld] today."),
        ("office@ridgeline-cm.example.", "[email withheld]."),  # the sentence's full stop stays
        ("<A.B+tag@mail.sub.example.org>", "<[email withheld]>"),
        ("mailto:bob@example.org", "mailto:[email withheld]"),
        ("jane [at] example [dot] org", "[email withheld]"),
        ("Ana: ana@x.example, Bo: bo@y.example", "Ana: [email withheld], Bo: [email withheld]"),
    ],
)
def test_emails_are_masked(line: str, masked: str) -> None:
    assert one(line, EMAIL) == masked


@pytest.mark.parametrize(
    "line", ["Meet me @ 5pm at the kiosk.", "The @home program.", "user@localhost", "a @ b", "Twitter: @cedarhollow"]
)
def test_things_that_are_not_emails_stay(line: str) -> None:
    assert one(line, EMAIL) == line


# --- mask: phone ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "number",
    [
        "(541) 555-0187",
        "541-555-0187",
        "541.555.0187",
        "541 555 0187",
        "1-541-555-0187",
        "+1 541 555 0187",
        "+1 (541) 555-0187",
        "(541) 555-0187 ext. 12",
        "5415550187",
        "+44 20 7946 0958",
        "+33 (0)1 42 68 53 00",
        "+49 30 1234567",
    ],
)
def test_phone_numbers_are_masked(number: str) -> None:
    assert one(f"Call {number}, after 6 p.m.", PHONE) == "Call [phone withheld], after 6 p.m."


@pytest.mark.parametrize(
    "line",
    [
        "Approved on March 12, 2025 (2025-03-12), effective 03/12/2025.",
        "Total annual assessment income: $93,600.00.",
        "Reserve: $1,450.00 per month, 12.5% of 11,600.",
        "See § 4.3 and Section 10.2.1 of the Declaration.",
        "Recorded as Instrument No. 2003-118842 in 1998.",
        "Camera 1: 44.052147, -123.086754",
        "Alder Falls, OR 97401; Units 1A-6D; spaces C-13 to C-24.",
        "From 7:00 a.m. to 10:30 p.m., 1,050 sq ft.",
        "Account number: 6038 1157 2294.",  # an account number is not a phone number
    ],
)
def test_dates_money_sections_and_coordinates_are_not_phones(line: str) -> None:
    assert one(line, PHONE) == line


# --- mask: account numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "masked"),
    [
        ("Account number: 6038 1157 2294.", "Account number: [account number withheld]."),
        ("Routing number: 129900451.", "Routing number: [account number withheld]."),
        ("acct #0044-1782-9301", "acct #[account number withheld]"),
        ("Our account is 7741.", "Our account is [account number withheld]."),
        ("IBAN GB82 WEST 1234 5698 7654 32", "IBAN [account number withheld]"),
        ("Pay to DE89370400440532013000 please", "Pay to [account number withheld] please"),
        ("Card 4111 1111 1111 1111 on file.", "Card [account number withheld] on file."),
        ("Reference 004417829301.", "Reference [account number withheld]."),
    ],
)
def test_account_numbers_are_masked(line: str, masked: str) -> None:
    assert one(line, ACCOUNT) == masked


@pytest.mark.parametrize(
    "line",
    [
        "The account for 2025 dues is kept by the Treasurer.",  # a year after the word
        "The reserve account holds $48,000.00.",
        "Dated 20250312 and 2025-03-12; $12000000 budgeted; 1,234,567 visits.",
        "Instrument No. 2003-118842; § 5.8; Section 12; 24 Units; 26,560 sq ft.",
        "Camera 3: 44.052891, -123.085517; ratio 0.12345678.",
        "Call (541) 555-0187.",
    ],
)
def test_dates_money_sections_and_years_are_not_account_numbers(line: str) -> None:
    assert one(line, ACCOUNT) == line


# --- generalize: coordinates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "coarse"),
    [
        ("Valve: 38.897700, -77.036500", "Valve: 38.90, -77.04"),
        ("Valve: 38.897700,-77.036500.", "Valve: 38.90,-77.04."),
        ("at lat 38.8977 lon -77.0365 by the sign", "at lat 38.90 lon -77.04 by the sign"),
        ("Latitude: 44.052147; Longitude: -123.086754", "Latitude: 44.05; Longitude: -123.09"),
        ("38.8977° N, 77.0365° W", "38.90° N, 77.04° W"),
        ("N 38.8977, W77.03651", "N 38.90, W77.04"),
        ("GeoJSON order: -123.086754, 44.052147", "GeoJSON order: -123.09, 44.05"),
        ("38°53'51.7\"N 77°2'11.6\"W", "38.90°N 77.04°W"),
        ("Already coarse: 44.05, -123.09 and 44.1, -123.1", "Already coarse: 44.05, -123.09 and 44.1, -123.1"),
        ("Half up: 10.125, 20.135", "Half up: 10.13, 20.14"),
    ],
)
def test_coordinates_are_rounded(line: str, coarse: str) -> None:
    assert one(line, COARSE) == coarse


@pytest.mark.parametrize(
    "line",
    [
        "Interests: 3.50%, 4.00%, 4.25% and 5.00%.",
        "Budget lines 1,450.00, 18,600.00 and $325.00.",
        "Two decimals only: 12.50 13.75",
        "Version 1.2.3, section 4.3.1, time 10.30",
        "A pair out of range: 123.456789, 234.567890",
    ],
)
def test_numbers_that_are_not_coordinates_stay(line: str) -> None:
    assert one(line, COARSE) == line


@pytest.mark.parametrize(("precision", "expected"), [(0, "39, -77"), (1, "38.9, -77.0"), (4, "38.8977, -77.0365")])
def test_precision_is_the_number_of_decimals(precision: int, expected: str) -> None:
    obligation = Obligation("generalize", "coordinates", rule="r", precision=precision)
    assert one("38.897700, -77.036500", obligation) == expected


# --- drop, order and bookkeeping ----------------------------------------------------------------------------


def test_a_dropped_line_becomes_empty_and_line_numbers_stay() -> None:
    lines = ["Notes", "Private note: owner of 3C asked for privacy.", "  PRIVATE NOTE: again", "Public line"]
    visible, applied = apply_obligations(lines, [PRIVATE])
    assert visible == ["Notes", "", "", "Public line"]
    assert applied == ["drop:line x2 (rule notes)"]


def test_what_was_applied_is_counted_per_rule_and_unchanged_kinds_are_not_listed() -> None:
    lines = ["a@x.example, b@y.example", "(541) 555-0100", "lat 44.052147 lon -123.086754", "nothing here"]
    visible, applied = apply_obligations(lines, [EMAIL, PHONE, ACCOUNT, COARSE, PRIVATE])
    assert visible == [
        "[email withheld], [email withheld]",
        "[phone withheld]",
        "lat 44.05 lon -123.09",
        "nothing here",
    ]
    assert applied == [
        "generalize:coordinates@2 x2 (rule coarse)",
        "mask:email x2 (rule contacts)",
        "mask:phone x1 (rule contacts)",
    ]


def test_drops_see_the_original_line_whatever_the_list_order() -> None:
    drop_owner_lines = Obligation("drop", r"@owner\.example", rule="owners")
    line = "Owner: ann@owner.example"
    assert apply_obligations([line], [EMAIL, drop_owner_lines])[0] == [""]
    assert apply_obligations([line], [drop_owner_lines, EMAIL])[0] == [""]


def test_a_pattern_mask_replaces_each_match() -> None:
    pin = Obligation("mask", r"pattern:\bPIN \d{4}\b", rule="pins")
    assert apply_obligations(["PIN 1234 or PIN 5678, not pin 9999"], [pin]) == (
        ["[withheld] or [withheld], not pin 9999"],
        ["mask:pattern x2 (rule pins)"],
    )


def test_describe_names_kind_what_and_rule() -> None:
    assert describe(EMAIL) == "mask:email (rule contacts)"
    assert describe(COARSE) == "generalize:coordinates@2 (rule coarse)"
    assert describe(Obligation("drop", "x")) == "drop:line"


@pytest.mark.parametrize(
    ("obligation", "message"),
    [
        (Obligation("mask", "ssn", rule="r"), "cannot mask 'ssn'"),
        (Obligation("mask", "pattern:(", rule="r"), "bad regex '('"),
        (Obligation("mask", "pattern:x*", rule="r"), "matches the empty string"),
        (Obligation("shred", "x", rule="r"), "unknown obligation kind"),  # type: ignore[arg-type]
        (Obligation("drop", "[", rule="r"), "bad regex '['"),
        (Obligation("generalize", "addresses", rule="r", precision=2), "cannot generalize 'addresses'"),
        (Obligation("generalize", "coordinates", rule="r"), "precision from 0 to 8"),
        (Obligation("generalize", "coordinates", rule="r", precision=9), "precision from 0 to 8"),
    ],
)
def test_an_obligation_that_cannot_be_applied_is_an_operator_error(obligation: Obligation, message: str) -> None:
    with pytest.raises(OperatorError) as info:
        check_obligation(obligation)
    assert info.value.code is ErrorCode.MISCONFIGURED and message in info.value.message
    with pytest.raises(OperatorError):
        apply_obligations(["anything"], [obligation])  # never silently skipped (that would fail open)


def test_a_regex_that_times_out_fails_closed() -> None:
    slow = Obligation("drop", r"(x+x+)+y", rule="slow")
    with pytest.raises(OperatorError) as info:
        apply_obligations(["x" * 5000], [slow], timeout_s=0.01)
    assert "took too long" in info.value.message and "rule 'slow'" in info.value.message


# --- properties ---------------------------------------------------------------------------------------------

_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=60)
_LOCAL = st.from_regex(r"[a-z][a-z0-9._]{0,10}[a-z0-9]", fullmatch=True)
_HOST = st.from_regex(r"[a-z][a-z0-9-]{0,8}[a-z0-9]\.(example|org|com)", fullmatch=True)
ALL = [EMAIL, PHONE, ACCOUNT, COARSE, PRIVATE]


@settings(max_examples=150, deadline=None)
@given(st.lists(_TEXT, max_size=8))
def test_applying_is_deterministic_line_preserving_and_idempotent(lines: list[str]) -> None:
    visible, _ = apply_obligations(lines, ALL)
    assert apply_obligations(lines, ALL)[0] == visible
    assert len(visible) == len(lines)
    assert apply_obligations(visible, ALL) == (visible, [])  # nothing is left to apply a second time


@settings(max_examples=150, deadline=None)
@given(_TEXT, _LOCAL, _HOST, _TEXT, st.integers(200, 999), st.integers(0, 9999))
def test_no_inserted_email_or_phone_survives(
    before: str, local: str, host: str, after: str, area: int, line_no: int
) -> None:
    email, phone = f"{local}@{host}", f"({area}) 555-{line_no:04d}"
    line = f"{before} {email} or {phone} {after}"
    visible = one(line, EMAIL, PHONE)
    assert email not in visible and phone not in visible
    assert PLACEHOLDERS["email"] in visible and PLACEHOLDERS["phone"] in visible


@settings(max_examples=150, deadline=None)
@given(st.decimals(-90, 90, places=6), st.decimals(-180, 180, places=6), st.integers(0, 5))
def test_every_generalized_coordinate_has_at_most_the_precision(lat: object, lon: object, precision: int) -> None:
    obligation = Obligation("generalize", "coordinates", rule="r", precision=precision)
    visible = one(f"Position: {lat:.6f}, {lon:.6f}", obligation)
    decimals = [len(part) for part in re.findall(r"\.(\d+)", visible)]
    assert all(n <= precision for n in decimals), visible


@pytest.mark.parametrize(
    "line",
    [
        "1.123" + " " * 9990 + "x",  # a number, then a long blank: `\s*°?\s*` used to backtrack quadratically
        "lat" + " " * 9990 + "x",
        "+1111111111111111 " * 550,  # long digit runs after `+`: possessive groups, no exponential splits
        "a." * 5000,
        "(541) 555-01" * 800,
    ],
)
def test_hostile_lines_take_linear_time(line: str) -> None:
    started = time.perf_counter()
    apply_obligations([line], ALL)
    assert time.perf_counter() - started < 0.5
