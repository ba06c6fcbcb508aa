"""`open_ledger`: the receipt store the settings name (PostgreSQL when a DSN is set, else SQLite in the store)."""

from __future__ import annotations

from pathlib import Path

from quotebound.agent.audit.ledger import LedgerBackend
from quotebound.agent.audit.postgres import PostgresLedger  # psycopg itself is imported only when a DSN is set
from quotebound.agent.audit.sqlite import SqliteLedger
from quotebound.agent.core.settings import Settings

LEDGER_FILE = "audit.sqlite"


def ledger_path(settings: Settings) -> Path:
    return Path(settings.store) / LEDGER_FILE


def open_ledger(settings: Settings, *, create: bool = True) -> LedgerBackend:
    """Postgres when `settings.audit_dsn` is set, else `STORE/audit.sqlite`. With `create=False` a missing
    SQLite ledger is an OperatorError (reading or verifying must not conjure an empty, intact ledger)."""
    if settings.audit_dsn:
        return PostgresLedger(settings.audit_dsn)
    return SqliteLedger(ledger_path(settings), create=create)
