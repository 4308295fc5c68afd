"""MQTT topic names (docs/protocol.md). Table and node ids namespace everything."""

from __future__ import annotations

ROOT = "armata"


def node_topic(table: str, node: str, leaf: str) -> str:
    """leaf: `status` (retained, last will), `event` (node -> app) or `cmd` (app -> node)."""
    return f"{ROOT}/{table}/node/{node}/{leaf}"


def game_topic(table: str, leaf: str) -> str:
    """leaf: `event` (every game event, public form) or `state` (retained)."""
    return f"{ROOT}/{table}/game/{leaf}"


def parse_node_topic(topic: str) -> tuple[str, str, str] | None:
    """(table, node, leaf) of a node topic, or None."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[2] != "node":
        return None
    return parts[1], parts[3], parts[4]


def app_user(table: str) -> str:
    """The broker user of a table's app (no ':' in user names: the password file splits on it)."""
    return f"app.{table}"


def node_user(table: str, node: str) -> str:
    """The broker user of one node of one table."""
    return f"node.{table}.{node}"


def screen_user(table: str, k: int) -> str:
    """The k-th read-only broker user of a table's game topics (a screen across the room)."""
    return f"screen.{table}.{k}"
