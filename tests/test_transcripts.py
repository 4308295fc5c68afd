"""armata-transcript/1: the hand-written transcripts pass, exported games replay, and a broken
transcript says which file, step and field (docs/transcripts.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.__main__ import main
from companion.app.session import GameSession
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import commands as c
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.state import STACKS
from companion.selfplay import SimReport, play_one
from companion.store.gamelog import GameLog
from companion.transcript import dumps, export_game, replay_bytes, replay_file, transcript_of
from companion.transcript.names import Names

HAND_WRITTEN = Path(__file__).parent / "transcripts"
FORTRESS = load_board_file()


@pytest.mark.parametrize(
    "path", sorted(HAND_WRITTEN.glob("*.json")), ids=lambda p: p.stem
)  # fmt: skip
def test_hand_written_transcript_passes(path: Path) -> None:
    outcome = replay_file(path)
    assert outcome.ok, [p.line(outcome.file) for p in outcome.problems]
    data = json.loads(path.read_text("utf-8"))
    assert outcome.steps == len(data["steps"])


def test_there_are_enough_hand_written_transcripts() -> None:
    files = sorted(HAND_WRITTEN.glob("*.json"))
    assert len(files) >= 10
    rules_cited = {r for f in files for r in json.loads(f.read_text("utf-8")).get("rules", [])}
    assert {"R-TEL-2", "R-LOS-2", "R-LOS-4", "R-TEL-4", "R-ENC-6", "R-CUR-1"} <= rules_cited


def _seats_of(rules: GameRules, started: Any) -> list[tuple[str, str]]:
    by_cell = {ladder.cell: lid for lid, ladder in rules.fortress.ladders.items()}
    return [(h.hero, by_cell[h.at]) for h in sorted(started.state.heroes, key=lambda h: h.seat)]


@pytest.mark.slow
@pytest.mark.parametrize("physical", [False, True], ids=["digital", "physical"])
def test_every_simulated_game_replays_from_its_export(physical: bool) -> None:
    rules = GameRules(
        FORTRESS,
        load_catalog(),
        GameOptions(physical=frozenset(STACKS) if physical else frozenset()),
    )
    games = 300 if not physical else 60
    for seed in range(1, games + 1):
        commands: list[c.Command] = []
        report = SimReport()
        started = play_one(rules, seed, 2 + seed % 4, report, check=False, record=commands)
        assert not report.problems
        transcript = transcript_of(rules, started, _seats_of(rules, started), commands, "sim")
        outcome = replay_bytes(dumps(transcript).encode(), f"seed {seed}")
        assert outcome.ok, [p.line(outcome.file) for p in outcome.problems][:3]
        assert outcome.steps == len(commands)
        last = transcript["steps"][-1]["expect"]
        assert last["winner"] in ("heroes", "strigoi")


def _write(tmp_path: Path, steps: list[dict[str, Any]], **setup: Any) -> Path:
    data = {
        "format": "armata-transcript/1",
        "name": "probe",
        "setup": {
            "seats": [
                {"hero": "Roel", "ladder": "east room, east side"},
                {"hero": "Matthew", "ladder": "west room, west side"},
            ],
            "physical": ["red", "grey", "strigoi"],
            **setup,
        },
        "steps": steps,
    }
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(data), "utf-8")
    return path


def test_a_refused_step_stops_the_transcript_and_says_why(tmp_path: Path) -> None:
    path = _write(tmp_path, [{"hero": "Roel", "stay": True}])
    outcome = replay_file(path)
    assert [p.line("f") for p in outcome.problems] == [
        'ERROR f: step 1: refused: {"do":"stay","hero":"roel"} refused: the game waits '
        "for choose (every player)"
    ]


def test_a_step_marked_refused_passes_when_the_engine_refuses_it(tmp_path: Path) -> None:
    steps = [
        {"hero": "Roel", "stay": True, "refused": "waits for choose"},
        {"hero": "Roel", "choose": "Son of the Wolf", "expect": {"round": 1}},
        {"hero": "Roel", "choose": "Nightside of Siberia", "refused": True},
    ]
    assert replay_file(_write(tmp_path, steps)).ok
    steps[2] = {"hero": "Matthew", "choose": "Son of the Wolf", "refused": True}
    outcome = replay_file(_write(tmp_path, steps))
    assert [p.line("f") for p in outcome.problems] == [
        'FAIL f: step 3: refused: expected true, got "accepted"'
    ]


def test_a_failed_expectation_names_step_field_expected_and_actual(tmp_path: Path) -> None:
    steps = [
        {"hero": "Roel", "choose": "Son of the Wolf"},
        {"hero": "Matthew", "choose": "Nightside of Siberia"},
        {
            "expect": {
                "waiting for": "Roel to move",
                "positions": {"Roel": "centre of the east room"},
            }
        },
    ]
    outcome = replay_file(_write(tmp_path, steps))
    assert [p.line("f") for p in outcome.problems] == [
        'FAIL f: step 3: positions.Roel: expected "centre of the east room", got "Roel\'s ladder"'
    ]


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (
            {"hero": "Rool", "choose": "x"},
            "field 'hero': unknown hero 'Rool' (known: Attila; Charles",
        ),
        ({"hero": "Roel", "choose": "Sun of the Wolf"}, "unknown card of Roel 'Sun of the Wolf'"),
        ({"hero": "Roel", "chose": "x"}, "unknown field 'chose'"),
        ({"hero": "Roel"}, "names no verb"),
        ({"expect": {"altar ": 1}}, "unknown expectation 'altar '"),
        ({"fix": "position", "hero": "Roel", "to": "kitchen"}, "a space is '<hero>'s ladder'"),
        ({"fix": "strigoi", "strigoi": "Count", "room": "east room"}, "unknown Strigoi 'Count'"),
    ],
)
def test_malformed_steps_say_what_exists(
    tmp_path: Path, step: dict[str, Any], message: str
) -> None:
    outcome = replay_file(_write(tmp_path, [step]))
    assert len(outcome.problems) == 1
    assert outcome.problems[0].step == 1 and message in (outcome.problems[0].error or ""), (
        outcome.problems[0].error
    )


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"seats": [{"hero": "Roel", "ladder": "east room, north side"}]}, "unknown direction"),
        ({"physical": ["blood"]}, "setup.physical"),
        ({"platforms": {"east room": "book Z faces east"}}, "setup.platforms"),
        ({"seed": "one"}, "setup.seed"),
    ],
)
def test_malformed_setups_name_the_field(
    tmp_path: Path, setup: dict[str, Any], message: str
) -> None:
    outcome = replay_file(_write(tmp_path, [], **setup))
    assert outcome.problems[0].step is None and message in (outcome.problems[0].error or "")


def test_space_names_read_back_to_the_same_space() -> None:
    names = Names(FORTRESS, load_catalog(), [("roel", "L1")])
    board = FORTRESS.initial_state()
    for cell in FORTRESS.spaces(board):
        assert names.space_id(names.space(cell)) == cell
    for room in FORTRESS.platforms:
        for rotation in range(6):
            assert names.rotation_id(room, names.turn(room, rotation)) == rotation


def test_a_stored_game_exports_and_replays_and_the_cli_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "companion.db"
    with GameLog(db) as log:
        session = GameSession.start(log, 5, [("roel", "L1"), ("matthew", "L2")])
        for _ in range(40):  # a real SQLite log, played by its legal commands
            legal = session.legal_commands()
            if not legal:
                break
            session.execute(legal[0])
        game_id = session.game_id
        transcript = export_game(log, game_id)
    assert transcript["steps"] and "expect" in transcript["steps"][-1]
    out = tmp_path / "game.json"
    assert main(["export", game_id, "--db", str(db), "-o", str(out)]) == 0
    assert main(["export", "last", "--db", str(db), "-o", str(tmp_path / "last.json")]) == 0
    assert (tmp_path / "last.json").read_text("utf-8") == out.read_text("utf-8")
    capsys.readouterr()
    assert main(["replay", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"
    broken = tmp_path / "broken.json"
    broken.write_text(out.read_text("utf-8").replace('"Roel"', '"Rool"', 1), "utf-8")
    assert main(["replay", str(broken), "--json"]) == 1
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["ok"] is False and "unknown hero 'Rool'" in line["problems"][0]["error"]
