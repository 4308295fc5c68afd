"""A stand-in for NetworkManager's nmcli, first on PATH: a Python script that records each
call's arguments and keeps a small Wi-Fi world in a JSON file (the devices, the networks in
reach, the access point), answering in nmcli's terse form. The hotspot code runs its real path:
the process, the output it parses, the exit statuses it reports.

A hook command (`on_hotspot`, `on_down`, run by the shell) lets a test in a network namespace
give the Wi-Fi interface the address NetworkManager's shared mode gives it (10.42.0.1/24)."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCRIPT = """#!{python}
import json, os, subprocess, sys
calls, world = os.environ["NMCLI_CALLS"], os.environ["NMCLI_WORLD"]
args = sys.argv[1:]
with open(calls, "a") as out:
    out.write(json.dumps(args) + "\\n")
with open(world) as f:
    w = json.load(f)
def save():
    with open(world + ".new", "w") as f:
        json.dump(w, f)
    os.replace(world + ".new", world)
def esc(v):
    return v.replace("\\\\", "\\\\\\\\").replace(":", "\\\\:")
def wifi(name):
    return next((d for d in w["devices"] if d["device"] == name and d["type"] == "wifi"), None)
def fail(message, status):
    sys.stderr.write("Error: " + message + "\\n")
    sys.exit(status)
if w.get("broken"):
    fail("NetworkManager is not running.", 8)
def held():
    # a change waits for the test to let it go (one release file a change), as a slow chip
    hold = w.get("hold")
    if hold:
        import time
        while not os.path.exists(hold):
            time.sleep(0.05)
        os.remove(hold)
if args == ["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"]:
    for d in w["devices"]:
        print(":".join(esc(d[k]) for k in ("device", "type", "state", "connection")))
elif args[:3] == ["device", "wifi", "hotspot"]:
    opts = dict(zip(args[3::2], args[4::2]))
    d = wifi(opts.get("ifname", ""))
    if d is None:
        fail("Device '%s' not found." % opts.get("ifname"), 10)
    if w.get("busy"):
        fail("Connection activation failed: the Wi-Fi device is busy.", 4)
    held()
    d.update(state="connected", connection=opts["con-name"])
    w["hotspot"] = {{"name": opts["con-name"], "ssid": opts["ssid"], "password": opts["password"]}}
    save()
    if w.get("on_hotspot"):
        subprocess.run(w["on_hotspot"], shell=True, check=True)
    print("Device '%s' successfully activated." % d["device"])
elif args[:2] == ["connection", "down"]:
    h = w.get("hotspot")
    d = next((d for d in w["devices"] if d["connection"] == args[2]), None)
    if d is None:
        fail("'%s' is not an active connection." % args[2], 10)
    held()
    d.update(state="disconnected", connection="")
    save()
    if w.get("on_down"):
        subprocess.run(w["on_down"], shell=True, check=True)
    print("Connection '%s' successfully deactivated." % args[2])
elif args[:2] == ["device", "connect"]:
    d = wifi(args[2])
    known = [n for n in w.get("known", []) if n in w.get("in_reach", [])]
    if d is None or not known:
        fail("Connection activation failed: No suitable network found.", 4)
    d.update(state="connected", connection=known[0])
    save()
    print("Device '%s' successfully activated." % d["device"])
elif args[:3] == ["-t", "-g", "802-11-wireless.ssid"] and args[3:5] == ["connection", "show"]:
    h = w.get("hotspot")
    if not h or h["name"] != args[5]:
        fail("%s - no such connection profile." % args[5], 10)
    print(esc(h["ssid"]))
else:
    fail("the stand-in does not know: " + " ".join(args), 2)
"""


@dataclass
class Nmcli:
    """`env()` puts the stand-in first on PATH; `world` is its state, `calls()` what it was
    asked."""

    folder: Path
    devices: list[dict[str, str]] = field(
        default_factory=lambda: [
            {"device": "eth0", "type": "ethernet", "state": "unavailable", "connection": ""},
            {"device": "wlan0", "type": "wifi", "state": "disconnected", "connection": ""},
            {
                "device": "lo",
                "type": "loopback",
                "state": "connected (externally)",
                "connection": "lo",
            },
        ]
    )
    known: list[str] = field(default_factory=lambda: ["Home"])
    in_reach: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bin = self.folder / "bin"
        self.bin.mkdir(parents=True, exist_ok=True)
        program = self.bin / "nmcli"
        program.write_text(SCRIPT.format(python=sys.executable))
        program.chmod(0o755)
        self.calls_file = self.folder / "nmcli-calls"
        self.world_file = self.folder / "nmcli-world.json"
        self.save({"devices": self.devices, "known": self.known, "in_reach": self.in_reach})

    def save(self, world: dict[str, Any]) -> None:
        self.world_file.write_text(json.dumps(world))

    def world(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.world_file.read_text())
        return loaded

    def change(self, **values: Any) -> None:
        world = self.world()
        world.update(values)
        self.save(world)

    def env(self) -> dict[str, str]:
        return {
            "PATH": f"{self.bin}{os.pathsep}{os.environ.get('PATH', '')}",
            "NMCLI_CALLS": str(self.calls_file),
            "NMCLI_WORLD": str(self.world_file),
        }

    def calls(self) -> list[list[str]]:
        if not self.calls_file.exists():
            return []
        return [json.loads(line) for line in self.calls_file.read_text().splitlines()]

    def hold(self) -> None:
        """From now on each change waits until `release()` (a Wi-Fi chip that takes its time:
        the test looks at the screen while nmcli works)."""
        self.change(hold=str(self.folder / "nmcli-release"))

    def changes(self) -> list[list[str]]:
        """The calls that change the network (not the reads)."""
        return [c for c in self.calls() if c[0] != "-t"]


def release() -> None:
    """Let the change the stand-in holds go on (from the process that runs the app: its
    environment names the stand-in's world)."""
    world = json.loads(Path(os.environ["NMCLI_WORLD"]).read_text())
    Path(world["hold"]).touch()
