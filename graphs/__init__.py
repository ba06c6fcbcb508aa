"""The cite-or-abstain state machine (built in the graph issue)."""
