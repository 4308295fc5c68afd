"""The one rule for every id that becomes part of an MQTT topic, a broker login, an ACL line or a
file name: table ids, node ids (and the room ids they are made from), and the logins built from
them. Lower-case ASCII letters, digits and `-`, starting with a letter or digit, 1-32
characters: nothing an MQTT topic treats specially (`/`, `+`, `#`, NUL), nothing a password or
ACL file splits on (`:`, spaces, new lines), nothing a login's own separator (`.`) could confuse.
Provisioning, the bridge, the app's options and the board file all check with `check_id`.
"""

from __future__ import annotations

import re
import unicodedata

from firmware_bridge.errors import BadId

ID_RULE = "[a-z0-9][a-z0-9-]{0,31}"
MAX_LENGTH = 32
_ID = re.compile(ID_RULE)
_ROLES = ("app", "screen", "node")
_SPECIAL = {
    "/": "'/' (it separates topic levels)",
    "+": "'+' (an MQTT wildcard)",
    "#": "'#' (an MQTT wildcard)",
    ".": "'.' (it separates the parts of a login)",
    ":": "':' (the password file splits on it)",
    "_": "'_' (use '-')",
}


def id_problem(value: object) -> str | None:
    """None when `value` is a valid id, else what is wrong with it, in a few words."""
    if not isinstance(value, str):
        return f"must be text, not {type(value).__name__}"
    if value == "":
        return "is empty"
    if _ID.fullmatch(value):
        return None
    if len(value) > MAX_LENGTH:
        return f"is {len(value)} characters long (at most {MAX_LENGTH})"
    for char in value:
        if char in _SPECIAL:
            return f"contains {_SPECIAL[char]}"
        if char.isspace():
            return f"contains a space or line break ({unicodedata.name(char, repr(char))})"
        if unicodedata.category(char).startswith("C"):
            return f"contains a control character (U+{ord(char):04X})"
        if not char.isascii():
            return f"contains {char!r}, not a plain ASCII letter or digit"
        if char.isupper():
            return f"contains the upper-case letter {char!r} (ids are lower case)"
        if not (char.isalnum() or char == "-"):
            return f"contains {char!r}"
    return "must start with a letter or digit"


def check_id(what: str, value: object) -> str:
    """`value` when it is a valid id; BadId naming `what` (`table id`, `node id`...) otherwise."""
    problem = id_problem(value)
    if problem is not None:
        raise BadId(f"{what} {value!r} {problem}; allowed: {describe()}")
    assert isinstance(value, str)
    return value


def check_login(value: object) -> str:
    """A broker login: `app.<table>[.<k>]`, `screen.<table>.<k>` or `node.<table>.<node>`."""
    if not isinstance(value, str):
        raise BadId(f"login {value!r} must be text")
    role, *parts = value.split(".")
    if role not in _ROLES or not 1 <= len(parts) <= 2 or (role != "app" and len(parts) != 2):
        raise BadId(
            f"login {value!r}: expected app.<table>[.<k>], screen.<table>.<k> or "
            "node.<table>.<node>"
        )
    for part in parts:
        check_id(f"login {value!r}: part", part)
    return value


def room_node(room: str) -> str:
    """The node id of a room's node (`room-<id>`, lower case); check it with `check_id`."""
    return f"room-{room.lower()}"


def describe() -> str:
    return f"1-{MAX_LENGTH} of a-z, 0-9 and '-', not starting with '-'"
