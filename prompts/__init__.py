"""Prompt text, shipped as package data and read with importlib.resources."""
