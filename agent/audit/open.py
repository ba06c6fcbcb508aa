"""`open_ledger`: the receipt store the settings name (PostgreSQL when a DSN is set, else SQLite in the store)."""

from __future__ import annotations

from pathlib import Path

from quotebound.agent.audit.identity import LedgerWitness, recorded
from quotebound.agent.audit.ledger import ChainedLedger, LedgerBackend
from quotebound.agent.audit.postgres import PostgresLedger  # psycopg itself is imported only when a DSN is set
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.core.errors import ErrorCode, OperatorError
from quotebound.agent.core.settings import Settings

LEDGER_FILE = "audit.sqlite"


def ledger_path(settings: Settings) -> Path:
    return Path(settings.store) / LEDGER_FILE


def open_ledger(settings: Settings, *, create: bool = True, witness: LedgerWitness | None = None) -> LedgerBackend:
    """Postgres when `settings.audit_dsn` is set, else `STORE/audit.sqlite`. With `create=False` a missing
    SQLite ledger is an OperatorError (reading or verifying must not conjure an empty, intact ledger).

    With a `witness` (the store whose receipts the ledger keeps: `identity.py`), the ledger is bound to it. A
    writer (`create=True`) then refuses, with OperatorError(AUDIT_UNAVAILABLE), a ledger that is not the one the
    store recorded, and never creates a new one in place of a recorded ledger that is missing; a reader gets the
    same for a missing ledger, and `verify` reports a replaced or restarted one."""
    record = recorded(witness)
    path = ledger_path(settings)
    if record is not None and not settings.audit_dsn and not path.exists():
        raise OperatorError(
            ErrorCode.AUDIT_UNAVAILABLE,
            f"the audit ledger {path} is missing: the store recorded {record.describe()}. Restore it from a backup; "
            "a new ledger would start a new chain and hide the receipts that are gone",
        )
    ledger: LedgerBackend = (
        PostgresLedger(settings.audit_dsn) if settings.audit_dsn else SqliteLedger(path, create=create)
    )
    if witness is not None:
        try:
            bind_witness(ledger, witness, check=create)
        except BaseException:
            ledger.close()
            raise
    return ledger


def bind_witness(ledger: LedgerBackend, witness: LedgerWitness, *, check: bool = True) -> None:
    """Bind `ledger` to the store that keeps its identity (a ledger already bound keeps its own), and with `check`
    refuse it unless it is the ledger the store recorded. A ledger of another kind (a caller's own backend) keeps
    its own account of its identity."""
    if not isinstance(ledger, ChainedLedger):
        return
    if ledger.witness is None:
        ledger.bind(witness)
    if check:
        ledger.check_identity()
