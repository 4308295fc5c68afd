"""The sensed table as values: readings, taps, differences with the game, to-dos, resync
(no threads)."""
