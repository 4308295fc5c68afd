"""The product's commands of `python -m companion`: update, backup, restore, import, report
(docs/install-and-update.md). Registered here, each run by its own module."""

from __future__ import annotations

import argparse
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from companion.store.location import default_database

#: `backup --daily` (the timer): a daily backup when the last is older than this (the timer
#: may fire a little early, its delay being random)
DAILY = timedelta(hours=20)


def add_product_commands(sub: Any) -> None:
    """Add the commands to `python -m companion`'s subparsers `sub`."""
    update = sub.add_parser(
        "update", help="install a release archive beside this one, check it, switch to it"
    )
    update.add_argument(
        "archive", metavar="ARCHIVE", nargs="?",
        help="a release archive, or its https:// address (checked against <address>.sha256)",
    )  # fmt: skip
    update.add_argument(
        "--requested", action="store_true",
        help="the archive the touchscreen asked for (DATA/updates/request; its path unit)",
    )  # fmt: skip
    update.add_argument("--root", type=Path, default=Path("/"), help="(tests) a staging folder")
    update.add_argument(
        "--watch", type=float, default=60.0, metavar="SECONDS",
        help="how long the new version must stay up before it is kept (default 60)",
    )  # fmt: skip
    update.add_argument("--allow-older", action="store_true", help="go back to an older one")
    update.add_argument("--packages-from", type=Path, default=None, metavar="VENV")
    update.set_defaults(func=cmd_update)
    backup = sub.add_parser("backup", help="back the game log up beside it (backups/)")
    backup.add_argument("--db", type=Path, help="the game log (default: the app's)")
    backup.add_argument(
        "--daily", action="store_true", help="the daily backup, unless one is recent"
    )
    backup.add_argument("--list", action="store_true", help="list the backups, newest first")
    backup.set_defaults(func=cmd_backup)
    restore = sub.add_parser(
        "restore", help="put a backup back as the game log (the log is kept aside)"
    )
    restore.add_argument(
        "backup", nargs="?", type=Path, metavar="BACKUP",
        help="a backup file (default: the newest this version can use)",
    )  # fmt: skip
    restore.add_argument("--db", type=Path, help="the game log (default: the app's)")
    restore.set_defaults(func=cmd_restore)
    into = sub.add_parser(
        "import", help="add games from a backup, a game export or a transcript to the game log"
    )
    into.add_argument("source", type=Path, metavar="FILE")
    into.add_argument("--game", help="from a backup: this game only (default: every game)")
    into.add_argument("--db", type=Path, help="the game log (default: the app's)")
    into.set_defaults(func=cmd_import)
    report = sub.add_parser("report", help="write one archive to send when something is wrong")
    report.add_argument("--out", type=Path, default=None, help="its folder (default: here)")
    report.add_argument("--hours", type=float, default=6.0, help="of the journal (default 6)")
    report.add_argument("--data", type=Path, help="the data folder (default: the table's)")
    report.add_argument("--root", type=Path, default=Path("/"), help="(tests) a staging folder")
    report.set_defaults(func=cmd_report)


def _log(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db else default_database()


def cmd_update(args: argparse.Namespace) -> int:
    from companion.errors import CompanionError
    from companion.product.download import fetch_release, is_url
    from companion.product.releases import Installed
    from companion.product.update import update

    installed = Installed(args.root.resolve())
    if args.requested:
        return _requested(args, installed)
    if args.archive is None:
        print("error: update: ARCHIVE or --requested", file=sys.stderr)
        return 2
    archive, fetched = Path(args.archive), None
    if is_url(args.archive):  # fetched into DATA/updates, checked, removed after
        try:
            archive = fetched = fetch_release(args.archive, installed.data / "updates")
        except CompanionError as problem:
            print(f"update: not updated: {problem}", file=sys.stderr)
            return 1
        print(f"update: downloaded {archive.name}, its SHA-256 the published one", flush=True)
    try:
        outcome = update(
            archive,
            installed,
            watch_s=args.watch,
            packages_from=args.packages_from,
            allow_older=args.allow_older,
            say=lambda text: print(f"update: {text}", flush=True),
        )
    finally:
        if fetched is not None:
            fetched.unlink(missing_ok=True)
    return 0 if outcome.switched and not outcome.rolled_back else 1


def _requested(args: argparse.Namespace, installed: Any) -> int:
    """The update the touchscreen asked for (Settings, "Update from a USB stick"): the archive
    named in `updates/request`, which is removed first (a failing update never runs again by
    itself); what it said goes to `updates/last-update.txt` too; the archive is removed after."""
    from companion.errors import CompanionError
    from companion.product.update import update

    updates = installed.data / "updates"
    request = updates / "request"
    try:
        archive = Path(request.read_text().strip())
        request.unlink()
    except OSError:
        print("update: no update was asked for", flush=True)
        return 0
    told: list[str] = []

    def say(text: str) -> None:
        told.append(text)
        print(f"update: {text}", flush=True)

    code = 1
    try:
        outcome = update(archive, installed, watch_s=args.watch,
                         packages_from=args.packages_from, say=say)  # fmt: skip
        code = 0 if outcome.switched and not outcome.rolled_back else 1
    except CompanionError as problem:
        say(f"not updated: {problem}")
    finally:
        (updates / "last-update.txt").write_text("".join(f"{t}\n" for t in told))
        if archive.parent == updates:
            archive.unlink(missing_ok=True)
    return code


def cmd_backup(args: argparse.Namespace) -> int:
    from companion.store.backup import backups, due, folder_of, make_backup

    log = _log(args)
    if args.list:
        for found in backups(folder_of(log)):
            made = found.made.strftime("%Y-%m-%d %H:%M:%S UTC")
            print(f"{found.path}  {found.kind:<7} {made}  {found.size} bytes")
        return 0
    if args.daily and not due(folder_of(log), "daily", DAILY):
        print("the daily backup is recent: none made")
        return 0
    print(make_backup(log, "daily" if args.daily else "manual"))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from companion.store.backup import folder_of, newest_readable, restore

    log = _log(args)
    chosen = args.backup
    if chosen is None:
        found = newest_readable(folder_of(log))
        if found is None:
            print(f"error: no backup this version can use in {folder_of(log)}", file=sys.stderr)
            return 2
        chosen = found.path
    aside = restore(Path(chosen), log)
    kept = f"; the log it replaced is kept as {aside}" if aside else ""
    print(f"restored {chosen} as {log}{kept}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from companion.product.imports import import_games

    log = _log(args)
    log.parent.mkdir(parents=True, exist_ok=True)
    for game_id in import_games(args.source, log, args.game):
        print(f"imported {args.source} as game {game_id}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    """The table's data folder: $ARMATA_DATA_DIR, else the installed one (root runs it by
    hand), else the user's own."""
    import os

    from companion.product.report import write_report
    from companion.store.location import data_dir
    from hardware.pi.install.layout import DATA

    installed = args.root / DATA.lstrip("/")
    if args.data is not None:
        data = args.data
    elif "ARMATA_DATA_DIR" not in os.environ and installed.is_dir():
        data = installed
    else:
        data = data_dir()
    print(write_report(args.root, data, args.out or Path.cwd(), args.hours))
    return 0
