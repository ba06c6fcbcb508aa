"""quotebound's layers outside the tools and the graph, bottom to top (enforced by `make lint`'s import contract):

- `core`: the kernel every layer may import: contracts, errors, settings, receipts, schemas. Imports nothing internal.
- `models`: the drafting model adapters (untrusted; they only call the allowlisted tools).
- `testing`: scripted and hostile test doubles, public as `quotebound.testing`.
- `gate`: the hard gate that checks a draft against the evidence.
- `audit`: receipts, ledgers, chain verification, recheck.
- `runs`: run traces, the trace store, stream events, telemetry.
- `facade`: the `Agent` an application embeds, over `quotebound.graphs`.
- `cli`, `server`: the command line and the HTTP service, over the facade.

See docs/architecture.md for the whole order, `tools` and `graphs` included.
"""
