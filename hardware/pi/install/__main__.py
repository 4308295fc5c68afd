"""`sudo hardware/pi/install.sh [OPTIONS]` (or `sudo python3 -m hardware.pi.install`): install,
update in place or remove the table on this Pi (hardware/pi/README.md).

    --mosquitto TABLE   also set up Mosquitto for MQTT nodes of table TABLE (provision.py)
    --tls               with --mosquitto: nodes on Wi-Fi (TLS listener, the Pi's .local name)
    --uninstall         remove the program and its units; keep the game log, its backups, the
                        options file and the user
    --release-only      place this tree as releases/<version> with its environment, engine and
                        translations, nothing else (`python -m companion update` uses it)
    --root DIR          install into DIR instead of / (staging: the tests)
    --packages-from VENV  link the Python packages from an existing environment instead of
                        installing them from PyPI (the tests; a Pi without network)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion.errors import InstallError
from hardware.pi.install import account, debian, layout, release, units
from hardware.pi.install.system import System, os_release

TREE = Path(__file__).resolve().parents[3]
#: the Pi OS releases this install is made for (Debian 13 and 12)
RELEASES = ("trixie", "bookworm")


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(
        prog="install.sh",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    found.add_argument("--root", type=Path, default=Path("/"))
    found.add_argument("--packages-from", type=Path, default=None)
    found.add_argument("--mosquitto", metavar="TABLE", default=None)
    found.add_argument("--tls", action="store_true")
    found.add_argument("--uninstall", action="store_true")
    found.add_argument("--release-only", action="store_true")
    found.add_argument("--quiet", action="store_true")
    return found


def install(system: System, args: argparse.Namespace) -> None:
    name = os_release(system).get("VERSION_CODENAME", "")
    if name not in RELEASES:
        system.say(f"this is {name or 'an unknown system'}, not Pi OS trixie or bookworm: "
                   "going on, with this system's own packages")  # fmt: skip
    source = release.Source.read(TREE)
    if not args.release_only:
        debian.ensure(system, debian.wanted(args.mosquitto is not None))
        account.ensure_user(system)
        account.ensure_data(system)
    folder = place_release(system, source, args.packages_from)
    if args.release_only:
        print(folder)
        return
    current = system.path(layout.CURRENT)
    before = os.readlink(current) if current.is_symlink() else None
    switched = system.link(layout.CURRENT, f"releases/{source.version}")
    if switched and before is not None:
        system.link(layout.PREVIOUS, before)
    changed = units.install_units(system, folder, args.mosquitto)
    if args.mosquitto:
        from hardware.pi.install.broker import ensure_broker

        ensure_broker(system, folder, args.mosquitto, args.tls)
    units.enable_and_start(system, restart=switched or changed)
    system.say(
        f"release {source.version} installed"
        + ("" if system.changes else ": nothing to change, it was already there")
    )


def place_release(system: System, source: release.Source, packages_from: Path | None) -> Path:
    folder = release.place(system, source)
    release.ensure_environment(system, folder, source, release.installer_python(), packages_from)
    release.ensure_engine(system, folder, source.tree)
    release.ensure_catalogs(system, folder)
    release.check_runs(system, folder, source)
    release.finish(system, source)
    return folder


def uninstall(system: System) -> None:
    units.remove_units(system)
    system.remove(layout.PREFIX)
    system.say(
        f"removed; kept the game log and its backups ({layout.DATA}), the options "
        f"({layout.DEFAULTS}) and the user {layout.USER}"
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    system = System(args.root.resolve(), quiet=args.quiet)
    if not system.staging and os.geteuid() != 0:
        print("install: run it as root: sudo hardware/pi/install.sh", file=sys.stderr)
        return 2
    try:
        if args.uninstall:
            uninstall(system)
        else:
            install(system, args)
    except InstallError as exc:
        print(f"install: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
