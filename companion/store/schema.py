"""The database schema, versioned with sqlite-utils migrations (applied in order, once each)."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("armata-companion")


@migrations()
def m001_game_log(db: Database) -> None:
    db["games"].create(  # type: ignore[union-attr]
        {
            "id": str,
            "created_at": str,
            "seed": int,
            "seats": str,
            "options": str,
            "board": str,
            "catalog": str,
            "head": int,
            "status": str,
            "winner": str,
        },
        pk="id",
        not_null={"id", "created_at", "seed", "board", "catalog", "head", "status"},
    )
    db["commands"].create(  # type: ignore[union-attr]
        {
            "game_id": str,
            "seq": int,
            "payload": str,
            "first_event": int,
            "last_event": int,
            "at": str,
        },
        pk=("game_id", "seq"),
        not_null={"game_id", "seq", "payload", "first_event", "last_event"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db["events"].create(  # type: ignore[union-attr]
        {"game_id": str, "seq": int, "kind": str, "payload": str},
        pk=("game_id", "seq"),
        not_null={"game_id", "seq", "kind", "payload"},
        foreign_keys=[("game_id", "games", "id")],
    )
    db["snapshots"].create(  # type: ignore[union-attr]
        {"game_id": str, "event_seq": int, "state": bytes},
        pk=("game_id", "event_seq"),
        foreign_keys=[("game_id", "games", "id")],
    )


@migrations()
def m002_bindings_and_settings(db: Database) -> None:
    db["nfc_bindings"].create(  # type: ignore[union-attr]
        {"uid": str, "kind": str, "target": str, "created_at": str},
        pk="uid",
        not_null={"uid", "kind", "target"},
    )
    db["settings"].create({"key": str, "value": str}, pk="key")  # type: ignore[union-attr]


@migrations()
def m003_typed_tasks(db: Database) -> None:
    """Tasks became typed variants: rewrite the tasks in stored events and snapshots."""
    import json

    import msgspec

    from companion.store.legacy import upgrade_event, upgrade_state

    kinds = ("game_started", "tasks_queued", "task_done")
    rows = list(
        db.query("select game_id, seq, payload from events where kind in (?, ?, ?)", list(kinds))
    )
    for row in rows:
        payload = json.dumps(upgrade_event(json.loads(row["payload"])), separators=(",", ":"))
        db.execute(
            "update events set payload = ? where game_id = ? and seq = ?",
            [payload, row["game_id"], row["seq"]],
        )
    for row in list(db.query("select game_id, event_seq, state from snapshots")):
        state = upgrade_state(msgspec.msgpack.decode(row["state"]))
        db.execute(
            "update snapshots set state = ? where game_id = ? and event_seq = ?",
            [msgspec.msgpack.encode(state), row["game_id"], row["event_seq"]],
        )
