"""Issue 28, item 5: one id rule (firmware_bridge.ids) wherever an id becomes a topic, a login,
an ACL line or a file name — provisioning (table and node ids, logins), the bridge (node ids, the
table of its topics), the app's options and the board file (room ids name nodes) — each bad id
refused with an error naming what is wrong and where. Before, provisioning wrote 12 of these 13
kinds into the ACL, and `--table '+'` gave a node user write access to every table's topics."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.devices.node_options import SERVE_APP, add_node_arguments, hardware_from_args
from companion.boardfile import load_board_file
from companion.errors import BoardFormatError
from firmware_bridge.bridge import Bridge
from firmware_bridge.errors import BadId, BridgeError
from firmware_bridge.ids import ID_RULE, check_id, check_login, id_problem
from firmware_bridge.mqtt_link import GamePublisher
from firmware_bridge.serial_link import SerialLink
from firmware_bridge.topics import app_user, game_topic, node_topic, node_user, screen_user
from hardware.mosquitto import provision as prov
from tests.support.processes import limit

# (kind, id, words the error must contain)
BAD_IDS: list[tuple[str, str, str]] = [
    ("plus", "+", "wildcard"),
    ("hash", "#", "wildcard"),
    ("slash", "t1/node", "topic levels"),
    ("nul", "t\x001", "control character"),
    ("empty", "", "empty"),
    ("space", "t 1", "space"),
    ("tab", "t\t1", "space"),
    ("newline", "t1\nuser app.t1", "space"),
    ("non-ascii", "tävla", "ASCII"),
    ("too-long", "t" * 33, "33 characters"),
    ("upper-case", "T1", "upper-case"),
    ("leading-dash", "-t1", "start with"),
    ("dot", "t.1", "login"),
    ("colon", "t:1", "password file"),
    ("underscore", "t_1", "'_'"),
]
GOOD_IDS = ["t1", "a", "0", "room-ne", "cards", "x" * 32, "9-lives", "table-2"]
IDS = [c[1] for c in BAD_IDS]
KINDS = [c[0] for c in BAD_IDS]


@pytest.mark.parametrize(("bad", "words"), [c[1:] for c in BAD_IDS], ids=KINDS)
def test_the_rule_says_what_is_wrong(bad: str, words: str) -> None:
    problem = id_problem(bad)
    assert problem is not None and words in problem, problem
    with pytest.raises(BadId, match="table id") as error:
        check_id("table id", bad)
    assert isinstance(error.value, BridgeError) and isinstance(error.value, ValueError)
    assert "allowed: 1-32 of a-z, 0-9 and '-'" in str(error.value)


@pytest.mark.parametrize("good", GOOD_IDS)
def test_good_ids_pass(good: str) -> None:
    assert id_problem(good) is None and check_id("node id", good) == good


def test_the_protocol_schema_uses_the_same_rule() -> None:
    from firmware_bridge import protocol as p

    ping = b'{"type":"ping","v":1,"seq":1,"node":"%s","t":1}'
    for good in GOOD_IDS:
        assert p.decode_message(ping % good.encode(), p.DropCounter()) is not None
    for bad in IDS:
        if '"' not in bad and "\\" not in bad and "\x00" not in bad and "\n" not in bad:
            assert p.decode_message(ping % bad.encode(), p.DropCounter()) is None, bad
    assert ID_RULE in p.NodeId.__metadata__[0].pattern  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", IDS, ids=KINDS)
def test_topics_and_logins_refuse_a_bad_table_or_node(bad: str) -> None:
    for make in (
        lambda: node_topic(bad, "room-ne", "cmd"),
        lambda: node_topic("t1", bad, "cmd"),
        lambda: game_topic(bad, "state"),
        lambda: app_user(bad),
        lambda: app_user(bad, 2),
        lambda: node_user(bad, "room-ne"),
        lambda: node_user("t1", bad),
        lambda: screen_user(bad, 1),
    ):
        with pytest.raises(BadId):
            make()


def test_logins() -> None:
    assert app_user("t1") == "app.t1" and app_user("t1", 2) == "app.t1.2"
    for good in ("app.t1", "app.t1.2", "screen.t1.1", "node.t1.room-ne"):
        assert check_login(good) == good
    for bad in ("app", "app.", "app.+", "app.t1.#", "root.t1", "node.t1", "screen.t1", "a.b.c.d"):
        with pytest.raises(BadId, match="login"):
            check_login(bad)


@pytest.mark.parametrize("bad", IDS, ids=KINDS)
def test_provisioning_refuses_a_bad_table_id_and_writes_nothing(bad: str, tmp_path: Path) -> None:
    out = tmp_path / "broker"
    with pytest.raises(BadId, match="table id"):
        prov.provision(out, {bad: ["room-a"]})
    assert not out.exists()


@pytest.mark.parametrize("bad", IDS, ids=KINDS)
def test_provisioning_refuses_a_bad_node_id_and_writes_nothing(bad: str, tmp_path: Path) -> None:
    out = tmp_path / "broker"
    with pytest.raises(BadId, match="table t1: node id"):
        prov.provision(out, {"t1": ["room-a", bad]})
    assert not out.exists()


@pytest.mark.parametrize("bad", ["+", "#", "t1/#", "T1", "t 1", "", "tävla"])
def test_the_provision_command_refuses_a_bad_table_in_one_line(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "broker"
    assert prov.main(["--out", str(out), "--table", "t1", "--table", bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"provision: table id {bad!r}") and err.count("\n") == 1, err
    assert "Traceback" not in err and not out.exists()


def test_the_provision_command_refuses_bad_nodes_and_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "broker"
    for args, words in (
        (["--nodes", "room-a,room+b"], "node id 'room+b' contains '+'"),
        (["--nodes", "room-a,room-a"], "given twice"),
        (["--screens", "-1"], "--screens -1"),
        (["--apps", "0"], "--apps 0"),
    ):
        assert prov.main(["--out", str(out), "--table", "t1", *args]) == 2
        assert words in capsys.readouterr().err
    assert not out.exists()


def test_the_bridge_refuses_a_bad_node_id_and_the_link_a_bad_table() -> None:
    for bad in IDS:
        with pytest.raises(BadId, match="node id"):
            Bridge(SerialLink(pattern="/nonexistent/*"), ["room-a", bad])
        with pytest.raises(BadId, match="table id"):
            GamePublisher("127.0.0.1", 1, bad, "app.t1", "secret")


def parse(argv: list[str], app: int = 1) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(prog="serve", exit_on_error=False)
    add_node_arguments(parser, app)
    return parser, parser.parse_args(argv)


@pytest.mark.parametrize(
    "bad", ["+", "#", "t1/x", "T1", ""], ids=["plus", "hash", "slash", "upper", "empty"]
)
def test_the_apps_table_option_is_checked_with_the_same_rule(
    bad: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parser, args = parse(["--table", bad, "--mqtt", "127.0.0.1:1883", "--credentials", "x.json"])
    with pytest.raises(SystemExit) as done:
        hardware_from_args(parser, args, load_board_file())
    assert done.value.code == 2
    assert f"--table {bad!r}" in capsys.readouterr().err


def test_serve_and_the_app_use_two_logins_and_login_names_one_of_this_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    users = {"app.t1": "a", "app.t1.2": "b", "app.t1.3": "c"}
    credentials = tmp_path / "credentials.json"
    credentials.write_text(json.dumps({"port": 1883, "users": users}))
    where = ["--mqtt", "127.0.0.1:1883", "--credentials", str(credentials)]
    fortress = load_board_file()
    seen = []
    for argv, app in ((where, 1), (where, SERVE_APP), ([*where, "--login", "app.t1.3"], 1)):
        parser, args = parse(argv, app)
        _nodes, publisher = hardware_from_args(parser, args, fortress)
        assert publisher is not None
        seen.append(publisher.username)
    assert seen == ["app.t1", "app.t1.2", "app.t1.3"]
    for login in ("app.t2", "node.t1.room-ne", "app.t1.+"):
        parser, args = parse([*where, "--login", login])
        with pytest.raises(SystemExit):
            hardware_from_args(parser, args, fortress)
        assert "--login" in capsys.readouterr().err or "login" in capsys.readouterr().err


def board_with_rooms(tmp_path: Path, *ids: str) -> Path:
    data = json.loads(
        (
            Path(__file__).resolve().parents[2] / "companion/data/default-fortress.json"
        ).read_text()
    )
    rooms = data["layout"]["rooms"]
    for room, new in zip(rooms, ids, strict=False):
        old = room["id"]
        room["id"] = new
        for ladder in data["layout"].get("ladders", []):
            if ladder["room"] == old:
                ladder["room"] = new
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data, ensure_ascii=False))
    return path


@pytest.mark.parametrize(
    ("room", "words"),
    [
        ("N/E", "'/'"),
        ("N+E", "'+'"),
        ("#", "'#'"),
        ("N E", "space"),
        ("NÉ", "ASCII"),
        ("X" * 28, "33 characters"),
        ("N_E", "'_'"),
        ("N.E", "'.'"),
        ("N\x00E", "control"),
    ],
)
def test_a_board_whose_room_cannot_name_a_node_is_refused(
    room: str, words: str, tmp_path: Path
) -> None:
    with pytest.raises(BoardFormatError) as error:
        load_board_file(board_with_rooms(tmp_path, room))
    assert "layout.rooms[0].id" in str(error.value) and words in str(error.value), error.value


def test_two_rooms_that_would_name_one_node_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BoardFormatError, match="would both be node 'room-xa'"):
        load_board_file(board_with_rooms(tmp_path, "xa", "XA"))


def test_the_default_board_and_upper_case_room_ids_still_load(tmp_path: Path) -> None:
    assert len(load_board_file().rooms) == 7
    assert (
        "LONG-ROOM-27-CHARACTERS-XXX"
        in load_board_file(board_with_rooms(tmp_path, "LONG-ROOM-27-CHARACTERS-XXX")).rooms
    )


def test_the_two_programs_default_to_their_own_logins() -> None:
    from companion.__main__ import build_parser as companion_parser
    from ui.__main__ import build_parser as ui_parser

    serve = companion_parser().parse_args(["serve"])
    app = ui_parser().parse_args([])
    assert app_user("t1", app.app_login_number) == "app.t1"
    assert app_user("t1", serve.app_login_number) == "app.t1.2"


@pytest.mark.slow
def test_serve_with_a_bad_table_ends_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--data",
            str(tmp_path),
            "--table",
            "+",
            "--seconds",
            "1",
            "--silent",
        ],
        capture_output=True,
        text=True,
        timeout=limit(60),
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("error: ") and len(done.stderr.splitlines()) == 1, done.stderr
    assert (
        "--table '+' contains '+' (an MQTT wildcard); allowed: 1-32 of a-z, 0-9 and '-', "
        "not starting with '-'"
    ) in last, done.stderr
