"""armata-transcript/1: the hand-written transcripts pass, exported games replay, and a broken
transcript says which file, step and field (docs/transcripts.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.__main__ import main
from companion.app.session.game import GameSession
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import commands as c
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.state import STACKS
from companion.selfplay import SimReport, play_one
from companion.store.gamelog import GameLog
from companion.transcript import dumps, export_game, replay_bytes, replay_file, transcript_of
from companion.transcript.names import Names

HAND_WRITTEN = Path(__file__).parents[1] / "transcripts"
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
        {"hero": "Roel", "choose": "Son of the Wolf", "refused": True},  # chosen already
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


# ----- issue 31: set-up steps, expectations on all visible state, refusals, the only choice ------
ROEL_CARDS = [
    "Murder at Midnight",
    "Nightside of Siberia",
    "Prayer in the Dark",
    "Son of the Wolf",
    "Werewolves of Armenia",
    "When the Moon Shines Red",
]


def test_a_set_up_step_sets_every_part_it_names(tmp_path: Path) -> None:
    steps: list[dict[str, Any]] = [
        {
            "set up": {
                "hand": {"Roel": ["Son of the Wolf", "Sword", "Fire & Forgive"]},
                "reward tokens": {"Roel": ["token +1", "token +1"]},
                "wounds": {"Matthew": ["wound", "double wound"]},
                "fight markers": ["east room, 2 east 1 north-east"],
                "face up": {"red": "red monster, strength 5 (blood)"},
                "ladders": ["Roel's ladder"],
                "positions": {"Matthew": "west room, 1 east"},
                "altar": 3,
            },
            "expect": {
                "hand": {"Roel": ["Fire & Forgive", "Son of the Wolf", "Sword"]},
                "discard": {"Roel": [x for x in ROEL_CARDS if x != "Son of the Wolf"]},
                "advanced": {"Roel": ["Fire & Forgive"]},
                "reward tokens": {"Roel": ["token +1", "token +1"]},
                "wounds": {"Matthew": 3},
                "fight markers": ["east room, 2 east 1 north-east"],
                "face up": {"red": "red monster, strength 5 (blood)", "grey": None},
                "ladders": ["Roel's ladder"],
                "positions": {"Matthew": "west room, 1 east"},
                "altar": 3,
                "inferno": 0,
            },
        },
        {"set up": {"discard": {"Roel": []}}, "expect": {"discard": {"Roel": []}}},
    ]
    outcome = replay_file(_write(tmp_path, steps))
    assert outcome.ok, [p.line("f") for p in outcome.problems]


@pytest.mark.parametrize(
    ("step", "line"),
    [
        (
            {"set up": {"hand": {"Roel": ["Sun of the Wolf"]}}},
            "ERROR f: step 1: field 'set up.hand.Roel': no hand component 'Sun of the Wolf' left",
        ),
        (
            {"set up": {"hands": {}}},
            "ERROR f: step 1: field 'set up': unknown key 'hands'",
        ),
        (
            {"set up": {"strigoi wounds": {"Master": 1}}},
            "ERROR f: step 1: field 'set up.strigoi wounds.Master': refused: ",  # round 1: none
        ),
        (
            {"set up": {"hand": {"Roel": ["Son of the Wolf", "Son of the Wolf"]}}},
            "ERROR f: step 1: field 'set up.hand.Roel': no hand component 'Son of the Wolf' left",
        ),
        (
            {"expect": {"hand": {"Charles": []}}},
            "ERROR f: step 1: field 'expect.hand.Charles': not in this game (known: Roel, Matthew)",
        ),
        (
            {"expect": {"wounds": {"Roel": [["wound"]]}}},
            "ERROR f: step 1: field 'expect.wounds.Roel': a list holds names or numbers",
        ),
        (
            {"expect": {"removed": {"contains": "Sword"}}},
            "ERROR f: step 1: field 'expect.removed': 'contains' takes a list",
        ),
        (
            {"hero": "Roel", "choose": "Son of the Wolf", "during": [{"after": "moon rise"}]},
            'ERROR f: step 1: field \'during[0]\': {"after": <event>, "expect": {...}}',
        ),
        (
            {
                "hero": "Roel",
                "choose": "Son of the Wolf",
                "during": [{"after": "moon rise", "expect": {}}],
            },
            "ERROR f: step 1: field 'during[0].after': unknown event 'moon rise'",
        ),
        (
            {
                "hero": "Roel",
                "choose": "Son of the Wolf",
                "during": [{"after": "round ended", "expect": {}}],
            },
            'FAIL f: step 1: during[0].after: expected "round ended", got "no such event (any '
            'more)"',
        ),
        (
            {
                "hero": "Roel",
                "choose": "Son of the Wolf",
                "during": [{"after": "card chosen", "expect": {"round": 2}}],
            },
            "FAIL f: step 1: during[0].round: expected 2, got 1",
        ),
    ],
)
def test_every_kind_of_mistake_names_file_step_and_field(
    tmp_path: Path, step: dict[str, Any], line: str
) -> None:
    outcome = replay_file(_write(tmp_path, [step]))
    assert outcome.problems, "the mistake went unnoticed"
    assert outcome.problems[0].line("f").startswith(line), outcome.problems[0].line("f")


def test_contains_and_one_of(tmp_path: Path) -> None:
    hand = {"Roel": {"contains": ["Son of the Wolf", "Prayer in the Dark"]}}
    good = {"hand": hand, "round": {"one of": [1, 2]}, "wounds": {"Roel": {"one of": [0, 1]}}}
    assert replay_file(_write(tmp_path, [{"expect": good}])).ok
    bad = {"hand": {"Roel": {"contains": ["Sword"]}}, "phase": {"one of": ["turns", "curse"]}}
    outcome = replay_file(_write(tmp_path, [{"expect": bad}]))
    assert [p.field for p in outcome.problems] == ["hand.Roel", "phase"]


def test_a_card_not_in_the_hand_is_a_refusal_the_transcript_can_expect(tmp_path: Path) -> None:
    steps = [
        {"set up": {"discard": {"Roel": ["Son of the Wolf"]}}},
        {"hero": "Roel", "choose": "Son of the Wolf", "refused": "not an action card"},
        {"hero": "Roel", "choose": "Son of the Wolf"},
    ]
    outcome = replay_file(_write(tmp_path, steps))
    assert [p.line("f") for p in outcome.problems] == [
        'ERROR f: step 3: refused: {"do":"choose_card","hero":"roel","card":"roel/son-of-the-wolf"}'
        " refused: 'roel/son-of-the-wolf' is not an action card in roel's hand"
    ]


def test_a_step_naming_the_only_choice_is_that_choice(tmp_path: Path) -> None:
    steps: list[dict[str, Any]] = [
        {"set up": {"hand": {"Roel": ["Murder at Midnight", "Son of the Wolf"]}}},
        {"hero": "Roel", "choose": "Son of the Wolf"},
        {"hero": "Matthew", "choose": "Nightside of Siberia"},
        {"hero": "Roel", "move": "east room, 2 east 1 north-east"},
        {"hero": "Roel", "draw": "red monster, strength 5 (blood)"},
        {"hero": "Roel", "fight": True, "note": "after the Stealth flip; lost, no Protection"},
        {"hero": "Roel", "protect": [], "note": "the engine took the wound itself: the same"},
        {"expect": {"wounds": {"Roel": 1}}},
    ]
    outcome = replay_file(_write(tmp_path, steps))
    assert outcome.ok, [p.line("f") for p in outcome.problems]
    steps[6] = {"hero": "Roel", "protect": ["played card"]}  # not what the engine did
    outcome = replay_file(_write(tmp_path, steps))
    assert outcome.problems[0].step == 7 and "refused" in (outcome.problems[0].error or "")


def test_one_bad_transcript_never_stops_the_others(tmp_path: Path, capsys: Any) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    bad = _write(tmp_path, [{"expect": {"positions": {"Charles": "Roel's ladder"}}}])
    bad.rename(folder / "a-bad.json")
    (folder / "b-bytes.json").write_bytes(b'{"format": "\xff\xfe"}')
    good = _write(tmp_path, [{"expect": {"round": 1}}])
    good.rename(folder / "c-good.json")
    assert main(["replay", str(folder)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"ERROR {folder / 'a-bad.json'}: step 1: field 'expect.positions")
    assert lines[1].startswith(f"ERROR {folder / 'b-bytes.json'}: not UTF-8 text")
    assert lines[2].startswith("PASS probe") and lines[-1] == "1 passed, 2 failed"


def test_set_up_corrections_export_and_replay(tmp_path: Path) -> None:
    rules = GameRules(FORTRESS, load_catalog(), GameOptions())
    from companion.engine.game.setup import new_game

    seats = [("roel", "L1"), ("matthew", "L2")]
    started = new_game(rules, 3, seats)
    commands: list[c.Command] = [
        c.SetCards(hero="roel", hand=["roel/son-of-the-wolf", "sword"], wounds=["wound-2"]),
        c.SetCards(hero="matthew", reward_tokens=["token-shield-1"], discard=[]),
        c.SetFightMarkers(cells=[FORTRESS.centre("E")]),
        c.SetFaceUp(stack="grey", token="grey-03"),
        c.SetLadders(ladders=["L1", "L2"]),
        c.ChooseCard(hero="roel", card="roel/son-of-the-wolf"),
    ]
    transcript = transcript_of(rules, started, seats, commands, "set up")
    assert [next(iter(s)) for s in transcript["steps"][:5]] == ["set up"] * 5
    outcome = replay_bytes(dumps(transcript).encode(), "export")
    assert outcome.ok, [p.line("export") for p in outcome.problems]
    last = transcript["steps"][-1]["expect"]
    names = Names(FORTRESS, rules.catalog, seats)
    assert last["hand"]["Roel"] == ["Son of the Wolf", "Sword"]  # chosen, not yet revealed
    assert last["wounds"]["Roel"] == ["wound"]
    assert last["face up"]["grey"] == names.token("grey-03")
    assert last["reward tokens"]["Matthew"] == [names.card("token-shield-1")]


def test_docs_name_every_verb_set_up_part_expectation_and_form() -> None:
    from companion.transcript.expect import FORMS, KEYS
    from companion.transcript.steps import SETUP_KEYS, VERBS

    text = (Path(__file__).parents[2] / "docs" / "transcripts.md").read_text("utf-8")
    missing = [x for x in (*VERBS, *SETUP_KEYS, *KEYS, *FORMS, "during") if f"`{x}`" not in text]
    assert not missing, missing


def test_a_fix_naming_a_wound_the_hero_has_not_is_a_refusal(tmp_path: Path) -> None:
    steps = [
        {"fix": "remove wound", "hero": "Roel", "token": "shock", "refused": "has no wound"},
        {"fix": "remove wound", "hero": "Roel", "token": "scratch"},
    ]
    outcome = replay_file(_write(tmp_path, steps))
    assert [p.line("f") for p in outcome.problems] == [
        "ERROR f: step 2: field 'fix': unknown wound 'scratch' (known here: none)"
    ]
