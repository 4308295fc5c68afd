"""Real parts for the hardware tests: a Mosquitto broker on a free loopback port, started from
the project's own provisioning (hardware/mosquitto/provision.py), and small waiting helpers."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from firmware_bridge.topics import app_user, node_user, screen_user
from hardware.mosquitto.provision import provision
from tests.support.processes import limit


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until a broker process accepts connections on `port`; its log if it dies or never does."""
    deadline = time.monotonic() + limit(10)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"mosquitto did not start: {log.read_text()}") from None
            time.sleep(0.02)


def connect_result(
    port: int, user: str | None, password: str | None, ca: Path | None = None
) -> str:
    """What the broker answers a client with these credentials (`Success` or the reason);
    `ca`: over TLS, trusting that CA (`refused: ...` when the handshake fails)."""
    outcome: list[str] = []
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}")
    if user is not None:
        client.username_pw_set(user, password)
    if ca is not None:
        client.tls_set(ca_certs=str(ca), tls_version=ssl.PROTOCOL_TLS_CLIENT)

    def on_connect(c, u, flags, reason, props):  # type: ignore[no-untyped-def]
        outcome.append(str(reason))
        done.set()

    client.on_connect = on_connect
    try:
        client.connect("127.0.0.1", port)
    except OSError as exc:  # ssl.SSLError is one
        return f"refused: {exc}"
    client.loop_start()
    done.wait(limit(5))
    client.disconnect()
    client.loop_stop()
    return outcome[0] if outcome else "no answer"


def says_session_taken_over() -> bool:
    """Whether the first mosquitto on the PATH tells an MQTT 5 client "session taken over"
    (0x8E) when another client takes its login: from 2.0.15 on (its ChangeLog: "Fix incorrect
    return code being sent in DISCONNECT when a client session is taken over"); Debian 12's
    2.0.11 sends another code, Debian 13's 2.0.21 and 2.1 send it."""
    printed = subprocess.run(["mosquitto", "-h"], capture_output=True, text=True).stdout
    found = re.search(r"mosquitto version (\d+)\.(\d+)\.(\d+)", printed)
    if found is None:
        raise RuntimeError(f"cannot read the Mosquitto version from {printed[:80]!r}")
    return tuple(int(x) for x in found.groups()) >= (2, 0, 15)


#: the least a wait for something that must happen gives it (scaled, `limit`): it ends as
#: soon as the thing happens, so only a failing test pays for it; 5 s failed under load (a
#: fresh clone's CI beside other work: "timed out after 5s waiting for the holes counted")
LEAST_WAIT_S = 30.0


def wait_for(condition: Callable[[], bool], timeout_s: float = 5.0, what: str = "") -> None:
    """Until `condition()` holds; AssertionError after `timeout_s` (LEAST_WAIT_S at least),
    scaled for this machine and its load."""
    budget = limit(max(timeout_s, LEAST_WAIT_S))
    deadline = time.monotonic() + budget
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {budget:.0f}s waiting for {what or condition}")
        time.sleep(0.005)


class Broker:
    """A real mosquitto process with the project's config (anonymous off, passwords, ACL)."""

    def __init__(
        self, directory: Path, tables: Mapping[str, Sequence[str]], tls: bool = False
    ) -> None:
        if shutil.which("mosquitto") is None:
            raise RuntimeError("mosquitto is not installed: run ./setup.sh test")
        self.port = free_port()
        run_as = "root" if os.geteuid() == 0 else None
        self.tls_port = free_port() if tls else None
        self.files = provision(directory, tables, self.port, run_as=run_as, tls_port=self.tls_port)
        self.ca = self.files.tls.ca if self.files.tls else None
        self.users: dict[str, str] = json.loads(self.files.credentials.read_text())["users"]
        self.log = directory / "mosquitto.log"
        self.process: subprocess.Popen[bytes] | None = None

    def app(self, table: str) -> tuple[str, str]:
        user = app_user(table)
        return user, self.users[user]

    def endpoint(self, tls: bool) -> tuple[int, Path | None]:
        """(port, CA to trust): the TLS listener and its CA, or the plain one."""
        if tls:
            assert self.tls_port is not None, "provisioned without TLS"
            return self.tls_port, self.ca
        return self.port, None

    def screen(self, table: str, k: int) -> tuple[str, str]:
        """The k-th read-only screen user of the table (one session each)."""
        user = screen_user(table, k)
        return user, self.users[user]

    def node(self, table: str, node: str) -> tuple[str, str]:
        user = node_user(table, node)
        return user, self.users[user]

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                ["mosquitto", "-c", str(self.files.config)], stdout=log, stderr=log
            )
        wait_listening(self.port, self.process, self.log)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=limit(10))
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


class Listener:
    """A screen across the room: a real paho client on `topic`, keeping every message as
    (topic, decoded JSON, retained)."""

    def __init__(self, broker: Broker, table: str, topic: str, screen: int) -> None:
        self.messages: list[tuple[str, Any, bool]] = []
        user, password = broker.screen(table, screen)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user)
        self.client.username_pw_set(user, password)
        self.client.on_message = lambda c, u, m: self.messages.append(
            (m.topic, json.loads(m.payload), bool(m.retain))
        )
        subscribed = threading.Event()
        self.client.on_subscribe = lambda *args: subscribed.set()
        self.client.on_connect = lambda c, *args: c.subscribe(topic, 1)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        if not subscribed.wait(limit(10)):
            raise AssertionError(f"could not subscribe to {topic}")

    def on(self, topic: str) -> list[Any]:
        return [payload for t, payload, _retained in self.messages if t == topic]

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
