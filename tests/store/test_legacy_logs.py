"""Game logs written before tasks were typed (issue 17): a real SQLite log and a real export
made by the previous version, read by this one, give the state this engine plays to.

`tests/data/legacy-untyped-tasks.*` hold the first 48 commands of a simulated two-player game
(seed 298) whose tasks used every old meaning of the shared fields: a monk's grey monster
(reason "monk"), Stealth spent before the flip ("spent"), a monster's wound and a weapon's
wound icon (a protect task's reason), a Strigoi token's bonus (a strigoi_resolve's "wounds")."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import msgspec

from companion.app.session.game import GameSession
from companion.engine.game import Game, GameRules, commands, new_game
from companion.engine.game.tasks import EncounterTask, ProtectTask, StrigoiResolveTask
from companion.store.gamelog import GameLog
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data"
EXPORT = DATA / "legacy-untyped-tasks.jsonl"
#: the commands this engine plays as the old one did: at the end of the round of command 39,
#: Falk Maria's empty hand took back the card she had just played, which R-RND-4 forbids (fixed
#: in issue 31); the log keeps what was played then (events are the record)
SAME_RULES = 38
TOTAL = 48


def replayed_by_this_engine(
    log: GameLog, game_id: str, upto: int = SAME_RULES
) -> tuple[Game, list[bytes]]:
    """The export's first `upto` commands played again by today's engine from the same seed and
    seats, and the state after each command (encoded; index 0: the start)."""
    session = GameSession(log, game_id)
    record = log.game(game_id)
    rules: GameRules = session.rules
    game = Game(rules, [new_game(rules, record.seed, [tuple(s) for s in record.seats])])
    states = [msgspec.json.encode(game.state)]
    for line in EXPORT.read_text().splitlines()[2 : 2 + upto]:
        game.execute(commands.parse_command(json.loads(line)["command"]))
        states.append(msgspec.json.encode(game.state))
    return game, states


def old_task_fields() -> set[str]:
    found = set()
    for line in EXPORT.read_text().splitlines()[1:]:
        data = json.loads(line)
        for event in [data["event"]] if "event" in data else data["events"]:
            for task in event.get("tasks", []) + event.get("then", []):
                if task.get("reason") is not None or (
                    task["kind"] == "strigoi_resolve" and task.get("wounds")
                ):
                    found.add(f"{task['kind']}:{task.get('reason') or 'wounds'}")
    return found


def test_the_fixture_holds_every_old_meaning() -> None:
    kinds = {x.split(":")[0] for x in old_task_fields()}
    reasons = {x.split(":")[1] for x in old_task_fields()}
    assert {"encounter", "stealth_choice", "protect", "strigoi_resolve"} <= kinds
    assert {"monk", "spent", "own", "wounds"} <= reasons


def test_an_old_export_imports_as_the_game_this_engine_plays(tmp_path: Path) -> None:
    with GameLog(tmp_path / "new.sqlite") as log:
        game_id = log.import_jsonl(EXPORT.read_text().splitlines())
        imported = log.state(game_id, SAME_RULES)
        game, _ = replayed_by_this_engine(log, game_id)
        assert msgspec.json.encode(imported) == msgspec.json.encode(game.state)
        last = log.commands(game_id)[SAME_RULES - 1].last_event
        assert log.events(game_id, upto=last) == game.events  # every event, the tasks typed
        assert log.game(game_id).head == TOTAL
        tasks = [t for ev in log.events(game_id) for t in getattr(ev, "tasks", [])]
        assert any(isinstance(t, EncounterTask) and t.monk for t in tasks)
        assert any(isinstance(t, StrigoiResolveTask) and t.bonus > 0 for t in tasks)
        assert {t.cause for t in tasks if isinstance(t, ProtectTask)} >= {"wound_icon"}


def test_an_old_database_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with gzip.open(DATA / "legacy-untyped-tasks.db.gz") as packed, path.open("wb") as out:
        shutil.copyfileobj(packed, out)
    with GameLog(path) as log:  # opening applies m003_typed_tasks
        (record,) = log.games()
        _, states = replayed_by_this_engine(log, record.id)
        resumed = GameSession.resume(log)
        assert resumed is not None
        assert log.replay_from_scratch(record.id) == resumed.state
        assert log.db.execute("select count(*) from snapshots").fetchone()[0] >= 2
        assert len(states) == SAME_RULES + 1 and record.head == TOTAL
        for head, expected in enumerate(states):  # every head, through the migrated snapshots
            assert msgspec.json.encode(log.state(record.id, head)) == expected
        payloads = [r["payload"] for r in log.db.query("select payload from events")]
        assert not any('"reason":"monk"' in p or '"reason":"spent"' in p for p in payloads)
