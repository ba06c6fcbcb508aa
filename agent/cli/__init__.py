"""The `quotebound` command: one module per subcommand, `main` parses and dispatches."""
