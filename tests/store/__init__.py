"""The game log."""
