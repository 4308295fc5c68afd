"""Game logs written before tasks were typed (one `Task` struct whose `reason` and `wounds`
fields meant different things per kind) read as today's typed tasks.

Used once by the schema migration that rewrites stored events and snapshots, and on every
import of an `armata-game/1` export, which may be older than this version."""

from __future__ import annotations

from typing import Any

#: the events whose payload holds tasks, and where
_TASK_LISTS = {
    "game_started": ("state", "tasks"),
    "tasks_queued": ("tasks",),
    "task_done": ("then",),
}


def upgrade_task(data: dict[str, Any]) -> dict[str, Any]:
    """One task as the typed variants name its fields (new ones pass unchanged)."""
    kind = data.get("kind")
    reason = data.pop("reason", None)
    if kind == "encounter" and reason == "monk":
        data["monk"] = True
    elif kind == "stealth_choice" and reason == "spent":
        data["spent"] = True
    elif kind == "protect" and reason is not None:
        data["cause"] = "wound_icon" if reason == "own" else reason
    elif kind == "strigoi_resolve" and "bonus" not in data:
        data["bonus"] = data.pop("wounds", 0)
    return data


def upgrade_state(data: dict[str, Any]) -> dict[str, Any]:
    data["tasks"] = [upgrade_task(t) for t in data.get("tasks", [])]
    return data


def upgrade_event(data: dict[str, Any]) -> dict[str, Any]:
    """An event (as JSON builtins) with its tasks upgraded."""
    path = _TASK_LISTS.get(str(data.get("event")))
    if path is None:
        return data
    holder = data
    for key in path[:-1]:
        holder = holder.get(key, {})
    if isinstance(holder, dict) and isinstance(holder.get(path[-1]), list):
        holder[path[-1]] = [upgrade_task(t) for t in holder[path[-1]]]
    return data


__all__ = ["upgrade_event", "upgrade_state", "upgrade_task"]
