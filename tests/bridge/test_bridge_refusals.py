"""Issue 28, item 3, the Pi's side: the bridge never sends a value a node would refuse (a clear
InvalidMessage, nothing sent, nothing remembered), and what a node refuses or survives reaches
the log and the health view. End to end with the real firmware under MicroPython on a real
pseudo-terminal, read by the bridge's serial link as a USB port."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.devices.nodes import health_view
from firmware_bridge import protocol as p
from firmware_bridge.bridge import Bridge
from firmware_bridge.errors import BridgeError, InvalidMessage
from firmware_bridge.node_sim import SimNode
from firmware_bridge.serial_link import SerialLink
from tests.hardware.test_node_never_dies import BAD as NEVER_DIES_BAD
from tests.hardware.test_node_never_dies import payload as never_dies_payload
from tests.support.processes import limit
from tests.support.standins.firmware_host import FIRMWARE, micropython, micropython_env
from tests.support.standins.hardware_helpers import wait_for

NODE = "room-ne"


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"colour": "#zz0000"}, "colour"),
        ({"colour": "#FF0000"}, "colour"),
        ({"brightness": 256}, "brightness"),
        ({"brightness": -1}, "brightness"),
        ({"pattern": "strobe"}, "pattern"),
        ({"target": "halo"}, "target"),
        ({"target": "segment"}, "direction"),
        ({"target": "segment", "direction": 6}, "direction"),
        ({"target": "ring", "direction": 2}, "direction"),
    ],
)
def test_the_bridge_refuses_to_send_a_value_the_node_would_refuse(
    fields: dict[str, object], named: str
) -> None:
    bridge = Bridge(SerialLink(pattern="/nonexistent/tty-*"), [NODE])
    with pytest.raises(InvalidMessage, match=named) as refused:
        bridge.set_led(NODE, **fields)  # type: ignore[arg-type]
    assert isinstance(refused.value, BridgeError)  # the bridge's one error root
    assert bridge.ring(NODE) is None and bridge.pending() == 0  # nothing remembered or queued


@pytest.mark.parametrize(
    ("reason", "field"),
    [
        ("colour: #rrggbb in lower-case hex, not '#zz0000'", "colour"),
        ("uptime_s: a whole number", "uptime_s"),
        ("not handled: status", ""),
        ("Colour: upper", ""),
        ("no colon here", ""),
        ("", ""),
    ],
)
def test_the_field_a_refusal_names(reason: str, field: str) -> None:
    assert p.refused_field(reason) == field


def test_a_status_without_faults_has_the_bytes_it_always_had() -> None:
    """Backward compatible: `faults` and `fault` only appear when a node has some."""
    plain = p.Status(seq=1, node=NODE, state="online", uptime_s=42)
    assert p.encode_message(plain) == (
        b'{"type":"status","v":1,"seq":1,"node":"room-ne","state":"online","uptime_s":42}'
    )
    faulty = p.Status(seq=2, node=NODE, state="online", faults=3, fault="ring: ValueError: x")
    back = p.decode_message(p.encode_message(faulty), p.DropCounter())
    assert back == faulty
    old = b'{"type":"status","v":1,"seq":1,"node":"room-ne","state":"online","uptime_s":42}'
    assert p.decode_message(old, p.DropCounter()) == plain


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[Bridge, Path, int]]:
    """`main.py` under MicroPython on the master side of a PTY; the bridge on its slave path."""
    config = json.loads((FIRMWARE / "config.example.json").read_text())
    config["node"] = NODE
    (tmp_path / "config.json").write_text(json.dumps(config))
    master, slave = os.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    (tmp_path / "tty-node").symlink_to(os.ttyname(slave))
    process = subprocess.Popen(
        [micropython(), str(FIRMWARE / "main.py")],
        cwd=tmp_path,
        stdin=master,
        stdout=master,
        stderr=subprocess.PIPE,
        env=micropython_env(),
    )
    link = SerialLink(pattern=str(tmp_path / "tty-*"), scan_interval_s=0.05)
    bridge = Bridge(link, [NODE], retry_after_s=0.1)
    bridge.start()
    try:
        wait_for(lambda: bridge.is_online(NODE), 10, "the node's hello")
        yield bridge, tmp_path, process.pid
    finally:
        bridge.stop()
        process.terminate()
        process.wait(timeout=limit(5))
        errors = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
        os.close(master)
        os.close(slave)
        assert "Traceback" not in errors, errors


def health(bridge: Bridge) -> object:
    return {h.node: h for h in bridge.health()}[NODE]


@pytest.mark.slow
@pytest.mark.usefixtures("micropython_binary")
def test_a_refusal_and_a_fault_reach_the_log_and_the_health_view(
    board: tuple[Bridge, Path, int], caplog: pytest.LogCaptureFixture
) -> None:
    bridge, workdir, _pid = board
    caplog.set_level(logging.WARNING, logger="firmware_bridge.bridge")
    # an older or buggy Pi: a bad colour straight onto the port, past every check of this one
    bad = b'{"type":"led","v":1,"seq":4242,"node":"room-ne","colour":"#zz0000"}'
    [source] = bridge.link.sources()  # type: ignore[attr-defined]
    assert bridge.link.send(source, bad)
    wait_for(lambda: health(bridge).errors["refused colour"] == 1, 5, "the refusal counted")  # type: ignore[attr-defined]
    assert "'#zz0000'" in health(bridge).last_refusal  # type: ignore[attr-defined]
    assert any("refused command 4242: colour" in r.getMessage() for r in caplog.records)
    bridge.set_led(NODE, colour="#00ff00")  # the node lives and takes the next good command
    assert bridge.wait_acked(limit(5))
    (workdir / "explode-1").write_text("")  # reader 1's bus raises what no driver expects
    wait_for(lambda: health(bridge).faults >= 1, 5, "the fault reported")  # type: ignore[attr-defined]
    assert "reader 1" in health(bridge).last_fault  # type: ignore[attr-defined]
    assert any("faults since its boot" in r.getMessage() for r in caplog.records)
    text = "\n".join(health_view(bridge).lines())
    assert "refused a command: colour: #rrggbb" in text
    assert "1 fault survived, the last: reader 1: RuntimeError: bus 1 exploded" in text
    assert bridge.is_online(NODE)


@pytest.mark.parametrize(
    ("kind", "fields", "field"),
    [c[1:] for c in NEVER_DIES_BAD],
    ids=[c[0] for c in NEVER_DIES_BAD],
)
def test_the_simulated_node_refuses_the_same_field_as_the_firmware(
    kind: str, fields: dict[str, object], field: str
) -> None:
    """The node simulator stands in for the firmware: the cases the firmware is tested with
    under MicroPython get a nack naming the same field from it too."""
    node = SimNode(NODE)
    sent: list[bytes] = []
    node.send = lambda payload: sent.append(payload) is None
    node.greeted.set()  # not its first word from the Pi: no tag report before the answer
    node.receive(never_dies_payload(kind, 77, fields))
    answers = [p.decode_message(x, p.DropCounter()) for x in sent]
    assert len(answers) == 1 and isinstance(answers[0], p.Nack), answers
    assert answers[0].ack == 77 and p.refused_field(answers[0].reason) == field, answers[0]
    assert node.ring is None and node.received == []  # nothing applied
