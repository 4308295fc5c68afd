"""`python -m tests.ui_driver [app options] --script NAME ...`: the touchscreen app driven by
scripted touches and simulated NFC taps for the tests (under Xvfb); each script prints a JSON
report and exits. The app's own options (`python -m ui --help`) apply.

  shots DIR TEXT LANGS [DIR TEXT LANGS ...]
                     one walk through every screen for each DIR: at TEXT size (normal or
                     large), each segment of the walk (tests/support/sweeps.py SEGMENTS) in its
                     language of LANGS (comma-separated), saved as DIR/<screen>-<lang>.png,
                     with the layout checks (text larger than its widget, touch targets under
                     48 px, ...); the report's screens are named <DIR's name>/<screen>-<lang>
  play N             new game by touch, then N decisions by touch; the report says what happened
  hold N             like play, then print the report and wait (to be killed mid-turn)
  resume             press Resume and report the game as it came back
  seat-link HERO DIR a new game; the seat link of HERO's phone, as "My phone" makes it,
                     written to DIR/link; the app runs on until DIR/looked exists
  resume-until FILE  press Resume, then keep the app running until FILE exists (a test looks
                     at a phone meanwhile)
  report             report the game and screen as the app started (with --kiosk: resumed)
  health             wait until every node is online, open the Hardware screen, report its text
  health-until TEXT  open the Hardware screen, wait until its text contains TEXT, report it
  buttons            the Pi's Next, Confirm and Undo on mock pins act on the game; the status
                     LED blinks while a node is unplugged (table_scripts.py)
  resync             a bumped platform answered on the Resync screen by touch, both ways
  cards              two announcements of one command read card after card; Fix a Strigoi
  hero DIR [LANG..]  the hero panel in every language (or those given): the secret hand
                     behind its button, a card played from it, the reveal, rewards and
                     wounds, an ability used, a figure tapped on the card reader
  round [UID]        the end-to-end round: setup wizard by touch with a card registered by a
                     simulated NFC tap, initiative by tap, turns, Strigoi steps, phase 3, round 3
  story-check N      N random commands; every card read by touch, the board, banner and story
                     order checked before each touch (story_scripts.py)
  story-shots DIR [large] [KIND=LANG,LANG ...]
                     each kind of card (Strigoi attack, nobody seen, curse with heroes and with
                     nobody, phase 3 skipped, fights won and lost, monk, wounds) in every
                     language, or in those given for it; `large`: with the Text size setting on
                     large
  bench N            benchmarks/ui.py: N decisions by touch, timed, and more until one
                     Strigoi step was tapped (bench.py)
  games N            N games back to back, each played to its end by touch: the resident
                     memory after each and the live objects by type (bench.py)
  collections N      two games of N decisions each by touch while another thread allocates:
                     every run of Python's collector and the thread that made it; off Kivy's
                     thread, the Kivy objects it freed (collector_script.py)
  first-frame        print the time of the first drawn frame (its flip) and the resident
                     memory then, then the same once the table service runs, and exit (cold
                     start)
  log-problem ACTION on a log the table must not play on: report the problem screen (its
                     texts, the layout checks, a screenshot in --out), then press ACTION:
                     fresh | export (then quit) | continue | quit; a table that starts then
                     runs the report script
  speak N            with --voice: in each language a new game and N decisions, the voice
                     waited for; the report says what was said, in which language
  stale              Redo brings its card back; New game over an unfinished one asks first
                     and starts from the last group; Home after a finished game is clean
  settings           open Settings and report its texts (the voice's trouble shows there)
  update-news        the page the table opens on after an update recorded its outcome,
                     then OK (update_news_script.py)
  usb [LANG]         Settings' and Hardware's USB stick buttons by touch, the stick a folder
                     in $ARMATA_USB_ROOT: back up, restore, import, report (usb_script.py)
  wizard DIR [RUN..] the setup wizard in every language at normal and large text, or in the
                     runs given ("de", "fr-large"): five players, a room tapped, three ladders
                     by touch, stacks and languages as check boxes (wizard_script.py)
  board DIR [RUN..]  the whole fortress with five heroes crowded in one room, every language
                     at normal and large text, or in the runs given ("de", "fr-large"); then
                     turns by touch, noting which room the board shows for the hero the game
                     waits for (board_scripts.py)
  why DIR [LANG] [large]  a game by touch, Why? opened after each decision that has reasons,
                     every layout check run on it (why_scripts.py)
  protection DIR [LANG ...]
                     at large text, a hero asked to block with Protection: the card that asks,
                     the choice, the block by touch and its confirmation, per language
                     (protection_scripts.py)
  placement DIR [LANG ...]
                     round 1 by touch, then round 2's Strigoi placement card in each language
                     (default en, de), rings settled, saved in DIR; then read by touch, the
                     to-dos done by hand (placement_scripts.py)
  resumed-table      Resume pressed on a game of round 2 or later on the simulated board;
                     after the alert time, what the strip, the watch and the rings show
  home DIR [LANG ...] Home with the saved game's board, its language buttons by touch, every
                     text size step chosen in Settings and by More… > Text size, the round
                     screen at 150 % in each language (default en, de) (home_scripts.py)
  finger DIR         nothing moves under a finger: places kept while a strip comes and goes,
                     a tap just after it closed, the secret hand's question, a tap held back,
                     the busy sign of a slow Undo (finger_scripts.py)
  phones DIR         the Phones view (table view's code, a hero's "my phone", revoked) by touch
                     from Home and Hardware, saved in DIR (phone_scripts.py)

--voice speaks through the voice the settings choose (espeak-ng on PATH, which the tests replace
by a stand-in that records its calls); without it the sentences are only recorded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from ui.__main__ import build_parser, make_app


def queue_script(app: Any, script: list[str], seed: int, out: Path | None) -> None:
    """Queue the steps of `script` on a driver of `app` (run once the app is up)."""
    if script[0] == "first-frame":  # before the driver: its imports are not the app's
        import json
        import time

        from kivy.clock import Clock

        def rss() -> float:
            with open("/proc/self/status") as status:  # the resident memory (VmRSS, kB)
                return next(int(x.split()[1]) for x in status if x.startswith("VmRSS:")) / 1024

        def ready(_dt: float) -> None:  # the table service runs (ui/app.py `_start_table`)
            if not app.table_started:
                return
            print(json.dumps({"table_ready": time.time(), "rss_mb": rss()}), flush=True)
            waiting.cancel()
            app.stop()

        def drawn(window: Any) -> None:  # the first frame is on the screen
            window.unbind(on_flip=drawn)
            frame = {"first_frame": time.time(), "rss_mb": rss(), "cpu_s": time.process_time()}
            print(json.dumps(frame), flush=True)

        def first_tick(_dt: float) -> None:  # the window is up; its first flip follows
            from kivy.core.window import Window

            Window.bind(on_flip=drawn)

        Clock.schedule_once(first_tick, 0)
        waiting = Clock.schedule_interval(ready, 0)
        return
    from companion.app.words import i18n
    from tests.ui_driver.driver import Driver

    name, rest = script[0], script[1:]
    # DIR is the first argument of these
    into_first = (
        "shots", "story-shots", "wizard", "phones", "hero", "board", "why", "placement",
        "protection", "home", "finger",
    )  # fmt: skip
    directory = Path(rest[0]) if name in into_first else out
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
    driver = Driver(app, directory)
    if name != "finger":  # a scripted finger taps as soon as two frames are alike: no hand is
        from ui.widgets.touch_guard import MovedAreas  # that fast (the guard's hold: 0 for it)

        MovedAreas.hold_s = 0.0
    app.fixed_seed = seed
    table = app.hardware.table
    if table is not None:
        table.step_s = 0.02  # scripted hands turn platforms quickly (the readers' debounce stays)
    if name == "shots":
        if len(rest) % 3:
            raise SystemExit("shots: DIR TEXT LANGS, for each walk")
        for start in range(0, len(rest), 3):
            walk, text, langs = rest[start : start + 3]
            driver.walk_every_screen(Path(walk), text, langs.split(","), seed)
        driver.then(driver.note_round_layout)
    elif name in ("play", "hold"):
        count = int(rest[0])
        driver.then(lambda: app.new_game(seed))
        for i in range(count):
            driver.then(driver.play_one)
            if out is not None and i % 10 == 0:
                driver.then(lambda i=i: driver.shoot(f"play-{i:03d}"))
        if rest[1:] == ["health"]:  # then what the Hardware screen says of the phones' server
            driver.health_until("Phones' page")
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
        viewers = int(os.environ.get("ARMATA_BENCH_VIEWERS", "0"))
        if viewers:  # benchmarks/ui.py: the browsers' pages connect first
            driver.then(lambda: bench.wait_for_viewers(viewers))
        driver.then(lambda: app.new_game(seed))
        for _ in range(30):  # on the round screen, before the game could end
            driver.then(bench.measure_banner_frame)
        for _ in range(int(rest[0])):
            driver.then(bench.measure_step)
        driver.then(bench.until_a_strigoi_tap)  # every figure has one at least
        driver.then(bench.measure_bare_redraw)
        driver.then(bench.measure_zoomed_redraw)
        driver.then(lambda: bench.rest(3.0))
        driver.then(bench.report)
    elif name == "games":
        from tests.ui_driver.bench import Games

        Games(driver, int(rest[0]), seed)
    elif name == "collections":
        from tests.ui_driver.collector_script import collections_while_playing

        collections_while_playing(driver, 2, int(rest[0]), seed)
    elif name in ("buttons", "resync", "cards", "stale"):
        from tests.ui_driver.table_scripts import (
            cards_and_fix,
            nothing_stale,
            pi_buttons,
            resync_by_touch,
        )

        scripts = {
            "buttons": pi_buttons,
            "resync": resync_by_touch,
            "cards": cards_and_fix,
            "stale": nothing_stale,
        }
        scripts[name](driver)
        driver.then(driver.summary)
    elif name in ("story-check", "story-shots"):
        from tests.ui_driver.story_scripts import story_check, story_shots

        if name == "story-check":
            story_check(driver, int(rest[0]), seed)
        else:
            driver.then(lambda: driver.text_size("large" if "large" in rest[1:] else "normal"))
            chosen = dict(a.split("=", 1) for a in rest[1:] if "=" in a)
            langs = {kind: value.split(",") for kind, value in chosen.items()}
            story_shots(driver, seed, langs or None)
        driver.then(driver.summary)
    elif name == "phones":
        from tests.ui_driver.phone_scripts import phones

        assert directory is not None
        phones(driver, directory, seed)
    elif name == "speak":
        for lang in i18n.LANGUAGES:
            driver.then(lambda lang=lang: driver.language(lang))
            driver.then(lambda: app.new_game(seed))
            for _ in range(int(rest[0])):
                driver.then(driver.play_one)
            driver.then(lambda: driver.wait_for_voice(30))
        driver.then(driver.summary)
    elif name == "settings":
        driver.then(lambda: app.new_game(seed))
        driver.then(lambda: driver.play_until_announcement(60))
        driver.then(lambda: driver.wait_for_voice(10))
        driver.then(lambda: app.open_settings())
        driver.then(lambda: driver.wait_until("the voice's trouble", app.service.troubles.__bool__))
        driver.then(driver.page_texts)
        driver.then(lambda: driver.shoot("settings-voice-trouble"))
        driver.then(driver.summary)
    elif name == "wizard":
        from tests.ui_driver.wizard_script import setup_wizard

        setup_wizard(driver, directory, rest[1:])
    elif name == "hero":
        from tests.ui_driver.hero_scripts import hero_session

        hero_session(driver, seed, rest[1:])
        driver.then(driver.summary)
    elif name == "board":
        from tests.ui_driver.board_scripts import board_session

        board_session(driver, seed, rest[1:])
        driver.then(driver.summary)
    elif name == "why":
        from tests.ui_driver.why_scripts import why_session

        languages = [a for a in rest[1:] if a in i18n.LANGUAGES] or ["fr"]
        why_session(driver, seed, languages[0], "large" in rest[1:])
        driver.then(driver.summary)
    elif name == "update-news":
        from tests.ui_driver.update_news_script import update_news_session

        update_news_session(driver)
    elif name == "usb":
        from tests.ui_driver.usb_script import usb_session

        usb_session(driver, rest[0] if rest else "en")
    elif name in ("placement", "resumed-table"):
        from tests.ui_driver.placement_scripts import placement, resumed_table

        if name == "placement":
            placement(driver, seed, rest[1:] or ["en", "de"])
        else:
            resumed_table(driver)
        driver.then(driver.summary)
    elif name == "protection":
        from tests.ui_driver.protection_scripts import protection

        protection(driver, seed, rest[1:] or ["en", "de"])
        driver.then(driver.summary)
    elif name == "home":
        from tests.ui_driver.home_scripts import home_and_text_steps

        home_and_text_steps(driver, rest[1:] or ["en", "de"])
        driver.then(driver.summary)
    elif name == "finger":
        from tests.ui_driver.finger_scripts import finger

        finger(driver)
        driver.then(driver.summary)
    elif name == "report":
        driver.then(driver.summary)
    elif name == "health":
        driver.health()
    elif name == "health-until":
        driver.health_until(rest[0])
    elif name == "seat-link":
        driver.then(lambda: app.new_game(seed))
        looked = Path(rest[1]) / "looked"
        driver.then(lambda: (Path(rest[1]) / "link").write_text(app.web_feed.seat_link(rest[0])))
        driver.then(lambda: driver.wait_until(str(looked), looked.exists, frames=1200))
        driver.then(driver.summary)
    elif name == "resume-until":
        driver.then(lambda: driver.press("Resume game"))
        driver.then(lambda: driver.wait_until(rest[0], Path(rest[0]).exists, frames=1200))
        driver.then(driver.summary)
    elif name == "resume":
        driver.then(lambda: driver.press("Resume game"))
        driver.then(driver.summary)
        driver.then(lambda: driver.shoot("resumed"))
    else:
        raise SystemExit(f"unknown script {name!r}")
    driver.start()


#: the problem screen's buttons, by the action a script names
PROBLEM_BUTTONS = {
    "fresh": "Keep it aside and start a fresh log",
    "export": "Export what can be read",
    "continue": "View the games without playing",
    "restore": "Go back to the last backup this version can read",
    "quit": "Quit",
}


def log_problem(args: Any) -> int | None:
    """The `log-problem ACTION` script; returns the exit code when the app ends there."""
    import json

    from ui.__main__ import configure_window, face_log_problem

    configure_window(args)  # before Kivy is imported: its window, no argument parsing
    from kivy.clock import Clock
    from kivy.uix.label import Label

    from companion.app.words import i18n
    from tests.ui_driver.checks import (
        broken_words,
        overflowing_labels,
        small_texts,
        small_touch_targets,
        walk,
    )
    from tests.ui_driver.touch import find_button, tap

    action = args.script[1]
    report: dict[str, Any] = {"screens": {}}

    def shoot(app: Any, name: str) -> None:
        root = app.root
        entry: dict[str, Any] = {
            "texts": [w.text for w in walk(root) if isinstance(w, Label) and w.text],
            "overflow": overflowing_labels(root),
            "small_targets": small_touch_targets(root),
            "small_texts": small_texts(root),
            "broken_words": broken_words(root),
        }
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            path = args.out / f"{name}.png"
            root.export_to_png(str(path))
            entry["png"] = str(path)
        report["screens"][name] = entry

    def ready(app: Any, last: Any = None, frames: int = 0) -> None:
        """Once the layout has settled (two frames alike), as the driver's steps wait."""
        layout = [(*w.pos, *w.size, *getattr(w, "texture_size", ())) for w in walk(app.root)]
        if layout != last and frames < 100:
            Clock.schedule_once(lambda _dt: ready(app, layout, frames + 1), 0)
            return
        shoot(app, "log-problem")
        report["pressed"] = action
        tap(find_button(app.root, i18n.tr(PROBLEM_BUTTONS[action])))
        if action == "export":  # the result is shown on the screen; then quit

            def after(_dt: float) -> None:
                shoot(app, "log-problem-exported")
                report["exported"] = [str(p) for p in app.exported]
                tap(find_button(app.root, i18n.tr("Quit")))

            Clock.schedule_once(after, 0.3)

    code = face_log_problem(args, ready)
    report["exit_code"] = code
    print(json.dumps(report), flush=True)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    parser.prog = "python -m tests.ui_driver"
    parser.add_argument("--script", nargs="+", metavar="ARG", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, help="screenshots of a play/hold script")
    parser.add_argument("--voice", action="store_true", help="speak (default: only record)")
    args = parser.parse_args(argv)
    if args.script[0] == "log-problem":
        code = log_problem(args)
        if code is not None:
            return code
        args.script = ["report"]
    app = make_app(parser, args, silent=not args.voice)
    queue_script(app, args.script, args.seed, args.out)
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
