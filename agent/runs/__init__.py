"""Runs as records: the step-by-step trace of a run, where traces are kept, the events a stream yields, and
OpenTelemetry spans."""
