"""The kernel: contracts, errors, settings, receipts and their JSON Schemas. Every layer may import it; it imports
nothing else of quotebound's."""
