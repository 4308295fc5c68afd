"""Broker provisioning as hardware/README.md tells it (issue 16, items 2–4): a broker that starts
from the documented systemd drop-in when provisioned as root, secrets that are never readable by
others, and an optional TLS listener — each against a real Mosquitto."""

from __future__ import annotations

import json
import os
import pwd
import shlex
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.access import broker_access
from firmware_bridge.bridge import Bridge
from firmware_bridge.errors import BridgeError, ProvisionError
from firmware_bridge.mqtt_link import MqttLink
from firmware_bridge.mqtt_wire import MqttWire
from firmware_bridge.node_sim import SimNode
from hardware.mosquitto import provision as prov
from tests.support.processes import limit
from tests.support.standins.firmware_host import FAKES, run_micropython
from tests.support.standins.hardware_helpers import (
    connect_result,
    free_port,
    wait_for,
    wait_listening,
)

pytestmark = pytest.mark.slow  # brokers provisioned and started

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder the broker's own user can walk into (pytest's tmp_path is 0700 root's)."""
    path = Path(tempfile.mkdtemp(prefix="armata-broker-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def documented_run_as() -> str:
    """The user the README's commands give the files to: mosquitto as root, else oneself."""
    return "mosquitto" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name


def start_from_drop_in(drop_in: Path, log: Path) -> subprocess.Popen[bytes]:
    """Start mosquitto with the ExecStart line of the drop-in, as systemd would."""
    lines = [x for x in drop_in.read_text().splitlines() if x.startswith("ExecStart=")]
    assert lines[0] == "ExecStart=", "the drop-in must clear Debian's ExecStart first"
    command = shlex.split(lines[-1].removeprefix("ExecStart="))
    with log.open("ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=out)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(limit(10))


def test_provisioned_as_documented_the_broker_starts_and_reads_its_secrets(open_dir: Path) -> None:
    """Item 3: as root the files were root's 0600 and mosquitto, dropping to its own user, could
    not open them ("Unable to open pwfile"). The README's command line, then its drop-in."""
    assert "python -m hardware.mosquitto.provision --out /etc/mosquitto/armata" in (
        README.read_text()
    )
    out, port, tls_port = open_dir / "armata", free_port(), free_port()
    run_as = documented_run_as()
    args = ["--out", str(out), "--table", "t1", "--port", str(port), "--tls",
            "--tls-port", str(tls_port)]  # fmt: skip
    if os.geteuid() != 0:
        args += ["--run-as", run_as]  # not root: the broker runs as oneself
    assert prov.main(args) == 0
    owner = pwd.getpwnam(run_as).pw_uid
    for secret in ("passwd", "tls/server.key", "tls/ca.key"):
        info = (out / secret).stat()
        assert stat.S_IMODE(info.st_mode) == 0o600, secret
        assert info.st_uid == owner, f"{secret} must be the broker user's"
    credentials = out / "credentials.json"
    assert stat.S_IMODE(credentials.stat().st_mode) == 0o600
    users = json.loads(credentials.read_text())["users"]
    log = open_dir / "mosquitto.log"
    process = start_from_drop_in(out / prov.DROP_IN, log)
    try:
        wait_listening(port, process, log)
        assert connect_result(port, "app.t1", users["app.t1"]) == "Success"
        assert connect_result(port, "app.t1", "wrong") != "Success"
        assert "Unable to open" not in log.read_text()
        if os.geteuid() == 0:  # it really dropped root
            status = Path(f"/proc/{process.pid}/status").read_text()
            uid = next(x for x in status.splitlines() if x.startswith("Uid:")).split()[1]
            assert int(uid) == owner
    finally:
        stop(process)


def test_the_broker_installed_here_gets_the_form_its_version_reads(open_dir: Path) -> None:
    """Issue 32, item 5: the version `mosquitto -h` prints picks the configuration's form (2.0's
    options, 2.1's plugins; tests/hardware/test_provision_versions.py checks the 2.1 text); a broker
    started from it takes a right password and refuses a wrong one."""
    printed = subprocess.run(["mosquitto", "-h"], capture_output=True, text=True).stdout
    version = prov.broker_version()
    assert f"mosquitto version {version[0]}.{version[1]}." in printed
    out, port = open_dir / "armata", free_port()
    args = ["--out", str(out), "--table", "t1", "--port", str(port)]
    if os.geteuid() != 0:
        args += ["--run-as", documented_run_as()]
    assert prov.main(args) == 0
    config = (out / "mosquitto.conf").read_text()
    if version < prov.PLUGINS_SINCE:
        assert "\npassword_file " in config and "global_plugin" not in config
    else:
        assert "\nplugin_opt_password_file " in config and "\npassword_file" not in config
    assert "per_listener_settings" not in config  # deprecated by 2.1; 2.0's default is false
    users = json.loads((out / "credentials.json").read_text())["users"]
    log = open_dir / "mosquitto.log"
    process = start_from_drop_in(out / prov.DROP_IN, log)
    try:
        wait_listening(port, process, log)
        assert connect_result(port, "node.t1.room-c", users["node.t1.room-c"]) == "Success"
        assert connect_result(port, "node.t1.room-c", "wrong") != "Success"
        assert "deprecated" not in log.read_text().lower()
    finally:
        stop(process)


def test_tls_listener_takes_the_provisioned_ca_and_refuses_others(open_dir: Path) -> None:
    """Item 4: passwords and commands crossed Wi-Fi in clear text. With --tls a second listener
    speaks TLS with a server certificate signed by the provisioned CA."""
    port, tls_port = free_port(), free_port()
    files = prov.provision(
        open_dir / "b", {"t1": ["room-a"]}, port, run_as=documented_run_as(), tls_port=tls_port
    )
    assert files.tls is not None
    users = json.loads(files.credentials.read_text())
    assert users["tls_port"] == tls_port and Path(users["ca"]) == files.tls.ca.resolve()
    log = open_dir / "mosquitto.log"
    process = start_from_drop_in(files.drop_in, log)
    try:
        wait_listening(tls_port, process, log)
        node = "node.t1.room-a"
        assert connect_result(tls_port, node, users["users"][node], ca=files.tls.ca) == "Success"
        other = prov.make_tls(open_dir / "other", "localhost", tls_port, None)  # a stranger CA
        assert connect_result(tls_port, node, users["users"][node], ca=other.ca).startswith(
            "refused"
        )
        assert (
            connect_result(tls_port, node, users["users"][node]) != "Success"
        )  # clear text on TLS
        # the app and a node, configured from credentials.json alone, talk over TLS
        app = broker_access(f"127.0.0.1:{tls_port}", files.credentials, "app.t1")
        assert app.ca == files.tls.ca.resolve()
        assert broker_access(f"127.0.0.1:{port}", files.credentials, "app.t1").ca is None
        events: list[p.Message] = []
        link = MqttLink(app.host, app.port, "t1", app.username, app.password, ca=app.ca)
        bridge = Bridge(link, ["room-a"], events.append)
        sim = SimNode("room-a", "room")
        wire = MqttWire(sim, "127.0.0.1", tls_port, "t1", node, users["users"][node], ca=app.ca)
        bridge.start()
        wire.start()
        try:
            wait_for(lambda: bridge.health()[0].online, 10, "the node over TLS")
            sim.place_tag("04aabbccdd")
            wait_for(lambda: any(isinstance(e, p.TagPresent) for e in events), 5, "a tag")
            bridge.set_led("room-a", colour="#102030")
            assert bridge.wait_acked(limit(5))
            assert link.tls and wire.tls
        finally:
            wire.stop()
            bridge.stop()
    finally:
        stop(process)


def test_every_secret_is_0600_from_its_first_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 3: the clear password file was world-readable while written, and re-provisioning
    over an existing credentials.json kept its old mode."""
    out = tmp_path / "p"
    out.mkdir()
    (out / "credentials.json").write_text("{}")
    (out / "credentials.json").chmod(0o644)
    modes: list[tuple[str, int]] = []
    real_fdopen = os.fdopen

    def watching_fdopen(fd: int, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        modes.append((os.readlink(f"/proc/self/fd/{fd}"), stat.S_IMODE(os.fstat(fd).st_mode)))
        return real_fdopen(fd, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "fdopen", watching_fdopen)
    old_umask = os.umask(0)  # the most careless shell
    try:
        prov.provision(out, {"t1": ["room-a"]}, free_port(), run_as=None)
    finally:
        os.umask(old_umask)
    written = {Path(path).name: mode for path, mode in modes}
    assert written == {"passwd": 0o600, "credentials.json": 0o600}
    assert stat.S_IMODE((out / "credentials.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((out / "passwd").stat().st_mode) == 0o600
    for public in ("acl", "mosquitto.conf", prov.DROP_IN):  # what the broker trusts: not
        assert stat.S_IMODE((out / public).stat().st_mode) == 0o644, public  # anyone's to edit


def test_a_broker_user_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ProvisionError, match="no-such-user"):
        prov.provision(tmp_path / "x", {"t1": []}, free_port(), run_as="no-such-user")
    assert issubclass(ProvisionError, BridgeError)
    args = ["--out", str(tmp_path / "y"), "--table", "t1", "--run-as", "nobody-here"]
    assert prov.main(args) == 2


def test_screens_read_the_game_and_nothing_else() -> None:
    """Screens across the room have their own read-only users (the app's session is the app's
    alone now that the client id is the user name)."""
    acl = prov.acl_text({"t1": ["room-a"]}, screens=2)
    block = acl.split("user screen.t1.1\n")[1].split("\n\n")[0]
    assert block == "topic read armata/t1/game/#"
    assert "user screen.t1.2" in acl and "user screen.t1.3" not in acl


def test_the_firmware_trusts_the_provisioned_ca_under_micropython(
    open_dir: Path, micropython_binary: str
) -> None:
    """Item 4, the node's side: the firmware's TLS context (armata_node/tls.py), run by the real
    MicroPython interpreter, completes a handshake with the TLS listener and refuses a broker
    whose certificate another CA signed, or that answers to another name."""
    port, tls_port = free_port(), free_port()
    files = prov.provision(
        open_dir / "b", {"t1": []}, port, run_as=documented_run_as(), tls_port=tls_port
    )
    assert files.tls is not None
    stranger = prov.make_tls(open_dir / "other", "localhost", tls_port, None)
    log = open_dir / "mosquitto.log"
    process = start_from_drop_in(files.drop_in, log)
    try:
        wait_listening(tls_port, process, log)
        cases = [
            {"port": tls_port, "ca": str(files.tls.ca_der), "host": "localhost"},
            {"port": tls_port, "ca": str(stranger.ca_der), "host": "localhost"},
            {"port": tls_port, "ca": str(files.tls.ca_der), "host": "not-the-pi"},
        ]
        answers = run_micropython(FAKES / "tls_handshake.py", [json.dumps(c) for c in cases])
    finally:
        stop(process)
    assert answers[0] == {"ok": True}
    assert "error" in answers[1] and "error" in answers[2]
