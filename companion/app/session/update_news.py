"""How the last update ended, said once on the touchscreen after it (issue 42): the update
(companion/product/update.py `record`) leaves `DATA/updates/last-update.json`; the table reads
it as it starts and renames it `last-update.said.json`, so a restart never says it again."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path

from companion.app.words import i18n
from companion.product.update import LAST_UPDATE


@dataclass(frozen=True)
class UpdateNews:
    """`version` the update's, `previous` the one it came from; `kind` "updated", "rolled_back"
    (switched to, did not come up, switched back) or "refused" (failed its check)."""

    kind: str
    version: str
    previous: str

    def title(self) -> str:
        if self.kind == "updated":
            return i18n.tr("Updated to {version}").format(version=self.version)
        return i18n.tr("The update to {version} did not work").format(version=self.version)

    def lines(self) -> list[str]:
        """What happened and where the games are, in the players' language (asked each time:
        the language may change)."""
        if self.kind == "updated":
            return [i18n.tr(
                "The table now runs version {version} (before: {previous}). The games were "
                "backed up before the update."
            ).format(version=self.version, previous=self.previous)]  # fmt: skip
        if self.kind == "rolled_back":
            said = i18n.tr("Version {version} did not start; the table went back to {previous} "
                           "by itself. The games are as they were before the update.")  # fmt: skip
        else:
            said = i18n.tr("Version {version} failed its check on a copy of the games; the "
                           "table stays on {previous}. Nothing was changed.")  # fmt: skip
        return [said.format(version=self.version, previous=self.previous),
                i18n.tr("A report of what went wrong can be saved for the makers: Hardware, "
                        "then Save a report to a USB stick.")]  # fmt: skip


def take_update_news(data: Path) -> UpdateNews | None:
    """The last update's outcome, once: None when none is waiting (or it cannot be read)."""
    path = data / LAST_UPDATE
    try:
        told = json.loads(path.read_text(encoding="utf-8"))
        version, previous = str(told["version"]), str(told["from"])
        kind = ("rolled_back" if told["rolled_back"] else "updated") if told["switched"] else (
            "refused")  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError):
        return None
    with contextlib.suppress(OSError):
        path.replace(path.with_name("last-update.said.json"))
    return UpdateNews(kind, version, previous)
