"""The whole game (RULES.md): commands in, events out; the state is the fold of the events."""
