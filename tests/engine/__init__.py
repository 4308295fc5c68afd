"""The rules engine."""
