"""MQTT topic names and broker logins (docs/protocol.md). Table and node ids namespace
everything; each is checked by the one id rule (firmware_bridge.ids) before it becomes a topic
or a login, so no id can reach into another table's topics (`+`, `#`, `/`) or split an ACL line.
"""

from __future__ import annotations

from firmware_bridge.errors import BadId
from firmware_bridge.ids import check_id

ROOT = "armata"
#: the app logins `provision` makes per table unless told otherwise: the touchscreen app's and
#: the headless table's (`serve`), so the two never share one (issue 28)
DEFAULT_APPS = 2
#: which app login each program uses unless given `--login`
KIOSK_APP, SERVE_APP = 1, 2


def node_topic(table: str, node: str, leaf: str) -> str:
    """leaf: `status` (retained, last will), `event` (node -> app) or `cmd` (app -> node)."""
    return f"{ROOT}/{check_id('table id', table)}/node/{check_id('node id', node)}/{leaf}"


def nodes_filter(table: str, leaf: str) -> str:
    """The subscription to one leaf of every node of a table (`armata/<table>/node/+/<leaf>`)."""
    return f"{ROOT}/{check_id('table id', table)}/node/+/{leaf}"


def game_topic(table: str, leaf: str) -> str:
    """leaf: `event` (every game event, public form) or `state` (retained)."""
    return f"{ROOT}/{check_id('table id', table)}/game/{leaf}"


def parse_node_topic(topic: str) -> tuple[str, str, str] | None:
    """(table, node, leaf) of a node topic, or None."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "node":
        return None
    return parts[1], parts[3], parts[4]


def app_user(table: str, k: int = KIOSK_APP) -> str:
    """The k-th app login of a table: `app.<table>` for the first (the name it always had, so
    older credentials files still work), `app.<table>.<k>` for the others. One per program that
    drives or publishes the table: the broker lets one client per login (no ':' in logins: the
    password file splits on it)."""
    check_id("table id", table)
    if k < 1:
        raise BadId(f"app login number {k}: counted from 1")
    return f"app.{table}" if k == KIOSK_APP else f"app.{table}.{k}"


def node_user(table: str, node: str) -> str:
    """The broker user of one node of one table."""
    return f"node.{check_id('table id', table)}.{check_id('node id', node)}"


def screen_user(table: str, k: int) -> str:
    """The k-th read-only broker user of a table's game topics (a screen across the room)."""
    return f"screen.{check_id('table id', table)}.{k}"
