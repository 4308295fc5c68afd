"""`python -m ui [--size 800x480] [--fullscreen] [--script NAME ...]`: the touchscreen app.

`--kiosk`: fullscreen without a cursor, and the unfinished game comes back at start (the Pi's
systemd unit uses it, hardware/pi/README.md).

Scripts (for the tests, under Xvfb; they print a JSON report and exit):
  shots DIR          every screen in every language saved as DIR/<screen>-<lang>.png, with the
                     layout checks (text larger than its widget, touch targets under 48 px)
  play N             new game by touch, then N decisions by touch; the report says what happened
  hold N             like play, then print the report and wait (to be killed mid-turn)
  resume             press Resume and report the game as it came back
  report             report the game and screen as the app started (with --kiosk: resumed)
  health             wait until every node is online, open the Hardware screen, report its text
  buttons            the Pi's Next, Confirm and Undo on mock pins act on the game; the status
                     LED blinks while a node is unplugged (ui/driver_table.py)
  resync             a bumped platform answered on the Resync screen by touch, both ways
  cards              two announcements of one command read card after card; Fix a Strigoi
  round [UID]        the end-to-end round: setup wizard by touch with a card registered by a
                     simulated NFC tap, initiative by tap, turns, Strigoi steps, phase 3, round 3
  bench N            benchmarks/ui.py: N decisions by touch, timed (see that script)
  first-frame        print the time of the first drawn frame and exit (cold start)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    from companion.app.node_options import add_node_arguments

    parser = argparse.ArgumentParser(prog="python -m ui")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--fullscreen", action="store_true")
    parser.add_argument(
        "--kiosk",
        action="store_true",
        help="fullscreen, no mouse cursor, the unfinished game resumed at start (hardware/pi)",
    )
    parser.add_argument("--script", nargs="+", metavar="ARG")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="screenshots of a play/hold script")
    add_node_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from companion.app.node_options import hardware_from_args
    from companion.boardfile import load_board_file

    hardware, publisher = hardware_from_args(parser, args, load_board_file())
    width, height = args.size.split("x")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if args.fullscreen or args.kiosk else "0")
    if args.kiosk:
        Config.set("graphics", "show_cursor", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")

    from companion.app.voice import Silent
    from ui.app import ArmataApp

    # scripts are silent (their sentences are still recorded); the table app speaks
    app = ArmataApp(
        hardware=hardware,
        speaker=Silent() if args.script else None,
        resume_last=args.kiosk,
        publisher=publisher,
    )
    if args.script:
        _script(app, args.script, args.seed, args.out)
    else:
        from ui.app import data_dir

        print(
            f"Armata Strigoi table companion: {app.hardware.description}, "
            f"game log and settings in {data_dir() / 'companion.db'}",
            flush=True,
        )
    app.run()
    return 0


def _script(app: object, script: list[str], seed: int, out: Path | None) -> None:
    from companion.app import i18n
    from ui.driver import Driver

    name, rest = script[0], script[1:]
    directory = Path(rest[0]) if name == "shots" else out
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    driver = Driver(app, directory)  # type: ignore[arg-type]
    app.fixed_seed = seed  # type: ignore[attr-defined]
    table = app.hardware.table  # type: ignore[attr-defined]
    if table is not None:
        table.step_s = 0.02  # scripted hands turn platforms quickly (the readers' debounce stays)
    if name == "shots":
        for lang in i18n.LANGUAGES:
            driver.then(lambda lang=lang: driver.language(lang))
            driver.shots_of_every_screen(lang, seed)
        driver.then(lambda: driver.language("en"))
    elif name in ("play", "hold"):
        count = int(rest[0])
        driver.then(lambda: app.new_game(seed))  # type: ignore[attr-defined]
        for i in range(count):
            driver.then(driver.play_one)
            if out is not None and i % 10 == 0:
                driver.then(lambda i=i: driver.shoot(f"play-{i:03d}"))
        driver.then(driver.summary)
        if name == "hold":
            driver.then(driver.hold)
    elif name == "round":
        driver.full_round(rest[0] if rest else "04a1b2c3d4e5f6")
        if out is not None:
            driver.then(lambda: driver.shoot("after-round"))
    elif name == "bench":
        from ui.driver import Bench

        bench = Bench(driver)
        driver.then(lambda: app.new_game(seed))  # type: ignore[attr-defined]
        for _ in range(30):  # on the round screen, before the game could end
            driver.then(bench.measure_banner_frame)
        for _ in range(int(rest[0])):
            driver.then(bench.measure_step)
        driver.then(bench.measure_bare_redraw)
        driver.then(bench.measure_zoomed_redraw)
        driver.then(lambda: bench.rest(3.0))
        driver.then(bench.report)
    elif name == "first-frame":
        import json
        import time

        from kivy.clock import Clock

        def first_frame(_dt: float) -> None:
            print(json.dumps({"first_frame": time.time()}), flush=True)
            app.stop()  # type: ignore[attr-defined]

        Clock.schedule_once(first_frame, 0)  # runs after the first frame is drawn
        return
    elif name in ("buttons", "resync", "cards"):
        from ui.driver_table import cards_and_fix, pi_buttons, resync_by_touch

        scripts = {"buttons": pi_buttons, "resync": resync_by_touch, "cards": cards_and_fix}
        scripts[name](driver)
        driver.then(driver.summary)
    elif name == "report":
        driver.then(driver.summary)
    elif name == "health":
        driver.health()
    elif name == "resume":
        driver.then(lambda: driver.press("Resume game"))
        driver.then(driver.summary)
        driver.then(lambda: driver.shoot("resumed"))
    else:
        raise SystemExit(f"unknown script {name!r}")
    driver.start()


if __name__ == "__main__":
    sys.exit(main())
