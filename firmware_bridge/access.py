"""Reading a broker user's password from `credentials.json` (written by
hardware/mosquitto/provision.py), with errors that name the file and the missing field."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.errors import BrokerAccessError


@dataclass(frozen=True)
class BrokerAccess:
    host: str
    port: int
    username: str
    password: str


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` -> (host, port)."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BrokerAccessError(f"broker address {address!r}: expected HOST:PORT")
    return host, int(port)


def read_users(credentials: Path) -> dict[str, str]:
    """Every broker user's password in `credentials.json`."""
    try:
        data = json.loads(credentials.read_text())
    except OSError as error:
        raise BrokerAccessError(f"{credentials}: cannot read ({error.strerror})") from error
    except json.JSONDecodeError as error:
        raise BrokerAccessError(
            f"{credentials}: not JSON ({error.msg}, line {error.lineno})"
        ) from error
    users = data.get("users") if isinstance(data, dict) else None
    if not isinstance(users, dict):
        raise BrokerAccessError(f"{credentials}: users: missing (expected an object)")
    return users


def password_of(users: dict[str, str], credentials: Path, user: str) -> str:
    password = users.get(user)
    if not isinstance(password, str):
        raise BrokerAccessError(f"{credentials}: users.{user}: missing (provision this table)")
    return password


def broker_access(address: str, credentials: Path, user: str) -> BrokerAccess:
    host, port = parse_address(address)
    return BrokerAccess(host, port, user, password_of(read_users(credentials), credentials, user))
