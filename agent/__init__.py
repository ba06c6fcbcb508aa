"""The public face: settings, contracts, errors, the CLI."""
