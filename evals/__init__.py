"""Evaluation harness (built in the eval issue)."""
