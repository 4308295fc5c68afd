"""Loading the component catalog file (the I/O half; checks live in `engine.components`)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from companion.engine.components import Catalog, CatalogError, parse_catalog

CATALOG_FILE = "catalog.json"


def load_catalog(path: Path | None = None) -> Catalog:
    """The shipped catalog (cached), or the one at `path`."""
    if path is None:
        return _shipped()
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise CatalogError("", f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CatalogError("", f"{path} is not UTF-8 text (byte {exc.start})") from None
    return _parse(text, str(path))


@lru_cache(maxsize=1)
def _shipped() -> Catalog:
    text = resources.files("companion.data").joinpath(CATALOG_FILE).read_text("utf-8")
    return _parse(text, CATALOG_FILE)


def _parse(text: str, where: str) -> Catalog:
    try:
        data = json.loads(text)
    except RecursionError:
        raise CatalogError("", f"{where} is not JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of thousands of digits
        raise CatalogError("", f"{where} is not JSON: {exc}") from None
    try:
        return parse_catalog(data)
    except CatalogError as exc:
        raise CatalogError(exc.path, f"{where}: {exc}") from None


__all__ = ["Catalog", "CatalogError", "load_catalog"]
