"""The scenario runner contract (SCENARIOS.md): output lines, --json records, exit status."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import pytest

from companion.scenario.match import mismatches, same
from tests.conftest import PYTHON, ROOT, SCENARIOS
from tests.support.processes import limit

BASIC = SCENARIOS / "teleport" / "basic.json"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "companion", "scenario", "run", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(120),
    )


def test_every_project_scenario_passes() -> None:
    done = run_cli(str(SCENARIOS))
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    passed = [line for line in lines if line.startswith("PASS ")]
    assert len(passed) >= 40
    assert lines[-1] == f"{len(passed)} passed, 0 failed"


def test_scenarios_cover_every_rule_family() -> None:
    cited: set[str] = set()
    for path in SCENARIOS.rglob("*.json"):
        cited |= set(json.loads(path.read_text()).get("rules", []))
    wanted = {f"R-TEL-{i}" for i in range(1, 9)} | {"R-LOS-1", "R-LOS-2", "R-LOS-4"}
    wanted |= {"R-CUR-1", "R-COL-1", "R-COL-2", "R-COL-3"} | {f"R-MOV-{i}" for i in range(1, 6)}
    assert wanted <= cited, sorted(wanted - cited)


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    good = json.loads(BASIC.read_text())
    bad = copy.deepcopy(good)
    bad["name"] = "wrong destination on purpose"
    bad["expect"]["to"] = "SW"
    bad["expect"]["bounced"] = True
    (tmp_path / "a-good.json").write_text(json.dumps(good))
    (tmp_path / "b-bad.json").write_text(json.dumps(bad))
    (tmp_path / "c-broken.json").write_text("{not json")
    (tmp_path / "notes.txt").write_text("ignored: not a .json file")
    return tmp_path


def test_text_output_lines_and_exit_status(mixed: Path) -> None:
    done = run_cli(str(mixed))
    lines = done.stdout.strip().splitlines()
    assert done.returncode == 1
    assert lines[0] == "PASS master jumps to the room its book points to"
    assert lines[1] == (
        'FAIL wrong destination on purpose: to: expected "SW", got "NW"; '
        "bounced: expected true, got false"
    )
    assert lines[2].startswith(f"ERROR {mixed / 'c-broken.json'}: not JSON")
    assert lines[3] == "1 passed, 2 failed"
    assert len(lines) == 4


def test_json_output_one_record_per_scenario(mixed: Path) -> None:
    done = run_cli(str(mixed), "--json")
    records = [json.loads(line) for line in done.stdout.strip().splitlines()]
    assert done.returncode == 1
    assert [r["ok"] for r in records] == [True, False, False]
    for record in records:
        assert {"file", "name", "ok", "result", "mismatches"} <= record.keys()
    assert records[0]["result"]["to"] == "NW"
    assert {"moved", "to", "bounced", "ladder_destroyed", "attack", "blood_lost", "relocate"} <= (
        records[0]["result"].keys()
    )
    assert records[1]["mismatches"][0] == {"key": "to", "expected": "SW", "got": "NW"}
    assert "not JSON" in records[2]["error"]


def test_only_passing_files_exit_zero() -> None:
    done = run_cli(str(BASIC))
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        "PASS master jumps to the room its book points to",
        "1 passed, 0 failed",
    ]


def test_no_scenario_is_not_success(tmp_path: Path) -> None:
    """Issue 28: an empty folder says that no scenario was found (not "0 passed")."""
    done = run_cli(str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: no scenario found in {tmp_path} (no *.json file)"


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    done = run_cli(str(tmp_path / "nope.json"))
    assert done.returncode == 1
    assert done.stdout.startswith(f"ERROR {tmp_path / 'nope.json'}: cannot read")


def test_invalid_board_names_the_json_path(tmp_path: Path) -> None:
    data = json.loads(BASIC.read_text())
    data["board"]["tiles"]["open"]["corridors"][2][1] = [5, 5]
    (tmp_path / "s.json").write_text(json.dumps(data))
    done = run_cli(str(tmp_path))
    assert "ERROR" in done.stdout
    assert "board.tiles.open.corridors[2][1]: not adjacent to [0, 0]" in done.stdout


def test_result_holds_every_key_of_each_action() -> None:
    keys = {
        "strigoi_turn": {
            "moved",
            "to",
            "bounced",
            "ladder_destroyed",
            "attack",
            "blood_lost",
            "relocate",
        },
        "line_of_sight": {"visible"},
        "curse": {"moved", "to", "cursed", "ladder_destroyed", "blood_lost", "relocate"},
        "collapse": {"collapsed", "blood_lost", "relocate", "leapt", "strigoi_moved_to"},
        "reachable": {"ends"},
    }
    done = run_cli(str(SCENARIOS), "--json")
    seen: set[str] = set()
    for line in done.stdout.splitlines():
        record = json.loads(line)
        action = json.loads(Path(record["file"]).read_text())["action"]["do"]
        if record["result"] is None or "error" in record["result"]:
            continue
        seen.add(action)
        assert keys[action] <= record["result"].keys(), record["file"]
    assert seen == set(keys)


@pytest.mark.parametrize(
    ("expected", "got", "equal"),
    [
        (True, 1, False),
        (1, 1.0, True),
        ([1, 2], [1, 2], True),
        ([1, 2], [2, 1], False),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        (None, None, True),
        ("1", 1, False),
    ],
)
def test_exact_equality_keeps_json_types_apart(expected: object, got: object, equal: bool) -> None:
    assert same(expected, got) is equal


def test_subset_matching_is_recursive_for_objects_only() -> None:
    result = {"attack": {"hero": "roel", "distance": 2, "wounds": 3}, "relocate": ["a", "b"]}
    assert mismatches({"attack": {"hero": "roel"}}, result) == []
    assert [m.key for m in mismatches({"attack": {"hero": "matthew"}}, result)] == ["attack.hero"]
    assert [m.key for m in mismatches({"relocate": ["a"]}, result)] == ["relocate"]
    assert [m.key for m in mismatches({"nope": 1}, result)] == ["nope"]
    assert [m.key for m in mismatches({"attack": None}, result)] == ["attack"]
