"""Crash-safe storage: the append-only event log, snapshots, NFC bindings, settings."""
