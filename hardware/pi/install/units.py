"""The systemd units (the kiosk, the daily backup), the options file, the journal's bound and
the console's blanking; enabling and (re)starting the kiosk."""

from __future__ import annotations

from pathlib import Path

from hardware.pi.install import layout
from hardware.pi.install.system import System

#: /etc/default/armata-companion, written once (never overwritten: it is the owner's)
DEFAULTS_TEXT = """\
# Options of the Armata Strigoi table companion (hardware/pi/README.md, "Displays" and "Nodes").
# Read by armata-companion.service at every start: `sudo systemctl restart armata-companion`.
#
# The board's nodes: on USB serial (the default), or on the Pi's broker:
#   ARMATA_UI_ARGS=--nodes mqtt --mqtt 127.0.0.1:1883 --table t1 --credentials {credentials}
{nodes}
# Which display: SDL draws to /dev/dri/card0. On a Pi 5 the DSI panel (Touch Display, Touch
# Display 2) is a DRM card of its own (`ls /dev/dri`):
#   SDL_KMSDRM_DEVICE_INDEX=1
# Touch Display 2 (720x1280 upright: the app lays its screens out board above panel), as large
# to the eye as on the first Touch Display:
#   KIVY_METRICS_DENSITY=1.5
"""
#: the journal's share of the SD card (all of the system's logs, the app's among them)
JOURNALD_TEXT = """\
# Installed by the Armata Strigoi table companion: the journal stays small on the SD card
[Journal]
SystemMaxUse=64M
SystemMaxFileSize=8M
"""


def defaults_text(broker_table: str | None) -> str:
    nodes = (
        f"ARMATA_UI_ARGS=--nodes mqtt --mqtt 127.0.0.1:1883 --table {broker_table} "
        f"--credentials {layout.APP_CREDENTIALS}"
        if broker_table
        else "#ARMATA_UI_ARGS=--nodes serial"
    )
    return DEFAULTS_TEXT.format(credentials=layout.APP_CREDENTIALS, nodes=nodes)


def install_units(system: System, release: Path, broker_table: str | None) -> bool:
    """Unit files and the system's settings; whether a unit file changed."""
    changed = False
    for name in (layout.UNIT, layout.BACKUP_UNIT, layout.BACKUP_TIMER, layout.UPDATE_UNIT,
                 layout.UPDATE_PATH):  # fmt: skip
        text = (release / "hardware" / "pi" / name).read_text()
        changed |= system.write(f"{layout.SYSTEMD}/{name}", text)
    if not system.path(layout.DEFAULTS).exists():
        system.write(layout.DEFAULTS, defaults_text(broker_table))
    system.write(layout.JOURNALD, JOURNALD_TEXT)
    blank_never(system)
    if changed:
        system.run("systemctl", "daemon-reload")
    return changed


def blank_never(system: System) -> None:
    """`consoleblank=0` on the kernel's command line: the console never blanks the display
    (the unit's `setterm` covers the app's run; this covers the boot and a restart)."""
    cmdline = system.path(layout.CMDLINE)
    if not cmdline.is_file():
        system.say(f"no {layout.CMDLINE} (not a Pi?): console blanking left as it is")
        return
    words = cmdline.read_text().split()
    if "consoleblank=0" not in words:
        words = [w for w in words if not w.startswith("consoleblank=")] + ["consoleblank=0"]
        system.write(layout.CMDLINE, " ".join(words) + "\n", cmdline.stat().st_mode & 0o7777)


def unblank(system: System) -> None:
    cmdline = system.path(layout.CMDLINE)
    if cmdline.is_file() and "consoleblank=0" in cmdline.read_text().split():
        words = [w for w in cmdline.read_text().split() if w != "consoleblank=0"]
        system.write(layout.CMDLINE, " ".join(words) + "\n", cmdline.stat().st_mode & 0o7777)


def enable_and_start(system: System, restart: bool) -> None:
    for unit in (layout.UNIT, layout.BACKUP_TIMER, layout.UPDATE_PATH):
        if not system.ok("systemctl", "is-enabled", "--quiet", unit):
            system.run("systemctl", "enable", unit)
            system.changed(f"enabled {unit}")
    for waiting in (layout.BACKUP_TIMER, layout.UPDATE_PATH):
        if not system.ok("systemctl", "is-active", "--quiet", waiting):
            system.run("systemctl", "start", waiting)
            system.changed(f"started {waiting}")
    if restart or not system.ok("systemctl", "is-active", "--quiet", layout.UNIT):
        system.run("systemctl", "restart", layout.UNIT)
        system.changed(f"started {layout.UNIT}")


def remove_units(system: System) -> None:
    units = (layout.UNIT, layout.BACKUP_TIMER, layout.BACKUP_UNIT, layout.UPDATE_PATH,
             layout.UPDATE_UNIT)  # fmt: skip
    if any(system.path(f"{layout.SYSTEMD}/{u}").exists() for u in units):
        system.run("systemctl", "disable", "--now", *units, check=False)
    for name in units:
        system.remove(f"{layout.SYSTEMD}/{name}")
    system.remove(layout.JOURNALD)
    unblank(system)
    system.run("systemctl", "daemon-reload")
