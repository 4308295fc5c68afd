"""`python -m companion report`: one archive a user can send when something goes wrong
(`armata-report-<host>-<UTC time>.tar.gz`): the version, the Pi's model, the OS, Python, the
table's settings and options with every secret removed (companion/product/secrets.py), the
last hours of the app's journal, the Pi's health (temperature, throttling, disk, memory, the
serial ports, the unit, the game log's check and its backups) and the current game's export.
Nothing in it may hold a password, token or key: the broker's credentials and password file
are never carried, and every secret value learnt from them is removed from every text."""

from __future__ import annotations

import contextlib
import glob
import io
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from companion.errors import CompanionError, ReportError
from companion.product.secrets import Scrubber
from companion.version import version
from hardware.pi.install import layout

#: the journal's part of the report: its last lines up to this size
JOURNAL_BYTES = 2 * 1024 * 1024


class Report:
    """The archive's texts, gathered from the system under `root` ("/" on the Pi)."""

    def __init__(self, root: Path, data: Path, hours: float) -> None:
        self.root = root
        self.data = data
        self.hours = hours
        self.scrub = Scrubber()
        self.texts: dict[str, str] = {}

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    def gather(self) -> dict[str, str]:
        self._learn_secrets()  # first: every text after it is scrubbed of them
        parts: dict[str, Callable[[], str]] = {
            "summary.txt": self.summary,
            "settings.json": self.settings,
            "options.txt": self.options,
            "broker.txt": self.broker,
            "health.txt": self.health,
            "journal.txt": self.journal,
            "game.json": self.game,
        }
        for name, part in parts.items():
            try:
                text = part()
            except Exception as exc:  # a report says what it could not read, and goes on
                text = f"(not read: {type(exc).__name__}: {exc})\n"
            self.texts[name] = self.scrub.text(text)
        return self.texts

    def _learn_secrets(self) -> None:
        for secret in (layout.APP_CREDENTIALS, f"{layout.MOSQUITTO_DIR}/credentials.json",
                       f"{layout.MOSQUITTO_DIR}/passwd"):  # fmt: skip
            with contextlib.suppress(OSError):
                self.scrub.secret_file(self.path(secret).read_text())
        with contextlib.suppress(OSError):
            self.scrub.lines(self.path(layout.DEFAULTS).read_text())
        self.scrub.json_value(self._settings())

    def _settings(self) -> dict[str, object]:
        from companion.store.gamelog import GameLog

        log = self.data / "companion.db"
        if not log.is_file():
            return {}
        with GameLog(log, read_only=True, check="none") as opened:
            rows = opened.db.execute("select key, value from settings").fetchall()
        found: dict[str, object] = {}
        for key, value in rows:
            try:
                found[str(key)] = json.loads(value)
            except (TypeError, ValueError):
                found[str(key)] = value
        return found

    def summary(self) -> str:
        from companion import native

        model = _read(self.path("/proc/device-tree/model")).strip("\0\n") or "not a Raspberry Pi"
        os_name = _os_release(self.path("/etc/os-release")).get("PRETTY_NAME", "unknown")
        lines = [
            f"armata-companion {version()}",
            f"made: {datetime.now(UTC).isoformat(timespec='seconds')}",
            f"host: {socket.gethostname()}",
            f"model: {model}",
            f"os: {os_name}",
            f"kernel: {platform.release()} ({platform.machine()})",
            f"python: {sys.version.split()[0]} ({sys.executable})",
            f"engine: {native.state()}",
            f"data: {self.data}",
        ]
        return "\n".join(lines) + "\n"

    def settings(self) -> str:
        return json.dumps(self.scrub.json_value(self._settings()), indent=1, sort_keys=True)

    def options(self) -> str:
        text = _read(self.path(layout.DEFAULTS))
        return self.scrub.lines(text) if text else f"(no {layout.DEFAULTS})\n"

    def broker(self) -> str:
        found = []
        for conf in sorted(self.path(layout.MOSQUITTO_DIR).glob("*.conf")):
            found.append(f"== {conf.name}\n{self.scrub.lines(_read(conf))}")
        dropin = self.path(layout.MOSQUITTO_DROPIN)
        if dropin.is_file():
            found.append(f"== {dropin.name}\n{self.scrub.lines(_read(dropin))}")
        return "\n".join(found) or "(no broker set up by the install)\n"

    def health(self) -> str:
        lines = []
        temp = _read(self.path("/sys/class/thermal/thermal_zone0/temp")).strip()
        if temp.isdigit():
            lines.append(f"temperature: {int(temp) / 1000:.1f} °C")
        lines.append(f"throttled: {_command('vcgencmd', 'get_throttled') or 'no vcgencmd'}")
        usage = shutil.disk_usage(self.data if self.data.exists() else self.root)
        lines.append(f"disk: {usage.free // 2**20} MB free of {usage.total // 2**20} MB")
        meminfo = _read(self.path("/proc/meminfo")).splitlines()
        lines += [x for x in meminfo if x.startswith(("MemTotal", "MemAvailable"))]
        uptime = _read(self.path("/proc/uptime")).split()
        if uptime:
            lines.append(f"up: {float(uptime[0]) / 3600:.1f} h")
        serial = sorted(glob.glob(str(self.path("/dev/ttyACM*"))))
        lines.append(f"serial ports: {', '.join(serial) or 'none'}")
        unit = _command("systemctl", "show", "-p", "ActiveState", "-p", "NRestarts", layout.UNIT)
        lines.append(f"unit: {' '.join(unit.split()) or 'no systemd'}")
        lines.append(f"game log: {self._log_check()}")
        from companion.store.backup import backups

        for found in backups(self.data / "backups")[:20]:
            lines.append(f"backup: {found.path.name} ({found.size} bytes)")
        return "\n".join(lines) + "\n"

    def _log_check(self) -> str:
        from companion.store.gamelog import GameLog

        log = self.data / "companion.db"
        if not log.is_file():
            return f"none at {log}"
        try:
            with GameLog(log, read_only=True) as opened:
                games = len(opened.games())
        except CompanionError as exc:
            return str(exc)
        return f"sound, {games} games, {log.stat().st_size} bytes"

    def journal(self) -> str:
        said = _command(
            "journalctl", "-u", layout.UNIT, "--since", f"-{self.hours:g}h",
            "--no-pager", "-o", "short-iso",
        )  # fmt: skip
        encoded = said.encode()[-JOURNAL_BYTES:]
        return encoded.decode(errors="replace") or "(no journal)\n"

    def game(self) -> str:
        from companion.store.gamelog import GameLog
        from companion.transcript import dumps, export_game

        log = self.data / "companion.db"
        if not log.is_file():
            return "{}\n"
        with GameLog(log, read_only=True, check="none") as opened:
            chosen = opened.last_unfinished()
            if chosen is None:
                games = opened.games()
                if not games:
                    return "{}\n"
                chosen = max(games, key=lambda g: g.created_at).id
            return dumps(export_game(opened, chosen))


def write_report(root: Path, data: Path, out: Path, hours: float = 6.0) -> Path:
    texts = Report(root, data, hours).gather()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = f"armata-report-{socket.gethostname()}-{stamp}"
    try:
        out.mkdir(parents=True, exist_ok=True)
        archive = out / f"{name}.tar.gz"
        with tarfile.open(archive, "w:gz") as packed:
            for member, text in texts.items():
                data_bytes = text.encode()
                info = tarfile.TarInfo(f"{name}/{member}")
                info.size = len(data_bytes)
                info.mtime = int(time.time())
                info.mode = 0o644
                packed.addfile(info, io.BytesIO(data_bytes))
        os.chmod(archive, 0o644)
    except OSError as exc:
        raise ReportError(f"cannot write the report into {out}: {exc.strerror or exc}") from None
    return archive


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _os_release(path: Path) -> dict[str, str]:
    import shlex

    found = {}
    for line in _read(path).splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key.strip()] = " ".join(shlex.split(value))
    return found


def _command(*args: str) -> str:
    try:
        done = subprocess.run(list(args), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout
