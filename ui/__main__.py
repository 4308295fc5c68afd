"""`python -m ui [--size 800x480] [--screenshots DIR]`: the touchscreen app.

`--screenshots DIR` renders every screen in every language, saves `DIR/<screen>-<lang>.png`, runs
the layout checks, prints a JSON report and exits (used by the tests, under Xvfb).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui")
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--screenshots", type=Path)
    parser.add_argument("--fullscreen", action="store_true")
    args = parser.parse_args(argv)
    width, height = args.size.split("x")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("graphics", "width", width)
    Config.set("graphics", "height", height)
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if args.fullscreen else "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")

    from ui.app import ArmataApp

    app = ArmataApp()
    if args.screenshots is not None:
        _schedule_screenshots(app, args.screenshots)
    app.run()
    return 0


def _schedule_screenshots(app: object, directory: Path) -> None:
    from kivy.clock import Clock

    from ui import i18n
    from ui.checks import overflowing_labels, small_touch_targets

    directory.mkdir(parents=True, exist_ok=True)
    report: dict[str, object] = {"screens": {}}
    jobs = [(lang, screen) for lang in i18n.LANGUAGES for screen in ("home", "hardware")]

    def step(index: int) -> None:
        if index == len(jobs):
            print(json.dumps(report), flush=True)
            app.stop()  # type: ignore[attr-defined]
            return
        lang, screen = jobs[index]
        app.switch_language(lang)  # type: ignore[attr-defined]
        app.show(screen)  # type: ignore[attr-defined]

        def shoot(_dt: float) -> None:
            root = app.root  # type: ignore[attr-defined]
            path = directory / f"{screen}-{lang}.png"
            root.export_to_png(str(path))
            report["screens"][f"{screen}-{lang}"] = {  # type: ignore[index]
                "png": str(path),
                "overflow": overflowing_labels(root),
                "small_targets": small_touch_targets(root),
            }
            Clock.schedule_once(lambda _dt: step(index + 1), 0)

        Clock.schedule_once(shoot, 0.3)

    Clock.schedule_once(lambda _dt: step(0), 1.0)


if __name__ == "__main__":
    sys.exit(main())
