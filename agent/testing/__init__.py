"""Test doubles for the drafting model, public as `quotebound.testing` (see that module)."""
