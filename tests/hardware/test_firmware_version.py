"""The firmware version travels in the hello (issue 43): under the real MicroPython interpreter
the node's hello names the version of the firmware the app ships, read from the firmware's own
source; the bridge keeps it in the node's health; a hello without it (older firmware) still
decodes. The node takes `open_repl` (before `nodes flash`) and refuses a bad one by its field.
The version must be raised whenever a file copied to a node changes (digest guard below)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.framing import frame
from hardware.shipped_firmware import (
    FIRMWARE_DIR,
    firmware_digest,
    firmware_files,
    firmware_version,
)
from tests.support.standins.firmware_host import MicroPythonNode

#: the digest of the firmware files of each version. A change to main.py or armata_node/
#: without a new VERSION in armata_node/version.py fails here: nodes running the old files
#: would pass for up to date. Raise VERSION, then add the line this test prints.
DIGESTS = {
    "0.3": "271be3190565a85e866fc33bd1df2c3baf168562ab65d77f83a8f10b271f5dc0",
}


def test_every_firmware_change_raises_the_version() -> None:
    version, digest = firmware_version(), firmware_digest()
    assert DIGESTS.get(version) == digest, (
        f"the firmware files changed: raise VERSION in armata_node/version.py (now {version}) "
        f'and add "{version}": "{digest}" to DIGESTS here'
    )


def test_the_firmware_files_are_main_and_the_package_never_the_config() -> None:
    remote = [f.remote for f in firmware_files()]
    assert remote[0] == "main.py" and "armata_node/version.py" in remote
    assert not any("config" in r or r.endswith(".der") for r in remote)


def test_an_older_hello_without_a_version_still_decodes() -> None:
    drops = p.DropCounter()
    old = (
        b'{"type":"hello","v":1,"seq":1,"node":"room-e","kind":"room",'
        b'"firmware":"armata-node 0.2","readers":2}'
    )
    message = p.decode_message(old, drops)
    assert isinstance(message, p.Hello) and message.version is p.msgspec.UNSET, drops.counts
    bad = old.replace(b'"readers":2', b'"readers":2,"version":"zero"')
    assert p.decode_message(bad, drops) is None and drops.counts["invalid"] == 1


@pytest.mark.slow
@pytest.mark.usefixtures("micropython_binary")
def test_the_hello_under_micropython_names_the_shipped_version(tmp_path: Path) -> None:
    with MicroPythonNode(tmp_path) as node:
        hello = node.expect(p.Hello, 5.0)
        assert isinstance(hello, p.Hello)
        assert hello.version == firmware_version()  # the field, from the firmware's own source
        assert hello.firmware == f"armata-node {firmware_version()}"
        opened = p.OpenRepl(seq=node.next_seq(), node=node.node, s=30)
        node.send(opened)
        node.expect(p.Ack, 1.0, ack=opened.seq)
        too_long = b'{"type":"open_repl","v":1,"seq":%d,"node":"room-ne","s":601}' % node.next_seq()
        node.send_raw(frame(too_long))
        nack = node.expect(p.Nack, 1.0)
        assert isinstance(nack, p.Nack) and p.refused_field(nack.reason) == "s", nack.reason
        ping = p.Ping(seq=node.next_seq(), node=node.node, t=7)
        node.send(ping)  # the loop goes on as before
        node.expect(p.Pong, 1.0, t=7)
    assert "Traceback" not in node.errors, node.errors


def test_a_node_that_cannot_open_its_repl_refuses_open_repl() -> None:
    """On MQTT (no USB port to hand over) main.py gives the node no REPL window: refused."""
    sys.path.insert(0, str(FIRMWARE_DIR))
    try:
        node_module = importlib.import_module("armata_node.node")
    finally:
        sys.path.remove(str(FIRMWARE_DIR))
    sent: list[bytes] = []
    node = node_module.Node("room-e", "room", sent.append)
    node.on_payload(p.encode_message(p.OpenRepl(seq=5, node="room-e", s=60)))
    opened: list[int] = []
    node.open_repl = opened.append
    node.on_payload(p.encode_message(p.OpenRepl(seq=6, node="room-e", s=60)))
    replies = [p.decode_message(x, p.DropCounter()) for x in sent]
    nack, ack = (m for m in replies if isinstance(m, p.Nack | p.Ack))
    assert isinstance(nack, p.Nack) and nack.ack == 5 and nack.reason == "not handled: open_repl"
    assert isinstance(ack, p.Ack) and ack.ack == 6 and opened == [60]
