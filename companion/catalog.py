"""The component catalog (data file, validated on load). Issue 3 extends it to every component."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import msgspec

from companion.errors import CompanionError

CATALOG_FILE = "catalog.json"


class CatalogError(CompanionError, ValueError):
    """The component catalog file is invalid."""


class StrigoiCard(msgspec.Struct, forbid_unknown_fields=False):
    existence: int
    damage: int
    strength: int
    transcribed: bool = False


class _CatalogSpec(msgspec.Struct):
    format: str
    strigoi: dict[str, StrigoiCard]


@dataclass(frozen=True)
class Catalog:
    strigoi: dict[str, StrigoiCard]

    def damage(self) -> dict[str, int]:
        return {name: card.damage for name, card in self.strigoi.items()}


def load_catalog(path: Path | None = None) -> Catalog:
    if path is None:
        text = resources.files("companion.data").joinpath(CATALOG_FILE).read_text("utf-8")
    else:
        text = path.read_text("utf-8")
    try:
        spec = msgspec.convert(json.loads(text), _CatalogSpec)
    except (json.JSONDecodeError, msgspec.ValidationError) as exc:
        raise CatalogError(f"{path or CATALOG_FILE}: {exc}") from None
    missing = {"master", "apprentice", "supreme"} - set(spec.strigoi)
    if missing:
        raise CatalogError(f"{path or CATALOG_FILE}: strigoi: missing {sorted(missing)}")
    return Catalog(dict(spec.strigoi))
