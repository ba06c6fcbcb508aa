"""Receipts and their ledgers: the hash chain, the SQLite and PostgreSQL stores, chain verification, receipt views
and re-checking a receipt's citations against today's store.

Layer: above the kernel (`agent.core`) and `tools`; `graphs` and the facade write and read receipts through it.
"""

from quotebound.agent.audit.chain import (
    GENESIS,
    LedgerEntry,
    LedgerRow,
    LedgerSnapshot,
    LedgerTip,
    canonical_json,
    chain_hash,
    new_audit_ref,
    sha256_text,
)
from quotebound.agent.audit.identity import LedgerWitness, RecordedLedger
from quotebound.agent.audit.ledger import ChainedLedger, LedgerBackend
from quotebound.agent.audit.open import LEDGER_FILE, bind_witness, ledger_path, open_ledger

__all__ = [
    "GENESIS",
    "LEDGER_FILE",
    "ChainedLedger",
    "LedgerBackend",
    "LedgerEntry",
    "LedgerRow",
    "LedgerSnapshot",
    "LedgerTip",
    "LedgerWitness",
    "RecordedLedger",
    "bind_witness",
    "canonical_json",
    "chain_hash",
    "ledger_path",
    "new_audit_ref",
    "open_ledger",
    "sha256_text",
]
