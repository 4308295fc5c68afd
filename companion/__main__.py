"""Command line: `python -m companion [board show | scenario run | replay | export | check | sim |
serve | nodes | native | demo | update | backup | restore | import | report | --version]`;
`python -m ui` starts the touchscreen app (`serve`: the same table, no screen).

Without arguments it shows the default fortress and resolves a demonstration Strigoi turn.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
from pathlib import Path
from typing import NoReturn

from companion.boardfile import load_board_file, read_json
from companion.errors import (
    BoardFormatError,
    CompanionError,
    InvalidSituation,
    LogDamaged,
    LogNotADatabase,
    LogTooNew,
    LogUnusable,
    ScenarioError,
)

#: exit codes (README "Exit codes"): 0 done; 1 checks failed (scenarios, replays, sim);
#: 2 bad input (arguments, files); 3 the game log is damaged; 4 it was written by a newer
#: version; 5 it cannot be opened (a folder, no permission, a read-only folder without a log)
EXIT_BAD_INPUT = 2


class Parser(argparse.ArgumentParser):
    """argparse, with every error on one line (the usage is one `--help` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"error: {self.prog}: {message} (see --help)\n")


def count(text: str) -> int:
    """A whole number, 0 or more."""
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds, 0 or more (not nan, not inf)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            f"must be a finite number of seconds, 0 or more, got {text}"
        )
    return value


def situation_for(fortress, state_path: str | None):  # type: ignore[no-untyped-def]
    from companion.engine.situation import Situation
    from companion.scenario.model import StateSpec, build_situation, convert

    if state_path is None:
        return Situation(board=fortress.initial_state())
    data = read_json(Path(state_path))
    if isinstance(data, dict) and "state" in data and "format" in data:
        data = data["state"]
    try:
        return build_situation(fortress, convert(data, StateSpec, "state"))
    except (BoardFormatError, InvalidSituation, ScenarioError) as exc:
        raise exc.in_file(state_path) from None


def cmd_board_show(args: argparse.Namespace) -> int:
    from companion.textview import render_board

    fortress = load_board_file(args.file)
    print(render_board(fortress, situation_for(fortress, args.state)))
    return 0


def cmd_scenario_run(args: argparse.Namespace) -> int:
    from companion.scenario.runner import run

    return run(args.paths, args.json, sys.stdout)


def cmd_demo(_: argparse.Namespace) -> int:
    from companion.demo import run_demo
    from companion.hardware_demo import run_hardware_demo

    print(run_demo())
    print()
    print(run_hardware_demo())
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from companion.selfplay import simulate

    report = simulate(
        args.games,
        args.players,
        args.seed,
        check=not args.no_checks,
        physical=args.physical,
        policy=args.policy,
    )
    print("\n".join(report.lines()))
    return 0 if not report.problems else 1


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.transcript import run

    return run(args.paths, args.json, sys.stdout)


