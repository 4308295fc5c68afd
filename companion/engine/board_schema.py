"""Structure of an `armata-board/1` document (types and required keys), checked with msgspec.

Only the shape is checked here; the geometric rules live in `board_build`. Errors name the JSON
path, e.g. `tiles.t3.corridors[2][1]`.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec
import msgspec.json

from companion.errors import BoardFormatError

FORMAT_TAG = "armata-board/1"

CellSpec = tuple[int, int]
Polyline = list[CellSpec]

_T = TypeVar("_T")
_AT_PATH = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)


class SpacesSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    red: list[CellSpec] = []
    grey: list[CellSpec] = []
    stairs: list[CellSpec] = []


class TileSpec(msgspec.Struct, omit_defaults=True):
    cutout: bool
    corridors: list[Polyline] = []
    spaces: SpacesSpec | None = None
    books: str | list[str] | None = None


class PlatformSpec(msgspec.Struct, omit_defaults=True):
    books: str | list[str]
    corridors: list[Polyline] = []
    spaces: SpacesSpec | None = None
    strigoi_start: bool = False


class RoomSpec(msgspec.Struct, omit_defaults=True):
    id: str
    tile: str
    at: CellSpec
    orientation: int = 0
    platform: str | None = None
    rotation: int = 0


class LadderSpec(msgspec.Struct):
    id: str
    room: str
    side: int


class LayoutSpec(msgspec.Struct, omit_defaults=True):
    rooms: list[RoomSpec]
    ladders: list[LadderSpec] = []


class BoardSpec(msgspec.Struct, omit_defaults=True):
    format: str
    room_radius: int
    platform_radius: int
    tiles: dict[str, TileSpec]
    platforms: dict[str, PlatformSpec]
    layout: LayoutSpec
    #: Free text about the file (project extension, ignored by the rules): provenance, caveats.
    about: str | None = msgspec.field(default=None, name="_about")


def _convert(value: object, target: type[_T], path: str) -> _T:
    try:
        return msgspec.convert(value, target)
    except msgspec.ValidationError as exc:
        match = _AT_PATH.match(str(exc))
        message, suffix = str(exc), ""
        if match:
            message = match.group("msg")
            suffix = match.group("path") or ""
        full = (path + suffix).lstrip(".")
        raise BoardFormatError(full, _lower_first(message)) from None


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def parse_board_spec(data: object) -> BoardSpec:
    """Check the document's shape and return it typed. Raises BoardFormatError naming the path."""
    if not isinstance(data, dict):
        raise BoardFormatError("", f"a board must be a JSON object, got {type(data).__name__}")
    tag = data.get("format")
    if tag != FORMAT_TAG:
        raise BoardFormatError("format", f"unknown format tag {tag!r} (expected {FORMAT_TAG!r})")
    shallow: dict[str, Any] = dict(data)
    tiles_raw = shallow.get("tiles")
    platforms_raw = shallow.get("platforms")
    if not isinstance(tiles_raw, dict):
        raise BoardFormatError("tiles", "expected an object of tiles by id")
    if not isinstance(platforms_raw, dict):
        raise BoardFormatError("platforms", "expected an object of platforms by id")
    tiles = {str(k): _convert(v, TileSpec, f"tiles.{k}") for k, v in tiles_raw.items()}
    platforms = {
        str(k): _convert(v, PlatformSpec, f"platforms.{k}") for k, v in platforms_raw.items()
    }
    shallow["tiles"] = {}
    shallow["platforms"] = {}
    spec = _convert(shallow, BoardSpec, "")
    spec.tiles = tiles
    spec.platforms = platforms
    return spec


def board_spec_to_data(spec: BoardSpec) -> dict[str, Any]:
    """The canonical JSON document of a board spec: defaults omitted, cells as lists."""
    data = msgspec.json.decode(msgspec.json.encode(spec))
    assert isinstance(data, dict)
    return data


__all__ = [
    "FORMAT_TAG",
    "BoardSpec",
    "CellSpec",
    "LadderSpec",
    "LayoutSpec",
    "PlatformSpec",
    "Polyline",
    "RoomSpec",
    "SpacesSpec",
    "TileSpec",
    "board_spec_to_data",
    "parse_board_spec",
]
