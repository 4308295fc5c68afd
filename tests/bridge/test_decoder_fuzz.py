"""Issue 28, item 6: every decoder of a file the table reads, fed mutated valid inputs and random
bytes (Hypothesis, a bounded number of examples each): nothing escapes the error root
(`CompanionError`; the bridge's own `BridgeError` for its files), and every error names the
file. A failed game-log import leaves nothing behind. The node protocol and framing are fuzzed
in tests/bridge/test_protocol.py; they are run here once more over mutated frames of every type."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.app.session.game import GameSession
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.errors import CompanionError
from companion.scenario.runner import run_file
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from companion.store.settings import DEFAULTS, Settings
from firmware_bridge import protocol as p
from firmware_bridge.access import broker_access
from firmware_bridge.errors import BridgeError
from firmware_bridge.framing import FrameDecoder, frame
from hardware.pi.controls import load_pins
from tests.conftest import ROOT, SCENARIOS

FUZZ = settings(
    # bounded for the suite; ARMATA_FUZZ_EXAMPLES=20000 for a long hunt
    max_examples=int(os.environ.get("ARMATA_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,  # the same examples on every run: a bounded, repeatable time
    derandomize=not os.environ.get("ARMATA_FUZZ_EXAMPLES"),
)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*here, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*here, i))
    return found


@st.composite
def mutated_json(draw: st.DrawFn, valid: Any) -> bytes:
    """A valid document with one to three values replaced, removed or retyped, or its bytes
    flipped, cut or spliced: the mistakes of a hand-edited or damaged file."""
    how = draw(st.sampled_from(["values", "values", "bytes", "random"]))
    if how == "random":
        return draw(st.binary(max_size=400))
    if how == "bytes":
        data = bytearray(json.dumps(valid).encode())
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, max(len(data) - 1, 0)))
            action = draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
            if action == "flip" and data:
                data[at] = draw(st.integers(0, 255))
            elif action == "cut":
                del data[at : at + draw(st.integers(1, 20))]
            elif action == "insert":
                data[at:at] = draw(st.binary(min_size=1, max_size=8))
            else:
                del data[at:]
        return bytes(data)
    document = json.loads(json.dumps(valid))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(document)
        path = draw(st.sampled_from(paths))
        if not path:
            document = draw(JSON_VALUES)
            continue
        holder = document
        for key in path[:-1]:
            holder = holder[key]
        if draw(st.booleans()) and isinstance(holder, dict):
            holder.pop(path[-1], None)
        else:
            holder[path[-1]] = draw(JSON_VALUES)
    return json.dumps(document).encode()


def only_errors_of(root: type[Exception], call: Callable[[], object], file: Path) -> None:
    try:
        call()
    except root as error:
        assert str(file) in str(error) or file.name in str(error), error


FORTRESS = load_board_file()
BOARD = json.loads((ROOT / "companion" / "data" / "default-fortress.json").read_text())
CATALOG = json.loads((ROOT / "companion" / "data" / "catalog.json").read_text())
SCENARIO = json.loads((SCENARIOS / "rulebook-examples" / "moon-shines-red-E.json").read_text())


@FUZZ
@given(data=mutated_json(BOARD))
def test_board_files(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "board.json"
    path.write_bytes(data)
    only_errors_of(CompanionError, lambda: load_board_file(path), path)


@FUZZ
@given(data=mutated_json(SCENARIO["state"]))
def test_state_files(tmp_path: Path, data: bytes) -> None:
    from companion.__main__ import situation_for

    path = tmp_path / "state.json"
    path.write_bytes(data)
    only_errors_of(CompanionError, lambda: situation_for(FORTRESS, str(path)), path)


@FUZZ
@given(data=mutated_json(SCENARIO))
def test_scenario_files(tmp_path: Path, data: bytes) -> None:
    """A scenario that cannot be read is an ERROR line of the run, never an exception."""
    path = tmp_path / "scenario.json"
    path.write_bytes(data)
    outcome = run_file(path, load_catalog().damage())
    assert outcome.file == str(path)
    assert outcome.ok or outcome.error is not None or outcome.mismatches


@FUZZ
@given(data=mutated_json(CATALOG))
def test_catalog_files(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "catalog.json"
    path.write_bytes(data)
    only_errors_of(CompanionError, lambda: load_catalog(path), path)


CREDENTIALS = {
    "users": {"app-t1": "secret", "node-t1-room-c": "other"},
    "tls_port": 8883,
    "ca": "/nonexistent/ca.crt",
}


@FUZZ
@given(data=mutated_json(CREDENTIALS), port=st.sampled_from([1883, 8883]))
def test_credentials_files(tmp_path: Path, data: bytes, port: int) -> None:
    path = tmp_path / "credentials.json"
    path.write_bytes(data)
    only_errors_of(BridgeError, lambda: broker_access(f"localhost:{port}", path, "app-t1"), path)


def test_a_credentials_file_naming_a_ca_too_long_for_the_system(tmp_path: Path) -> None:
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps({"users": {"app": "x"}, "tls_port": 8883, "ca": "c" * 5000}))
    with pytest.raises(BridgeError, match="ca: missing or not a file"):
        broker_access("localhost:8883", path, "app")
    long_name = tmp_path / ("n" * 300)
    with pytest.raises(BridgeError, match="cannot read"):
        broker_access("localhost:8883", long_name, "app")


PINS = {"confirm": 17, "undo": 27, "next": 22, "buzzer": 18, "status_led": 23, "bounce_s": 0.05}


@FUZZ
@given(data=mutated_json(PINS))
def test_pin_files(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "pins.json"
    path.write_bytes(data)
    only_errors_of(CompanionError, lambda: load_pins(path), path)


@pytest.fixture(scope="module")
def export_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    with GameLog(tmp_path_factory.mktemp("export") / "source.db") as log:
        session = GameSession.start(log, 8, [("roel", "L1"), ("matthew", "L2")])
        for _ in range(12):
            session.execute(session.legal_commands()[0])
        return list(log.export_jsonl(session.game_id))


@FUZZ
@given(data=st.data())
def test_game_log_imports_are_all_or_nothing(
    tmp_path: Path, export_lines: list[str], data: st.DataObject
) -> None:
    """A mutated line (or random bytes) in a game export: a StoreError naming the line, and
    not a row of the game behind; an intact export imports whole."""
    lines = list(export_lines)
    n = data.draw(st.integers(0, len(lines) - 1))
    lines[n] = data.draw(mutated_json(json.loads(lines[n]))).decode("utf-8", "replace")
    path = tmp_path / "import.db"
    with GameLog(path) as log:
        before = [log.db.execute(f"select count(*) from {t}").fetchone()[0]
                  for t in ("games", "commands", "events", "snapshots")]  # fmt: skip
        try:
            game_id = log.import_jsonl(lines, source="game.jsonl")
        except CompanionError as error:
            assert "game.jsonl" in str(error)
            after = [log.db.execute(f"select count(*) from {t}").fetchone()[0]
                     for t in ("games", "commands", "events", "snapshots")]  # fmt: skip
            assert after == before
        else:
            log.state(game_id)  # what was imported reads back


def _huge_seed(lines: list[str]) -> list[str]:
    first = json.loads(lines[1])
    first["event"]["state"]["seed"] = 10**30  # too large for SQLite's integers
    return [lines[0], json.dumps(first), *lines[2:]]


IMPORT_FAILURES: dict[str, Callable[[list[str]], list[str]]] = {
    "a list for a header": lambda lines: ["[]", *lines[1:]],
    "a list for an event line": lambda lines: [*lines[:3], "[]", *lines[4:]],
    "a seed SQLite cannot hold": _huge_seed,
    "a header number too large for a float": lambda lines: [
        lines[0].replace('"seed": 8', '"seed": 1e400'),
        *lines[1:],
    ],
}


@pytest.mark.parametrize("name", sorted(IMPORT_FAILURES))
def test_the_import_failures_the_issue_names(
    tmp_path: Path, export_lines: list[str], name: str
) -> None:
    with GameLog(tmp_path / "import.db") as log:
        with pytest.raises(CompanionError, match=r"x\.jsonl"):
            log.import_jsonl(IMPORT_FAILURES[name](export_lines), source="x.jsonl")
        assert log.games() == []


def test_an_import_whose_events_do_not_fold_leaves_nothing(
    tmp_path: Path, export_lines: list[str]
) -> None:
    """Events in an order the game cannot fold (a card revealed twice: list.remove fails)."""
    lines = list(export_lines)
    reveal = next(i for i, line in enumerate(lines) if '"cards_revealed"' in line)
    lines.insert(reveal + 1, lines[reveal])
    with GameLog(tmp_path / "import.db") as log:
        with pytest.raises(CompanionError, match="game export: line"):
            log.import_jsonl(lines)
        assert log.games() == []
        for table in ("games", "commands", "events", "snapshots"):
            assert log.db.execute(f"select count(*) from {table}").fetchone()[0] == 0


@FUZZ
@given(key=st.sampled_from(sorted(DEFAULTS)), stored=st.text(max_size=40) | st.binary(max_size=40))
def test_settings_values(tmp_path: Path, key: str, stored: str | bytes) -> None:
    """Whatever is stored for a setting, reading it never raises (a bad value: the default)."""
    with GameLog(tmp_path / "settings.db") as log:
        with log.db.conn:
            log.db.execute("insert or replace into settings (key, value) values (?, ?)",
                           [key, stored])  # fmt: skip
        Settings(log.db).get(key)


@FUZZ
@given(uid=st.text(max_size=30), kind=st.text(max_size=15), target=st.text(max_size=30))
def test_nfc_registry(tmp_path: Path, uid: str, kind: str, target: str) -> None:
    with GameLog(tmp_path / "nfc.db") as log:
        registry = NfcRegistry(log.db)
        with contextlib.suppress(CompanionError):  # a refused binding is fine; nothing else
            registry.bind(uid, kind, target)
        registry.lookup(uid)


@FUZZ
@given(vector=st.sampled_from(["hello", "led", "tag_present", "button", "status"]), data=st.data())
def test_protocol_and_framing(vector: str, data: st.DataObject) -> None:
    messages: dict[str, p.Message] = {
        "hello": p.Hello(node="room-c", seq=1, kind="room", firmware="1.0"),
        "led": p.Led(node="room-c", seq=2, colour="#ff0000", pattern="pulse"),
        "tag_present": p.TagPresent(node="room-c", seq=3, reader=1, uid="04a1b2c3"),
        "button": p.Button(node="room-c", seq=4, button="confirm", pressed=True),
        "status": p.Status(node="room-c", seq=5, state="online"),
    }
    payload = json.loads(p.encode_message(messages[vector]))
    mutated = data.draw(mutated_json(payload))
    drops = p.DropCounter()
    p.decode_message(mutated, drops)  # decoded or dropped and counted: never raised
    decoder = FrameDecoder()
    decoder.feed(frame(mutated)[: data.draw(st.integers(1, len(frame(mutated))))] + b"\x00")