def cmd_export(args: argparse.Namespace) -> int:
    from companion.store.location import default_database

    path = Path(args.db) if args.db else default_database()
    if not path.exists():
        print(f"error: no game log at {path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    output = Path(args.output) if args.output else None
    if output is not None and (output.is_dir() or not output.parent.is_dir()):
        problem = "is a folder" if output.is_dir() else f"has no folder {output.parent}"
        print(f"error: cannot write {output}: it {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        text, warning = _export(path, args.game), None
    except (LogDamaged, LogTooNew) as problem:
        if isinstance(problem, LogNotADatabase):
            raise
        # a damaged or newer log is read as far as it can be, read-only; when even that
        # fails, the error is the log's own (one line)
        try:
            text = _export(path, args.game, salvage=True)
        except CompanionError:
            raise problem from None
        warning = f"warning: {problem}; exported what could still be read"
    if output is not None:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"error: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
    else:
        sys.stdout.write(text)
    if warning is not None:
        print(warning, file=sys.stderr)
    return 0


def _export(path: Path, game_id: str, salvage: bool = False) -> str:
    """The game (or the last one) as a transcript; `salvage`: read-only, unchecked."""
    from companion.errors import StoreError
    from companion.store.gamelog import GameLog
    from companion.transcript import dumps, export_game

    log = GameLog(path, read_only=True, check="none") if salvage else GameLog(path)
    with log:
        if game_id == "last":
            games = log.games()
            if not games:
                raise StoreError(f"no game in {path}")
            game_id = max(games, key=lambda g: g.created_at).id
        return dumps(export_game(log, game_id))


def cmd_check(args: argparse.Namespace) -> int:
    """SQLite's quick_check (--full: integrity_check), the schema version and the tables of a
    game log, read-only: the exit codes of a damaged, newer or unreadable log. `--nodes`: also
    the firmware of every USB node (1 when one differs or none answers)."""
    nodes_ok = True
    if args.nodes:
        from companion.app.devices.node_check import check_nodes

        nodes_ok = check_nodes(args.serial_glob, args.wait)
    code = _check_log(args, quiet_when_missing=args.nodes)
    return code if code or nodes_ok else 1


def _check_log(args: argparse.Namespace, quiet_when_missing: bool = False) -> int:
    from companion.store.gamelog import GameLog
    from companion.store.location import default_database

    path = Path(args.db) if args.db else default_database()
    if not path.exists() and quiet_when_missing and not args.db:
        print(f"no game log at {path} yet")
        return 0
    if not path.exists():
        print(f"error: no game log at {path}", file=sys.stderr)
        return EXIT_BAD_INPUT
    with GameLog(path, read_only=True, check="full" if args.full else "quick") as log:
        games = len(log.games())
    kind = "integrity_check" if args.full else "quick_check"
    print(f"{path}: sound ({kind}), {games} game{'' if games == 1 else 's'}")
    return 0


def cmd_serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """The table service without a screen: buttons, card reader, voice and LEDs; the game on
    the broker for a second screen (companion/app/headless.py)."""
    from companion.app.devices.node_options import hardware_from_args
    from companion.app.devices.voice import Silent, Speaker
    from companion.app.headless import HeadlessTable
    from companion.app.service import TableService, open_log, start_fresh_log
    from companion.app.stopping import stop_on_signals
    from companion.app.web.feed import WebFeed, parse_web_address
    from companion.boardfile import load_board_file
    from companion.store.location import data_dir

    data = Path(args.data) if args.data else data_dir()
    if args.fresh_log:
        try:
            open_log(data).close()
        except (LogDamaged, LogTooNew) as exc:
            aside = start_fresh_log(data)
            print(f"{exc}: kept aside as {aside}; starting a fresh log", flush=True)
    open_log(data).close()  # a log that cannot be played stops here, before any node starts
    try:
        web = parse_web_address(args.web)
    except ValueError as problem:
        parser.error(f"--web: {problem}")
    hardware, publisher = hardware_from_args(parser, args, load_board_file())

    def make(post):  # type: ignore[no-untyped-def]
        speaker: Speaker | None = Silent() if args.silent else None  # None: the settings' voice
        feed = None
        if web is not None:
            # the same web server as the touchscreen's (ui/web): this command line is the one
            # place that wires a front end of ui/ to the headless table
            from ui.web.server import TableWebServer

            server = TableWebServer(*web, names=args.web_name)
            feed = WebFeed(server, post, lambda command: table.execute(command))
            server.choose = feed.request_choice
        return TableService(
            data, post, hardware=hardware, speaker=speaker, publisher=publisher, web=feed
        )

    def say(text: str) -> None:
        print(f"said: {text}", flush=True)
        table.service.speak(text)

    try:
        table = HeadlessTable(make, say)
    except BaseException:
        if hardware is not None:
            hardware.stop()
        raise
    stop_on_signals(table.stop)  # systemd's stop, a closed terminal, Ctrl+C
    print(
        f"serving the table headless: {table.service.hardware.description}, "
        f"game log in {data / 'companion.db'}; Confirm starts or resumes a game",
        flush=True,
    )
    if table.service.read_only:
        print(
            f"the game log {data / 'companion.db'} is read-only: games can be resumed and "
            "exported, not played on",
            flush=True,
        )
    table.post(table.show_address)  # once the service (and its web server) started
    if args.play:
        table.post(lambda: table.start_or_resume(args.seed))
    if args.keys:
        table.read_keys(sys.stdin)
    try:
        table.run(args.seconds)
    finally:
        table.service.close()
    return 0


def cmd_native(args: argparse.Namespace) -> int:
    from companion import native

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if args.action == "build":
        if native.state() == "compiled":
            print("compiled engine: up to date")
            return 0
        native.build()
    elif args.action == "clean":
        native.clean()
    print(f"compiled engine: {native.state()}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from companion.product.cli import add_product_commands
    from companion.version import version

    parser = Parser(prog="python -m companion", description=__doc__)
    parser.add_argument("--version", action="version", version=f"armata-companion {version()}")
    parser.set_defaults(func=cmd_demo)
    sub = parser.add_subparsers(dest="command")
    add_product_commands(sub)  # update, backup, restore, import, report (companion/product)
    board = sub.add_parser("board", help="board files").add_subparsers(dest="board_command")
    show = board.add_parser("show", help="print a fortress in the terminal")
    show.add_argument("file", nargs="?", help="armata-board/1 file (default: the default fortress)")
    show.add_argument("--state", help="scenario file or state object to place figures")
    show.set_defaults(func=cmd_board_show)
    scenario = sub.add_parser("scenario", help="rule scenarios").add_subparsers(
        dest="scenario_command"
    )
    run = scenario.add_parser("run", help="run armata-scenario/1 files or folders")
    run.add_argument("paths", nargs="+", metavar="PATH")
    run.add_argument("--json", action="store_true", help="one JSON object per line")
    run.set_defaults(func=cmd_scenario_run)
    sim = sub.add_parser("sim", help="play random legal games and check invariants")
    sim.add_argument("--games", type=count, default=100)
    sim.add_argument(
        "--players",
        type=int,
        choices=range(2, 6),
        default=None,
        help="2-5 (default: cycle through 2-5)",
    )
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--no-checks", action="store_true", help="skip invariant checks (speed)")
    sim.add_argument(
        "--physical",
        action="store_true",
        help="draw every stack physically (random tokens entered)",
    )
    sim.add_argument(
        "--policy",
        choices=("random", "greedy"),
        default="random",
        help="how the heroes choose (default: random)",
    )
    sim.set_defaults(func=cmd_sim)
    replay = sub.add_parser("replay", help="replay armata-transcript/1 files or folders")
    replay.add_argument("paths", nargs="+", metavar="FILE|DIR")
    replay.add_argument("--json", action="store_true", help="one JSON object per transcript")
    replay.set_defaults(func=cmd_replay)
    export = sub.add_parser("export", help="write a stored game as an armata-transcript/1")
    export.add_argument("game", metavar="GAME", help="the game's id, or 'last'")
    export.add_argument("--db", help="the game log (default: the app's, in $ARMATA_DATA_DIR)")
    export.add_argument("-o", "--output", help="write to this file (default: standard output)")
    export.set_defaults(func=cmd_export)
    check = sub.add_parser("check", help="check a game log (SQLite's quick_check, its version)")
    check.add_argument("--db", help="the game log (default: the app's, in $ARMATA_DATA_DIR)")
    check.add_argument("--full", action="store_true", help="SQLite's full integrity_check")
    check.add_argument(
        "--nodes",
        action="store_true",
        help="also check that every USB node runs the firmware this release ships",
    )
    check.add_argument("--serial-glob", default="/dev/ttyACM*", help="the nodes' ports (--nodes)")
    check.add_argument(
        "--wait", type=seconds, default=8.0, help="seconds to wait for the nodes' hellos (--nodes)"
    )
    check.set_defaults(func=cmd_check)
    from companion.nodes_cli import add_nodes_parser

    add_nodes_parser(sub)
    native = sub.add_parser("native", help="the engine compiled with mypyc (companion/native.py)")
    native.add_argument("action", choices=("build", "status", "clean"), nargs="?", default="status")
    native.set_defaults(func=cmd_native)
    serve = sub.add_parser(
        "serve", help="the table without a screen: buttons, card reader, voice and LEDs"
    )
    from companion.app.devices.node_options import SERVE_APP, add_node_arguments

    add_node_arguments(serve, SERVE_APP)  # its own login: never the touchscreen app's
    serve.add_argument("--data", help="the data folder (default: $ARMATA_DATA_DIR)")
    serve.add_argument("--play", action="store_true", help="resume the game, or start one, now")
    serve.add_argument("--seed", type=int, default=None, help="a new game's seed (default: random)")
    serve.add_argument("--seconds", type=seconds, default=None, help="stop after this long")
    serve.add_argument(
        "--fresh-log",
        action="store_true",
        help="a damaged or newer game log is kept aside (renamed, never deleted) and a fresh "
        "one started",
    )
    serve.add_argument("--silent", action="store_true", help="print the sentences, no voice")
    serve.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT|off",
        help="the table view in browsers, its address and QR code printed (default "
        "127.0.0.1:8421, this machine only; 0.0.0.0:8421 opens it to the local network); off: none",
    )
    serve.add_argument(
        "--web-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the table view answers to besides its addresses, localhost, the hostname "
        "and HOSTNAME.local (again for more; ARMATA_WEB_NAMES=a,b does the same); any other "
        "Host is refused",
    )
    serve.add_argument(
        "--keys",
        action="store_true",
        help="lines on standard input press the buttons: c (Confirm), n (Next), u (Undo); "
        "phone HERO prints that hero's seat link and QR code, revoke HERO ends it; wifi on opens "
        "the table's own Wi-Fi for the phones (NetworkManager), wifi off goes back "
        "to the known one",
    )
    serve.set_defaults(func=lambda args: cmd_serve(args, parser))
    demo = sub.add_parser("demo", help="show the default fortress and a Strigoi turn")
    demo.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command in ("board", "scenario", "nodes") and getattr(args, "func", None) in (
        None,
        cmd_demo,
    ):
        parser.parse_args([args.command, "--help"])
    try:
        return int(args.func(args))
    except LogUnusable as exc:
        print(f"error: {exc}{_advice(exc, args.command)}", file=sys.stderr)
        return exc.exit_code
    except CompanionError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except json.JSONDecodeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:  # a file named on the command line that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _advice(exc: LogUnusable, command: str | None) -> str:
    advice = ""
    if isinstance(exc, (LogDamaged, LogTooNew)) and command == "serve":
        advice = " (serve --fresh-log keeps it aside and starts a fresh one; export reads it)"
    if isinstance(exc, LogTooNew):
        from companion.store.backup import folder_of, newest_readable

        found = newest_readable(folder_of(Path(exc.path)))
        if found is not None:
            made = found.made.strftime("%Y-%m-%d %H:%M UTC")
            advice += (
                f"; this version can go back to the backup of {made} ({found.path}): "
                f"`python -m companion restore {found.path}` keeps this log aside and puts "
                "that backup in its place"
            )
    return advice


if __name__ == "__main__":
    sys.exit(main())
