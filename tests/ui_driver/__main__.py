"""`python -m tests.ui_driver [app options] --script NAME ...`: the touchscreen app driven by
scripted touches and simulated NFC taps for the tests (under Xvfb); each script prints a JSON
report and exits. The app's own options (`python -m ui --help`) apply.

  shots DIR          every screen in every language saved as DIR/<screen>-<lang>.png, with the
                     layout checks (text larger than its widget, touch targets under 48 px)
  play N             new game by touch, then N decisions by touch; the report says what happened
  hold N             like play, then print the report and wait (to be killed mid-turn)
  resume             press Resume and report the game as it came back
  report             report the game and screen as the app started (with --kiosk: resumed)
  health             wait until every node is online, open the Hardware screen, report its text
  buttons            the Pi's Next, Confirm and Undo on mock pins act on the game; the status
                     LED blinks while a node is unplugged (table_scripts.py)
  resync             a bumped platform answered on the Resync screen by touch, both ways
  cards              two announcements of one command read card after card; Fix a Strigoi
  hero DIR [LANG..]  the hero panel in every language (or those given): the secret hand
                     behind its button, a card played from it, the reveal, rewards and
                     wounds, an ability used, a figure tapped on the card reader
  round [UID]        the end-to-end round: setup wizard by touch with a card registered by a
                     simulated NFC tap, initiative by tap, turns, Strigoi steps, phase 3, round 3
  bench N            benchmarks/ui.py: N decisions by touch, timed (bench.py)
  first-frame        print the time of the first drawn frame and exit (cold start)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from ui.__main__ import build_parser, make_app


def queue_script(app: Any, script: list[str], seed: int, out: Path | None) -> None:
    """Queue the steps of `script` on a driver of `app` (run once the app is up)."""
    from companion.app import i18n
    from tests.ui_driver.driver import Driver

    name, rest = script[0], script[1:]
    directory = Path(rest[0]) if name in ("shots", "hero") else out
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    driver = Driver(app, directory)
    app.fixed_seed = seed
    table = app.hardware.table
    if table is not None:
        table.step_s = 0.02  # scripted hands turn platforms quickly (the readers' debounce stays)
    if name == "shots":
        for lang in i18n.LANGUAGES:
            driver.then(lambda lang=lang: driver.language(lang))
            driver.shots_of_every_screen(lang, seed)
        driver.then(lambda: driver.language("en"))
    elif name in ("play", "hold"):
        count = int(rest[0])
        driver.then(lambda: app.new_game(seed))
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
        from tests.ui_driver.bench import Bench

        bench = Bench(driver)
        driver.then(lambda: app.new_game(seed))
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
            app.stop()

        Clock.schedule_once(first_frame, 0)  # runs after the first frame is drawn
        return
    elif name in ("buttons", "resync", "cards"):
        from tests.ui_driver.table_scripts import cards_and_fix, pi_buttons, resync_by_touch

        scripts = {"buttons": pi_buttons, "resync": resync_by_touch, "cards": cards_and_fix}
        scripts[name](driver)
        driver.then(driver.summary)
    elif name == "hero":
        from tests.ui_driver.hero_scripts import hero_session

        hero_session(driver, seed, rest[1:])
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


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    parser.prog = "python -m tests.ui_driver"
    parser.add_argument("--script", nargs="+", metavar="ARG", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="screenshots of a play/hold script")
    args = parser.parse_args(argv)
    app = make_app(parser, args, silent=True)  # the sentences are recorded, not spoken
    queue_script(app, args.script, args.seed, args.out)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
