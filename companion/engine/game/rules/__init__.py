"""One module per kind of task: its handler(s), its legal-command generator and the rules it
applies. `companion.engine.game.registry` lists them; the interpreter (`flow`) only dispatches."""

__all__: list[str] = []
