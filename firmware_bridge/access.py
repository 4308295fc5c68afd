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
    ca: Path | None = None  # TLS: the port is the provisioned TLS listener; trust this CA


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` -> (host, port)."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BrokerAccessError(f"broker address {address!r}: expected HOST:PORT")
    return host, int(port)


def read_users(credentials: Path) -> dict[str, str]:
    """Every broker user's password in `credentials.json`."""
    return _users_in(_read(credentials), credentials)


def tls_ca(credentials: Path, port: int) -> Path | None:
    """The CA to trust when `port` is the TLS listener `provision --tls` wrote, else None."""
    return _ca_in(_read(credentials), credentials, port)


def _users_in(data: dict[str, object], credentials: Path) -> dict[str, str]:
    users = data.get("users")
    if not isinstance(users, dict):
        raise BrokerAccessError(f"{credentials}: users: missing (expected an object)")
    return {str(k): v for k, v in users.items() if isinstance(v, str)}


def _ca_in(data: dict[str, object], credentials: Path, port: int) -> Path | None:
    if data.get("tls_port") != port:
        return None
    ca = data.get("ca")
    try:
        found = isinstance(ca, str) and Path(ca).is_file()
    except (OSError, ValueError):  # a name too long for the system, a NUL in it
        found = False
    if not found:
        raise BrokerAccessError(f"{credentials}: ca: missing or not a file ({ca!r})")
    return Path(str(ca))


def _read(credentials: Path) -> dict[str, object]:
    try:
        data = json.loads(credentials.read_text(encoding="utf-8"))
    except OSError as error:
        raise BrokerAccessError(f"{credentials}: cannot read ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise BrokerAccessError(f"{credentials}: not UTF-8 (byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise BrokerAccessError(
            f"{credentials}: not JSON ({error.msg}, line {error.lineno})"
        ) from error
    except (ValueError, RecursionError) as error:  # thousands of digits, nested too deeply
        raise BrokerAccessError(f"{credentials}: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise BrokerAccessError(f"{credentials}: expected an object")
    return data


def password_of(users: dict[str, str], credentials: Path, user: str) -> str:
    password = users.get(user)
    if not isinstance(password, str):
        raise BrokerAccessError(f"{credentials}: users.{user}: missing (provision this table)")
    return password


def broker_access(address: str, credentials: Path, user: str) -> BrokerAccess:
    host, port = parse_address(address)
    data = _read(credentials)
    password = password_of(_users_in(data, credentials), credentials, user)
    return BrokerAccess(host, port, user, password, _ca_in(data, credentials, port))
