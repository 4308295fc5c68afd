"""NFC tag uid -> component bindings (table `nfc_bindings`, sqlite-utils).

A component is named by kind and target: an action card id, a hero figure (hero id), a Strigoi
figure (`master`, `apprentice`), a platform rim tag (`<platform id>:<edge>`), a reward card id.
One tag names one component; a component may carry several tags (a platform has one per rim
position, a card may get a spare). Binding a tag that already names another component is refused
with `TagError` (the app shows it as a duplicate to sort out).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlite_utils import Database
from sqlite_utils.db import NotFoundError

from companion.errors import TagError
from companion.store.schema import migrations

KINDS = ("action_card", "hero", "strigoi", "platform", "reward_card", "advanced_card")


@dataclass(frozen=True)
class Binding:
    uid: str
    kind: str
    target: str


class NfcRegistry:
    def __init__(self, db: Database) -> None:
        self.db = db
        if migrations.pending(db):  # none on a log GameLog opened (it may be read-only)
            migrations.apply(db)
        self._table = db.table("nfc_bindings")

    def lookup(self, uid: str) -> Binding | None:
        try:
            row = self._table.get(uid.lower())
        except NotFoundError:
            return None
        return Binding(row["uid"], row["kind"], row["target"])

    def bind(self, uid: str, kind: str, target: str) -> Binding:
        """Bind a tag; binding it again to the same component is a no-op."""
        if kind not in KINDS:
            raise TagError(f"unknown component kind {kind!r} (known: {', '.join(KINDS)})")
        uid = uid.lower()
        existing = self.lookup(uid)
        if existing is not None:
            if (existing.kind, existing.target) == (kind, target):
                return existing
            raise TagError(
                f"tag {uid} already names {existing.kind} {existing.target!r}; "
                f"unbind it first to give it to {target!r}"
            )
        try:
            with self.db.conn:
                self._table.insert(
                    {
                        "uid": uid,
                        "kind": kind,
                        "target": target,
                        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    }
                )
        except sqlite3.Error as exc:  # a read-only or full log
            raise TagError(f"tag {uid} cannot be stored: {exc}") from None
        return Binding(uid, kind, target)

    def unbind(self, uid: str) -> bool:
        if self.lookup(uid) is None:
            return False
        try:
            with self.db.conn:
                self._table.delete(uid.lower())
        except sqlite3.Error as exc:
            raise TagError(f"tag {uid} cannot be unbound: {exc}") from None
        return True

    def tags_of(self, kind: str, target: str) -> list[str]:
        return [
            row["uid"]
            for row in self._table.rows_where(
                "kind = ? and target = ?", [kind, target], order_by="uid"
            )
        ]

    def bindings(self) -> list[Binding]:
        return [
            Binding(r["uid"], r["kind"], r["target"])
            for r in self._table.rows_where(order_by="uid")
        ]
