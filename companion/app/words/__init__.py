"""The players' words: translations, catalogs, names, command labels and what the game waits for."""
