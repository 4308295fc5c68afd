"""The command line: board show, the demo, error reporting."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import PYTHON, ROOT, SCENARIOS
from tests.support.processes import limit


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "companion", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(120),
    )


def test_board_show_draws_the_default_fortress() -> None:
    done = run("board", "show")
    assert done.returncode == 0
    assert "L---" in done.stdout and "---L" in done.stdout  # ladders on the outer doors
    assert done.stdout.count("L") >= 5
    assert "NW  centre [0, -7]  platform p1 rotation 1, Strigoi mark" in done.stdout


def test_board_show_places_figures_from_a_scenario() -> None:
    scenario = SCENARIOS / "rulebook-examples" / "moon-shines-red-E.json"
    done = run("board", "show", "--state", str(scenario))
    assert done.returncode == 0
    picture = done.stdout.split("legend:")[0]
    for glyph in "RMVv":
        assert picture.count(glyph) == 1, glyph


def test_board_show_reads_other_board_files(tmp_path: Path) -> None:
    board = json.loads((SCENARIOS / "movement" / "basic.json").read_text())["board"]
    path = tmp_path / "hall.json"
    path.write_text(json.dumps(board))
    done = run("board", "show", str(path))
    assert done.returncode == 0
    assert "s---.---.---.---.---r---.---L" in done.stdout


def test_malformed_board_file_names_path_and_field(tmp_path: Path) -> None:
    board = json.loads((SCENARIOS / "movement" / "basic.json").read_text())["board"]
    board["layout"]["ladders"][0]["side"] = 9
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(board))
    done = run("board", "show", str(path))
    assert done.returncode == 2
    assert "layout.ladders[0].side: must be 0-5, got 9" in done.stderr
    path.write_text("{")
    done = run("board", "show", str(path))
    assert done.returncode == 2 and f"{path} is not JSON" in done.stderr


def test_demo_shows_the_fortress_and_a_strigoi_turn() -> None:
    done = run()
    assert done.returncode == 0
    assert "[R-TEL-2] book E in SE points W" in done.stdout
    assert "=> Matthew takes 3 wounds unless protected." in done.stdout
    assert "Threat map for Matthew" in done.stdout


def test_the_default_job_runs_a_simulated_board() -> None:
    done = run()
    assert done.returncode == 0
    out = done.stdout
    assert "Board hardware (simulated" in out
    # rings in words, nodes by their rooms: no LED dictionaries, no node ids
    assert "platform pulses red at 86 % brightness." in out and "{" not in out
    assert "The card reader read the tag 04a1b2c3d4e5f6." in out
    for room in ("East", "North-east", "North-west", "South-east", "South-west", "West"):
        assert f"  {room} room platform: online" in out
    assert "  Centre room: online" in out  # no platform there (R-TEL-3), its node is the room's
    assert "  Card reader: online" in out and "room-" not in out
    assert "Refused input: none" in out
