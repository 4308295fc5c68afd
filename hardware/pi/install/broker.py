"""`--mosquitto TABLE`: Debian's Mosquitto for MQTT nodes, provisioned with
hardware/mosquitto/provision.py (a login per node and app, ACLs; `--tls` for nodes on Wi-Fi),
its credentials copied for the app. Done once: a provisioned broker is left as it is
(provision again by hand to add nodes or tables, hardware/README.md)."""

from __future__ import annotations

import socket
from pathlib import Path

from hardware.pi.install import layout
from hardware.pi.install.release import venv_python
from hardware.pi.install.system import System


def ensure_broker(system: System, release: Path, table: str, tls: bool) -> bool:
    """Whether the broker was provisioned now (its service then needs a restart)."""
    out = system.path(layout.MOSQUITTO_DIR)
    if (out / "credentials.json").is_file():
        return False
    options = ["--table", table]
    if tls:  # nodes on Wi-Fi: listen beyond the Pi, with the provisioned CA
        options += ["--bind", "0.0.0.0", "--tls", "--tls-host", f"{socket.gethostname()}.local"]
    if system.staging:
        options += ["--run-as", ""]  # no broker user in a staging folder: files stay its owner's
    system.run(venv_python(release), "-m", "hardware.mosquitto.provision", "--out", out,
               *options, cwd=release)  # fmt: skip
    system.changed(f"provisioned Mosquitto for table {table} in {layout.MOSQUITTO_DIR}")
    dropin = (out / "systemd-dropin.conf").read_text()
    system.write(layout.MOSQUITTO_DROPIN, dropin)
    credentials = (out / "credentials.json").read_text()
    system.write(layout.APP_CREDENTIALS, credentials, 0o600)
    system.run("chown", f"{layout.USER}:{layout.USER}", system.path(layout.APP_CREDENTIALS))
    system.run("systemctl", "daemon-reload")
    system.run("systemctl", "restart", "mosquitto.service")
    return True
