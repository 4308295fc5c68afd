"""Issue 32, item 5, on a real Mosquitto 2.1: provisioning reads the version of the broker it
finds (`mosquitto -h`), writes 2.1's form (the password file and the ACL read by the
mosquitto_password_file and mosquitto_acl_file plugins), and that broker, started from the
drop-in as systemd would, takes the right passwords, refuses wrong ones and enforces the ACL on
every listener. The same checks as the 2.0 broker's in tests/hardware/test_provision.py and
tests/bridge/test_mqtt_bridge.py.

The 2.1 broker is Debian unstable's package, unpacked with its own C library by
hardware/mosquitto/fetch-2.1.sh into /var/cache/armata-mosquitto-2.1 (ARMATA_MOSQUITTO_21);
`./setup.sh test` fetches it once. Its `bin/` goes first on the PATH, so provisioning finds that
broker and its mosquitto_passwd exactly as it finds an installed one.
"""

from __future__ import annotations

import json
import os
import shutil
import ssl
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.topics import node_topic
from hardware.mosquitto import provision as prov
from tests.hardware.test_provision import documented_run_as, start_from_drop_in, stop
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import (
    connect_result,
    free_port,
    wait_for,
    wait_listening,
)

pytestmark = pytest.mark.slow  # a broker provisioned and started

MOSQUITTO_21 = Path(os.environ.get("ARMATA_MOSQUITTO_21", "/var/cache/armata-mosquitto-2.1"))
NOT_AUTHORIZED = 135  # MQTT 5 reason code 0x87 in a PUBACK


