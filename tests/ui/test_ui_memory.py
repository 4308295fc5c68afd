"""Memory: giving freed memory back when the table is idle (ui/memory.py): on glibc it really
returns pages, and the resident size after freeing a large heap drops; games played back to back
leave nothing behind; the start imports only what the first frame needs. (The figures, against
a bare Kivy window, are in benchmarks/ui.py.)"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import PYTHON, ROOT
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # a memory probe process

PROBE = """
import json
from ui.memory import release_free_memory

def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

blocks = [bytearray(2000) for _ in range(40_000)]  # ~80 MB in small heap blocks
keep = blocks[-1]
before = rss_kb()
del blocks
freed = rss_kb()
gave_back = release_free_memory()
print(json.dumps({"before": before, "freed": freed, "after": rss_kb(), "gave_back": gave_back}))
"""


def test_freed_heap_memory_goes_back_to_the_system() -> None:
    done = subprocess.run(
        [PYTHON, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["gave_back"] is True
    assert figures["after"] < figures["freed"] - 40_000  # at least 40 MB of the 80 returned


PROBE_CYCLES = """
import gc, json
from ui.memory import release_free_memory

def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

gc.disable()  # as between the collector's own runs: the counters have not said so yet
class Node:
    def __init__(self):
        self.me = self  # a reference cycle, as every Kivy widget is in
        self.data = bytearray(2000)
nodes = [Node() for _ in range(40_000)]  # ~80 MB held by cycles
before = rss_kb()
del nodes  # unreachable, not freed: only the collector frees cycles
release_free_memory()
trimmed = rss_kb()
release_free_memory(collect=True)
print(json.dumps({"before": before, "trimmed": trimmed, "collected": rss_kb()}))
"""


def test_after_a_game_the_trim_gives_back_what_its_cycles_held() -> None:
    """What a left game's widgets and states held stays in reference cycles until Python's
    collector runs: the plain idle trim cannot give it back; the trim after a game
    collects first."""
    done = subprocess.run(
        [PYTHON, "-c", PROBE_CYCLES],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["trimmed"] > figures["before"] - 10_000  # the cycles still hold their memory
    assert figures["collected"] < figures["before"] - 40_000  # at least 40 MB of the 80 back


def test_games_played_back_to_back_leave_nothing_behind(tmp_path: Path) -> None:
    """A kiosk plays game after game: what a game showed goes with it. Each hero panel shown
    used to stay alive (its card tiles and their textures, ~45 MB a game), every
    announcement of every game stayed in the service with the board it showed, and then the
    last game's until the next began."""
    from tests.ui.test_ui import ui

    games = ui("games", "2", data=tmp_path, timeout_s=900)["games"]
    assert len(games["rss_mb"]) == 2 and all(steps > 20 for steps in games["steps"])
    first, *_, last = games["widgets"]
    assert last <= first + 30, games["widgets"]  # a hand's tiles alone were ~50 a game
    # a finished game left (Home): the service keeps none of its announcements (each holds the
    # game state its card showed); the few last cards the round screen showed stay alive until
    # the next game (2-3 here), never a whole game's
    for alive, of_the_game in games["announcements"]:
        assert of_the_game == 0 and alive <= 5, games["announcements"]


PROBE_IMPORTS = """
import os, sys
os.environ["KIVY_NO_ARGS"] = "1"
import ui.__main__, ui.app, companion.app.devices.node_options, companion.app.devices.voice
parser = ui.__main__.build_parser()
ui.__main__.make_app(parser, parser.parse_args([]), silent=True)  # the app, not run
later = ("aiohttp", "paho", "markdown_it", "segno", "sqlite_utils", "gpiozero", "babel")
later += ("companion.app.service", "companion.engine.game", "ui.screens.round.screen")
print(sorted(m for m in later if m in sys.modules))
"""


def test_the_first_frame_does_not_import_what_it_does_not_show() -> None:
    """The web server (aiohttp), the broker client (paho-mqtt, without --mqtt), the rules
    reference's Markdown parser and the QR codes load when used, not at start; the table
    service, the engine's game, the store (sqlite-utils), the Pi's pins (gpiozero) and the
    round screen in the frame after the first (ui/app.py `_start_table`); Babel only to
    compile a catalog not compiled yet."""
    done = subprocess.run(
        [PYTHON, "-c", PROBE_IMPORTS],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        check=True,
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout


PROBE_SCROLL = """
import os
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget
from ui.widgets.scrolling import ScrollArea

for cls in (ScrollView, ScrollArea):
    view = cls()
    view.add_widget(Widget(size_hint_y=None, height=1000))
    for _ in range(20):
        view.update_from_scroll()  # a list refilled or scrolled: an update each frame
    print(cls.__name__, len(view.get_property_observers("bar_color")))
"""


def test_a_scrolled_list_keeps_one_bar_colour_binding() -> None:
    """Kivy's ScrollView binds its bar colour again at every update (and unbinds it once when
    the bar fades): the app's ScrollArea keeps one. Kivy's own is measured too, so a Kivy that
    fixes it shows here."""
    done = subprocess.run(
        [PYTHON, "-c", PROBE_SCROLL],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        check=True,
    )
    counts = dict(line.split() for line in done.stdout.strip().splitlines()[-2:])
    assert counts["ScrollArea"] == "1", counts
    assert int(counts["ScrollView"]) > 1, counts  # the leak worked around is still Kivy's
