

__all__: list[str] = []

__all__: list[str] = []
