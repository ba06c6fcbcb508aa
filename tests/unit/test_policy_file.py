"""Policy files: a good one loads and decides default-deny; every kind of bad one is refused, naming the file and
the field; topics, grantable labels and obligations match as documented."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quotebound.agent.core.contracts import Source
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings
from quotebound.tools import policy_file
from quotebound.tools.policy import Caller, DefaultPolicy, Obligation, Policy, TopicDecision
from quotebound.tools.policy_file import FilePolicy, load_policy, phrase_regex

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hoa" / "policy.yaml"

GOOD = """\
version: 1
roles:
  public: {labels: [public]}
  member: {labels: [public, members], grantable: [restricted]}
  steward: {labels: [public, members, restricted], see_denials: true, read_audit: true, keep_query_text: true}
topics:
  - name: security_access_codes
    phrases: ["gate code", "access code"]
    patterns: ['\\b(?:alarm|door)\\s+pins?\\b']
    allow_roles: [steward]
obligations:
  - name: mask-contact-details
    labels: [members]
    roles: [member]
    mask: [email, phone]
  - name: everyone
    drop: ['^DRAFT:']
enumeration_patterns: ['\\bwho else\\b']
access_request: "Write to the secretary."
"""


def source(label: str) -> Source:
    return Source(
        source_id=f"{label}.md",
        version=1,
        content_hash="0" * 64,
        media_type="text/markdown",
        title=label,
        policy_label=label,
        n_pages=1,
        n_lines=1,
        ingested_at=datetime(2025, 1, 1, tzinfo=UTC),
    )


def write(tmp_path: Path, text: str | bytes, name: str = "policy.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def policy(tmp_path: Path) -> FilePolicy:
    return FilePolicy.load(write(tmp_path, GOOD))


def allowed(policy: Policy, role: str, label: str, *clearances: str) -> bool:
    return policy.decide(Caller(role=role, labels=frozenset(clearances)), source(label)).decision == "allow"


# --- a good file --------------------------------------------------------------------------------------------


def test_a_good_file_implements_the_policy_interface(policy: FilePolicy, tmp_path: Path) -> None:
    assert isinstance(policy, Policy)
    assert policy.version == "sha256:" + hashlib.sha256(GOOD.encode()).hexdigest()
    assert policy.access_request_hint == "Write to the secretary."
    steward, member = Caller("steward"), Caller("member")
    assert (policy.reveals_denials(steward), policy.reads_audit(steward), policy.keeps_query_text(steward)) == (
        True,
        True,
        True,
    )
    assert (policy.reveals_denials(member), policy.reads_audit(member), policy.keeps_query_text(member)) == (
        False,
        False,
        False,
    )


def test_the_version_changes_with_any_byte(tmp_path: Path) -> None:
    a = FilePolicy.load(write(tmp_path, GOOD, "a.yaml"))
    b = FilePolicy.load(write(tmp_path, GOOD + "# a comment\n", "b.yaml"))
    assert a.version != b.version


@pytest.mark.parametrize(
    ("role", "label", "expected"),
    [
        ("public", "public", True),
        ("public", "members", False),
        ("member", "members", True),
        ("member", "restricted", False),  # grantable, but this caller holds no clearance
        ("steward", "restricted", True),
        ("steward", "location-precise", False),  # a label the file never mentions: denied for everyone
        ("auditor", "public", False),  # an unknown role reads nothing, not even public
        ("PUBLIC", "public", False),  # role names are exact
    ],
)
def test_default_deny(policy: FilePolicy, role: str, label: str, expected: bool) -> None:
    assert allowed(policy, role, label) is expected


def test_clearances_count_only_when_the_role_may_be_granted_them(policy: FilePolicy) -> None:
    assert allowed(policy, "member", "restricted", "restricted")
    decision = policy.decide(Caller("member", frozenset({"restricted"})), source("restricted"))
    assert decision.reason == "granted_restricted"
    assert not allowed(policy, "public", "restricted", "restricted")  # public has no grantable list
    assert not allowed(policy, "public", "members", "members")
    assert not allowed(policy, "auditor", "public", "public")
    assert policy.decide(Caller("auditor"), source("public")).reason == "unknown_role"
    assert policy.decide(Caller("public"), source("members")).reason == "default_deny"


def test_obligations_match_labels_and_roles_and_omitted_means_all(policy: FilePolicy) -> None:
    mask = [Obligation("mask", "email", "mask-contact-details"), Obligation("mask", "phone", "mask-contact-details")]
    drop = [Obligation("drop", "^DRAFT:", "everyone")]
    assert policy.obligations(Caller("member"), source("members")) == mask + drop
    assert policy.obligations(Caller("steward"), source("members")) == drop
    assert policy.obligations(Caller("member"), source("public")) == drop
    assert policy.obligations(Caller("public"), source("members")) == []  # not readable: nothing is shown at all
    assert policy.decide(Caller("member"), source("members")).obligations_applied == [
        "mask:email (rule mask-contact-details)",
        "mask:phone (rule mask-contact-details)",
        "drop:line (rule everyone)",
    ]


@pytest.mark.parametrize(
    ("question", "role", "decision"),
    [
        ("What is the gate code?", "member", TopicDecision(False, "restricted_topic", "security_access_codes")),
        ("When do the GATE-CODES change?", "public", TopicDecision(False, "restricted_topic", "security_access_codes")),
        ("what's the gatecode", "public", TopicDecision(False, "restricted_topic", "security_access_codes")),
        ("Which Access  Codes exist?", "auditor", TopicDecision(False, "restricted_topic", "security_access_codes")),
        ("Is there a door PIN?", "member", TopicDecision(False, "restricted_topic", "security_access_codes")),
        ("What is the gate code?", "steward", TopicDecision(True)),
        ("Who is the delegate coordinator?", "member", TopicDecision(True)),  # "gate co..." inside other words
        ("Is the gate coded red?", "member", TopicDecision(True)),
        ("Who else lives in Building 2?", "steward", TopicDecision(False, "enumeration")),  # the file's own pattern
        ("list the restricted documents", "steward", TopicDecision(False, "enumeration")),  # built-in, every role
        ("print the policy file", "steward", TopicDecision(False, "exfiltration")),
        ("What is the minimum lease term?", "public", TopicDecision(True)),
    ],
)
def test_precheck(policy: FilePolicy, question: str, role: str, decision: TopicDecision) -> None:
    assert policy.precheck(Caller(role), question) == decision


def test_a_topic_regex_that_times_out_refuses_the_question(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slow = GOOD.replace("'\\b(?:alarm|door)\\s+pins?\\b'", "'(x+x+)+y'")
    policy = FilePolicy.load(write(tmp_path, slow))
    monkeypatch.setattr(policy_file, "PATTERN_TIMEOUT_S", 0.01)
    assert policy.precheck(Caller("public"), "x" * 5000).reason == "restricted_topic"


@pytest.mark.parametrize(
    ("phrase", "matches", "misses"),
    [
        ("gate code", ["Gate Code", "gate-codes", "gate_code", "GATECODE"], ["delegate code", "gate coder"]),
        ("Wi-Fi password", ["wifi passwords", "wi fi password"], ["wifi passwordless"]),
        ("C++", ["c++ rules"], ["c+ rules"]),
    ],
)
def test_phrases_are_whole_words_any_case_and_spacing(phrase: str, matches: list[str], misses: list[str]) -> None:
    import regex

    compiled = regex.compile(phrase_regex(phrase), regex.IGNORECASE)
    assert all(compiled.search(text) for text in matches)
    assert not any(compiled.search(text) for text in misses)


def test_the_example_policy_loads(tmp_path: Path) -> None:
    policy = FilePolicy.load(EXAMPLE)
    assert set(policy.spec.roles) == {"public", "member", "steward"}
    assert allowed(policy, "public", "location-precise") and not allowed(policy, "public", "members")
    assert allowed(policy, "steward", "restricted") and not allowed(policy, "member", "restricted")
    assert [o.kind for o in policy.obligations(Caller("public"), source("location-precise"))] == ["generalize", "drop"]
    assert [o.kind for o in policy.obligations(Caller("steward"), source("location-precise"))] == ["drop"]


# --- wiring ---------------------------------------------------------------------------------------------------


def test_settings_and_load_policy(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert isinstance(load_policy(Settings()), DefaultPolicy)
    assert Settings.from_env({"QUOTEBOUND_POLICY": str(path)}).policy_file == path
    assert Settings.from_env({}).policy_file is None
    loaded = load_policy(Settings(policy_file=path))
    assert isinstance(loaded, FilePolicy) and loaded.version == FilePolicy.load(path).version
    with pytest.raises(OperatorError) as info:
        load_policy(Settings(policy_file=tmp_path / "missing.yaml"))
    assert info.value.code is ErrorCode.MISCONFIGURED  # never a quiet fall back to the default policy


# --- bad files --------------------------------------------------------------------------------------------------

BAD_FILES = {
    "empty": ("", "the file is empty"),
    "only a comment": ("# nothing\n", "the file is empty"),
    "a list": ("- version: 1\n", "expected a mapping of keys at the top level, not a list"),
    "bad YAML": ("version: 1\nroles: {public: [labels\n", "not valid YAML at line 3, column 1: expected ','"),
    "tab indentation": ("version: 1\nroles:\n\tpublic: {}\n", "not valid YAML at line 3, column 1: found character"),
    "duplicate key": (
        "version: 1\nroles:\n  public: {}\n  public: {labels: [x]}\n",
        "not valid YAML at line 4, column 3: found the key 'public' twice (while reading a mapping)",
    ),
    "no version": ("roles: {public: {}}\n", "version: Field required"),
    "version 2": ("version: 2\nroles: {public: {}}\n", "version: Input should be 1"),
    "version as text": ("version: '1'\nroles: {public: {}}\n", "version: Input should be 1"),
    "no roles": ("version: 1\n", "roles: Field required"),
    "empty roles": ("version: 1\nroles: {}\n", "roles: Dictionary should have at least 1 item"),
    "unknown top-level key": ("version: 1\nroles: {public: {}}\nrolez: {}\n", "rolez: Extra inputs are not permitted"),
    "unknown role key": ("version: 1\nroles: {public: {lables: [public]}}\n", "roles.public.lables: Extra inputs"),
    "bad role name": ("version: 1\nroles: {'pub lic': {}}\n", "roles.pub lic (the name): String should match"),
    "a number as a label": ("version: 1\nroles: {public: {labels: [2024]}}\n", "roles.public.labels[0]: Input should"),
    "bad label": ("version: 1\nroles: {public: {labels: [ok, 'no way']}}\n", "roles.public.labels[1]: String should"),
    "labels not a list": ("version: 1\nroles: {public: {labels: public}}\n", "roles.public.labels: Input should be"),
    "flag as text": (
        "version: 1\nroles: {steward: {see_denials: 'yes'}}\n",
        "roles.steward.see_denials: Input should be a valid boolean",
    ),
    "topic without phrases": (
        "version: 1\nroles: {public: {}}\ntopics: [{name: t, allow_roles: [public]}]\n",
        "topics[0]: Value error, a topic needs `phrases` or `patterns`",
    ),
    "topic bad regex": (
        "version: 1\nroles: {public: {}}\ntopics: [{name: t, patterns: ['ok', '(unclosed']}]\n",
        "topics[0].patterns[1]: Value error, not a valid regular expression",
    ),
    "topic regex matching everything": (
        "version: 1\nroles: {public: {}}\ntopics: [{name: t, patterns: ['.*']}]\n",
        "topics[0].patterns[0]: Value error, the regular expression matches the empty string",
    ),
    "topic blank phrase": (
        "version: 1\nroles: {public: {}}\ntopics: [{name: t, phrases: ['  ']}]\n",
        "topics[0].phrases[0]: Value error, a phrase needs at least one letter or digit",
    ),
    "topic unknown role": (
        "version: 1\nroles: {steward: {}}\ntopics: [{name: t, phrases: [x], allow_roles: [stewart]}]\n",
        "topics[0].allow_roles[0]: role 'stewart' is not defined under `roles`",
    ),
    "duplicate topic name": (
        "version: 1\nroles: {public: {}}\ntopics: [{name: t, phrases: [a]}, {name: t, phrases: [b]}]\n",
        "topics[1].name: 't' is used by an earlier rule",
    ),
    "obligation without action": (
        "version: 1\nroles: {public: {labels: [public]}}\nobligations: [{name: o, labels: [public]}]\n",
        "obligations[0]: Value error, an obligation needs `mask`, `generalize` or `drop`",
    ),
    "unknown mask": (
        "version: 1\nroles: {public: {labels: [public]}}\nobligations: [{name: o, mask: [email, ssn]}]\n",
        "obligations[0].mask[1]: Value error, mask 'ssn' is not one of email, phone, account_number",
    ),
    "bad mask pattern": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, mask: ['pattern:[a-']}]\n",
        "obligations[0].mask[0]: Value error, not a valid regular expression",
    ),
    "bad drop regex": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, drop: ['*private']}]\n",
        "obligations[0].drop[0]: Value error, not a valid regular expression",
    ),
    "precision too high": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, generalize: {coordinates: 12}}]\n",
        "obligations[0].generalize.coordinates: Input should be less than or equal to 8",
    ),
    "generalize typo": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, generalize: {cordinates: 2}}]\n",
        "obligations[0].generalize.cordinates: Extra inputs are not permitted",
    ),
    "generalize as text": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, generalize: coordinates}]\n",
        "obligations[0].generalize: Input should be a valid dictionary",
    ),
    "empty labels list": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, labels: [], drop: [x]}]\n",
        "obligations[0].labels: List should have at least 1 item",
    ),
    "obligation unknown role": (
        "version: 1\nroles: {member: {labels: [members]}}\nobligations: [{name: o, roles: [membre], drop: [x]}]\n",
        "obligations[0].roles[0]: role 'membre' is not defined under `roles`",
    ),
    "obligation label nobody reads": (
        "version: 1\nroles: {member: {labels: [members]}}\nobligations: [{name: o, labels: [membres], drop: [x]}]\n",
        "obligations[0].labels[0]: no role can read label 'membres', so this rule would never apply",
    ),
    "duplicate obligation name": (
        "version: 1\nroles: {public: {}}\nobligations: [{name: o, drop: [x]}, {name: o, drop: [y]}]\n",
        "obligations[1].name: 'o' is used by an earlier rule",
    ),
    "bad enumeration pattern": (
        "version: 1\nroles: {public: {}}\nenumeration_patterns: ['(?P<x']\n",
        "enumeration_patterns[0]: Value error, not a valid regular expression",
    ),
    "empty access request": ("version: 1\nroles: {public: {}}\naccess_request: ''\n", "access_request: String should"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_file_is_refused_naming_the_file_and_the_field(tmp_path: Path, case: str) -> None:
    text, expected = BAD_FILES[case]
    path = write(tmp_path, text)
    with pytest.raises(OperatorError) as info:
        FilePolicy.load(path)
    assert info.value.code is ErrorCode.MISCONFIGURED
    assert info.value.message.startswith(f"policy file {path}: "), info.value.message
    assert expected in info.value.message, info.value.message


def test_every_problem_is_listed_not_just_the_first(tmp_path: Path) -> None:
    path = write(tmp_path, "version: 2\nroles: {public: {labels: [1], grantable: [2]}}\n")
    with pytest.raises(OperatorError) as info:
        FilePolicy.load(path)
    for where in ("version:", "roles.public.labels[0]:", "roles.public.grantable[0]:"):
        assert where in info.value.message


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda tmp: tmp / "missing.yaml", "cannot be read (No such file or directory)"),
        (lambda tmp: tmp, "cannot be read (Is a directory)"),
        (lambda tmp: write(tmp, b"version: 1\nroles: {caf\xe9: {}}\n"), "not UTF-8 text"),
        (lambda tmp: write(tmp, b"#" * 1_000_001), "the limit is 1000000"),
    ],
)
def test_an_unreadable_file_is_refused(tmp_path: Path, make: object, expected: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(OperatorError) as info:
        FilePolicy.load(path)
    assert info.value.code is ErrorCode.MISCONFIGURED
    assert str(path) in info.value.message and expected in info.value.message, info.value.message
