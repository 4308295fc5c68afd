"""The pure rules (no I/O, no clock, no chance but the game's seed): the fortress and its
geometry, sight, teleport, movement, threat, collapse, the components, and the whole game in
`companion.engine.game`. Each module states its public names in `__all__`."""

__all__: list[str] = []
