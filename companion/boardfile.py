"""Reading and writing `armata-board/1` files (the I/O half; validation lives in the engine)."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from companion.engine.board_build import build_fortress
from companion.engine.board_schema import board_spec_to_data, parse_board_spec
from companion.engine.fortress import Fortress
from companion.errors import BoardFormatError
from firmware_bridge.ids import id_problem, room_node

DEFAULT_BOARD = "default-fortress.json"
_CELL = re.compile(r"\[\s*(-?\d+),\s*(-?\d+)\s*\]")
_CELL_RUN = re.compile(r"\[\s*((?:\[-?\d+, -?\d+\],?\s*)+)\]")


def read_json(path: Path) -> Any:
    """A JSON file's value; `BoardFormatError` naming the file when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardFormatError("", f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise BoardFormatError("", f"{path} is not UTF-8 text (byte {exc.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise BoardFormatError("", f"{path} is not JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, or an integer of thousands of digits
        raise BoardFormatError("", f"{path} is not JSON: {exc}") from None


def load_board_file(path: Path | str | None = None) -> Fortress:
    """Load a board file; `None` loads the default fortress shipped with the package (built
    once a process: a `Fortress` is immutable, and the app's start, its nodes and its service
    each asked for one)."""
    if path is None:
        return _default_fortress()
    data = read_json(Path(path))
    try:
        fortress = build_fortress(parse_board_spec(data))
    except BoardFormatError as exc:
        raise exc.in_file(path) from None
    try:
        check_node_ids(fortress)
    except BoardFormatError as exc:
        raise exc.in_file(path) from None
    return fortress


@cache
def _default_fortress() -> Fortress:
    text = resources.files("companion.data").joinpath(DEFAULT_BOARD).read_text("utf-8")
    fortress = build_fortress(parse_board_spec(json.loads(text)))
    check_node_ids(fortress)
    return fortress


def check_node_ids(fortress: Fortress) -> None:
    """Each room's id names its node on the board (`room-<id>`, lower case), which becomes MQTT
    topics and a broker login: it must pass the one id rule (firmware_bridge.ids), and no two
    rooms may name the same node. BoardFormatError naming the room's field otherwise."""
    named: dict[str, str] = {}
    for i, room in enumerate(fortress.spec.layout.rooms):
        where = f"layout.rooms[{i}].id"
        node = room_node(room.id)
        problem = id_problem(node)
        if problem is not None:
            raise BoardFormatError(
                where, f"room id {room.id!r} cannot name a node: {node!r} {problem}"
            )
        if node in named:
            raise BoardFormatError(
                where, f"rooms {named[node]!r} and {room.id!r} would both be node {node!r}"
            )
        named[node] = room.id


def dump_board(fortress: Fortress) -> str:
    return format_board_json(board_spec_to_data(fortress.spec))


def format_board_json(data: Any) -> str:
    """Indented JSON with every cell `[q, r]` and every polyline on one line, for hand editing."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    text = _CELL.sub(r"[\1, \2]", text)
    return _CELL_RUN.sub(lambda m: "[" + " ".join(m.group(1).split()) + "]", text)
