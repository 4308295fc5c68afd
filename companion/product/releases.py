"""The releases installed side by side under the prefix (hardware/pi/install/layout.py), seen
from a running release: which one is current, the switch of the `current` link (one rename)
and the tidying of old ones."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from companion.version import parse
from hardware.pi.install import layout


@dataclass(frozen=True)
class Installed:
    """The product under `root` ("/" on the Pi, a staging folder in the tests)."""

    root: Path

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    @property
    def releases(self) -> Path:
        return self.path(layout.RELEASES)

    @property
    def data(self) -> Path:
        return self.path(layout.DATA)

    def release(self, version: str) -> Path:
        return self.releases / version

    def python(self, version: str) -> Path:
        return self.release(version) / ".venv" / "bin" / "python"

    def current(self) -> str | None:
        return self._target(layout.CURRENT)

    def previous(self) -> str | None:
        return self._target(layout.PREVIOUS)

    def _target(self, absolute: str) -> str | None:
        link = self.path(absolute)
        return Path(os.readlink(link)).name if link.is_symlink() else None

    def versions(self) -> list[str]:
        """The whole releases (their marker written), oldest first."""
        if not self.releases.is_dir():
            return []
        found = [p.name for p in self.releases.iterdir() if (p / layout.COMPLETE).is_file()]
        return sorted(found, key=parse)

    def switch(self, version: str) -> None:
        """`current` to `version`, `previous` to the one it replaces; each link in one rename."""
        before = self.current()
        if before == version:
            return
        self._link(layout.CURRENT, f"releases/{version}")
        if before is not None:
            self._link(layout.PREVIOUS, f"releases/{before}")

    def _link(self, absolute: str, points_to: str) -> None:
        link = self.path(absolute)
        partial = link.with_name(f".{link.name}.new")
        partial.unlink(missing_ok=True)
        os.symlink(points_to, partial)
        partial.replace(link)

    def tidy(self, keep: int = 2) -> list[str]:
        """Remove the oldest releases but the current, the previous and the newest `keep`."""
        versions = self.versions()
        staying = {self.current(), self.previous(), *versions[-keep:]}
        gone = [v for v in versions if v not in staying]
        for version in gone:
            shutil.rmtree(self.release(version))
        return gone
