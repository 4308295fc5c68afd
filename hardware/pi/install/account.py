"""The table's service user and its data folder (kept by `--uninstall`)."""

from __future__ import annotations

from hardware.pi.install import layout
from hardware.pi.install.system import System


def ensure_user(system: System) -> None:
    if not system.ok("getent", "passwd", layout.USER):
        system.run(
            "useradd",
            "--system",
            "--user-group",
            "--home-dir",
            layout.DATA,
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            layout.USER,
        )
        system.changed(f"created the user {layout.USER}")
    have = set(system.run("id", "-nG", layout.USER).stdout.split())
    missing = [g for g in layout.GROUPS if g not in have and system.ok("getent", "group", g)]
    if missing:
        system.run("usermod", "--append", "--groups", ",".join(missing), layout.USER)
        system.changed(f"added {layout.USER} to {', '.join(missing)}")


def ensure_data(system: System) -> None:
    """The data folder, the user's own (systemd's StateDirectory= would make it too, at the
    first start; here it exists before, for `backup` and `report` run by hand)."""
    for folder in (layout.DATA, f"{layout.DATA}/backups"):
        if system.folder(folder, 0o750):
            system.run("chown", f"{layout.USER}:{layout.USER}", system.path(folder))