@pytest.fixture
def mosquitto_2_1(monkeypatch: pytest.MonkeyPatch) -> Path:
    """The 2.1 tools first on the PATH; a clear failure (not a skip) when they are missing."""
    if not os.access(MOSQUITTO_21 / "bin" / "mosquitto", os.X_OK):
        pytest.fail(
            f"no Mosquitto 2.1 in {MOSQUITTO_21}: `./setup.sh test` fetches it "
            "(hardware/mosquitto/fetch-2.1.sh, from Debian unstable)"
        )
    monkeypatch.setenv("PATH", f"{MOSQUITTO_21 / 'bin'}{os.pathsep}{os.environ['PATH']}")
    return MOSQUITTO_21


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder the broker's own user can walk into (pytest's tmp_path is 0700 root's)."""
    path = Path(tempfile.mkdtemp(prefix="armata-broker-21-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Client:
    """A real paho client (MQTT 5: the broker says why it refuses a publish or a subscription)."""

    def __init__(self, port: int, user: str, password: str, ca: Path | None = None) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.acks: dict[int, int] = {}  # message id -> PUBACK reason code
        self.granted: dict[int, list[int]] = {}  # message id -> SUBACK reason codes
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        if ca is not None:
            self.client.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, bytes(m.payload)))
        self.client.on_publish = lambda c, u, mid, reason, props: self.acks.update(
            {mid: reason.value}
        )
        self.client.on_subscribe = lambda c, u, mid, reasons, props: self.granted.update(
            {mid: [r.value for r in reasons]}
        )
        connected = threading.Event()
        self.client.on_connect = lambda *args: connected.set()
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        assert connected.wait(limit(10)), f"{user} could not connect"

    def subscribe(self, topic: str) -> int:
        """The SUBACK's reason code (0, 1: granted at that QoS; 135: not authorised)."""
        result, mid = self.client.subscribe(topic, 1)
        assert result == mqtt.MQTT_ERR_SUCCESS and mid is not None, result
        wait_for(lambda: mid in self.granted, 5, f"the SUBACK for {topic}")
        return self.granted[mid][0]

    def publish(self, topic: str, payload: bytes) -> int:
        """The PUBACK's reason code (0: taken; 135: not authorised)."""
        mid = self.client.publish(topic, payload, qos=1).mid
        wait_for(lambda: mid in self.acks, 5, f"the PUBACK for {topic}")
        return self.acks[mid]

    def got(self, topic: str) -> list[bytes]:
        return [payload for t, payload in self.messages if t == topic]

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_provisioned_for_the_2_1_broker_found_it_authenticates_and_enforces_the_acl(
    mosquitto_2_1: Path, open_dir: Path
) -> None:
    version = prov.broker_version()  # the first mosquitto on the PATH: the 2.1 one
    assert version >= (2, 1), version
    # where Debian's package puts the plugins is where provisioning looks on an installed one
    in_package = (mosquitto_2_1 / "plugins").resolve().relative_to(mosquitto_2_1.resolve() / "root")
    assert Path("/") / in_package in prov.plugin_dirs()
    out, port, tls_port = open_dir / "armata", free_port(), free_port()
    args = ["--out", str(out), "--table", "t1", "--nodes", "room-a,room-b", "--port", str(port),
            "--tls", "--tls-port", str(tls_port),
            "--plugin-dir", str(mosquitto_2_1 / "plugins")]  # fmt: skip
    if os.geteuid() != 0:
        args += ["--run-as", documented_run_as()]
    assert prov.main(args) == 0  # no --broker-version: the form of the broker found
    config = (out / "mosquitto.conf").read_text()
    assert f"\nglobal_plugin {mosquitto_2_1 / 'plugins' / prov.PASSWORD_PLUGIN}\n" in config
    assert f"\nplugin_opt_acl_file {(out / 'acl').resolve()}\n" in config
    assert "\npassword_file" not in config and "\nacl_file" not in config
    # hashed by 2.1's own mosquitto_passwd: no clear password left in the file the broker reads
    users: dict[str, str] = json.loads((out / "credentials.json").read_text())["users"]
    hashed = (out / "passwd").read_text()
    assert not any(secret in hashed for secret in users.values())
    log = open_dir / "mosquitto.log"
    process = start_from_drop_in(out / prov.DROP_IN, log)
    clients: list[Client] = []
    try:
        wait_listening(port, process, log)
        wait_listening(tls_port, process, log)
        # the process is the 2.1 broker with both plugins loaded (2.1 logs no version line)
        root = mosquitto_2_1.resolve() / "root"
        mapped = {
            line.split()[-1] for line in Path(f"/proc/{process.pid}/maps").read_text().splitlines()
        }
        plugins = (mosquitto_2_1 / "plugins").resolve()
        for part in (
            root / "usr/sbin/mosquitto",
            plugins / prov.PASSWORD_PLUGIN,
            plugins / prov.ACL_PLUGIN,
        ):
            assert str(part) in mapped, part
        # the password plugin, on both listeners
        app, node_a = "app.t1", "node.t1.room-a"
        assert connect_result(port, app, users[app]) == "Success"
        assert connect_result(port, app, users[app] + "x") == "Not authorized"
        assert connect_result(port, node_a, users["node.t1.room-b"]) == "Not authorized"
        assert connect_result(port, "node.t1.room-z", "whatever") == "Not authorized"
        assert connect_result(port, None, None) == "Not authorized"  # anonymous
        ca = out / "tls" / "ca.crt"
        assert connect_result(tls_port, node_a, users[node_a], ca=ca) == "Success"
        assert connect_result(tls_port, node_a, "wrong", ca=ca) == "Not authorized"

        # the ACL plugin: what each user may publish and read
        the_app = Client(port, app, users[app])
        node = Client(tls_port, node_a, users[node_a], ca=ca)  # the ACL holds on TLS too
        screen = Client(port, "screen.t1.1", users["screen.t1.1"])
        clients += [the_app, node, screen]
        assert the_app.subscribe("armata/t1/#") in (0, 1)
        assert node.subscribe(node_topic("t1", "room-a", "cmd")) in (0, 1)
        node.subscribe("armata/t1/game/#")  # granted: the ACL filters what it reads
        assert screen.subscribe("armata/t1/game/#") in (0, 1)
        own, others = node_topic("t1", "room-a", "event"), node_topic("t1", "room-b", "event")
        assert node.publish(own, b'{"mine":1}') == 0
        assert node.publish(others, b'{"forged":1}') == NOT_AUTHORIZED
        assert node.publish(node_topic("t1", "room-b", "cmd"), b"{}") == NOT_AUTHORIZED
        assert screen.publish("armata/t1/game/state", b'{"round":9}') == NOT_AUTHORIZED
        assert the_app.publish(node_topic("t1", "room-a", "cmd"), b'{"led":1}') == 0
        assert the_app.publish("armata/t1/game/state", b'{"round":3}') == 0
        wait_for(lambda: the_app.got(own) == [b'{"mine":1}'], 5, "the node's own event")
        wait_for(lambda: node.got(node_topic("t1", "room-a", "cmd")) == [b'{"led":1}'], 5, "cmd")
        wait_for(lambda: screen.got("armata/t1/game/state") == [b'{"round":3}'], 5, "the state")
        assert the_app.got(others) == [] and the_app.got(node_topic("t1", "room-b", "cmd")) == []
        assert screen.got("armata/t1/game/state") == [b'{"round":3}']  # not the screen's own
        time.sleep(limit(0.3))  # what the ACL let through would have come with the rest
        assert node.got("armata/t1/game/state") == []
        text = log.read_text()
        assert "deprecated" not in text.lower() and "unable to open" not in text.lower(), text
    finally:
        for client in clients:
            client.stop()
        stop(process)
