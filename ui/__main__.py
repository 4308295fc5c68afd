"""`python -m ui [--size 800x480] [--fullscreen] [--kiosk] [--nodes ...]`: the touchscreen app.

`--kiosk`: fullscreen without a cursor, and the unfinished game comes back at start (the Pi's
systemd unit uses it, hardware/pi/README.md). The tests drive the same app through scripts:
`python -m tests.ui_driver` (tests/ui_driver/__main__.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.app import ArmataApp


def build_parser() -> argparse.ArgumentParser:
    from companion.app.devices.node_options import add_node_arguments

    parser = argparse.ArgumentParser(prog="python -m ui")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument(
        "--kiosk",
        action="store_true",
        help="fullscreen, no mouse cursor, the unfinished game resumed at start (hardware/pi)",
    )
    parser.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT|off",
        help="the table view in browsers (default 127.0.0.1:8421; with --kiosk 0.0.0.0:8421, "
        "open to the local network); off: none",
    )
    add_node_arguments(parser)
    return parser


def web_address(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[str, int] | None:
    """Where the table view listens, from --web (None: off)."""
    from companion.app.web.address import parse_web_address

    try:
        return parse_web_address(args.web, public=args.kiosk)
    except ValueError as problem:
        parser.error(f"--web: {problem}")


def log_as_the_unit_says() -> None:
    """With KIVY_LOG_MODE=PYTHON (the kiosk's unit) Kivy keeps no files of its own under
    ~/.kivy/logs: the app's and Kivy's lines go to standard error, which systemd puts in the
    journal, a repeated line held to a few a minute (companion/logs.py), the rest bounded by
    journald's own limits."""
    if os.environ.get("KIVY_LOG_MODE") == "PYTHON":
        from companion.logs import log_to_the_journal

        log_to_the_journal()


def configure_window(args: argparse.Namespace) -> None:
    """Kivy's window as the options say (before Kivy opens it)."""
    width, height = args.size.split("x")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    log_as_the_unit_says()
    from kivy.config import Config

    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if args.fullscreen or args.kiosk else "0")
    if args.kiosk:
        Config.set("graphics", "show_cursor", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")


def face_log_problem(args: argparse.Namespace, ready: object = None) -> int | None:
    """A game log the table must not play on gets its own screen first (what is wrong, the
    choices); returns the exit code when the players quit there, None when the table starts."""
    from companion.app.log_problem import check_log
    from companion.app.session.glance import data_dir

    problem = check_log(data_dir())
    if problem is None:
        return None
    print(f"{problem.headline}: {problem.path}: {problem.reason}", flush=True)
    configure_window(args)
    from ui.screens.log_problem import LogProblemApp

    screen = LogProblemApp(problem, ready)  # type: ignore[arg-type]
    screen.run()
    if screen.choice == "fresh":
        print(f"the damaged game log was kept as {screen.kept_as}", flush=True)
    if screen.choice == "restored":
        print(f"the newer game log was kept as {screen.kept_as}; restored {problem.backup}")
    return None if screen.choice in ("fresh", "restored", "continue") else problem.exit_code or 3


def make_app(
    parser: argparse.ArgumentParser, args: argparse.Namespace, silent: bool = False
) -> ArmataApp:
    """The app as the options say, with Kivy's window configured (before Kivy opens it)."""
    from companion.app.devices.node_options import hardware_from_args
    from companion.boardfile import load_board_file

    hardware, publisher = hardware_from_args(parser, args, load_board_file())
    configure_window(args)

    from companion.app.devices.voice import Silent
    from ui.app import ArmataApp

    return ArmataApp(
        hardware=hardware,
        speaker=Silent() if silent else None,  # None: the voice the settings choose
        resume_last=args.kiosk,
        publisher=publisher,
        web=web_address(parser, args),
    )


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    quit_code = face_log_problem(args)
    if quit_code is not None:
        return quit_code
    app = make_app(parser, args)
    app.say_address = True  # what the table runs on once it starts, and the table view's address
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
