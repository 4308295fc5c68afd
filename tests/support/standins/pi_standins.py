"""Stand-ins on the PATH for the commands a Pi install calls that cannot run here (apt-get,
apt-cache, dpkg-query, useradd, usermod, getent, id, chown, systemctl, journalctl): one script
under every name, recording each call (argv) in `calls.jsonl` and answering from `state.json`.

`systemctl restart armata-companion.service` starts the unit as far as a test can: it runs
`state["start"]` (a command: the current release's `companion serve` on the real data, which
opens and migrates the game log as the kiosk's start does); when that fails the unit counts a
restart and is not active, as systemd's `Restart=always` would show it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

NAMES = ("apt-get", "apt-cache", "dpkg-query", "useradd", "usermod", "getent", "id", "chown",
         "systemctl", "journalctl")  # fmt: skip

SCRIPT = r"""#!{python}
import json, os, subprocess, sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
name = Path(sys.argv[0]).name
args = sys.argv[1:]
with open(HERE / "calls.jsonl", "a") as log:
    log.write(json.dumps([name, *args]) + "\n")
state_path = HERE / "state.json"
state = json.loads(state_path.read_text())
def save():
    state_path.write_text(json.dumps(state, indent=1))
def flags_out(items):
    return [a for a in items if not a.startswith("-")]
code = 0
if name == "dpkg-query":
    if args[-1] in state["packages"]:
        print("install ok installed", end="")
    else:
        code = 1
elif name == "apt-cache":
    print(args[-1] + ":")
    print("  Candidate: " + ("1.0" if args[-1] in state["available"] else "(none)"))
elif name == "apt-get":
    if args[0] == "install":
        state["packages"] += flags_out(args[1:]); save()
elif name == "getent":
    table = {"passwd": state["users"], "group": state["groups"]}[args[0]]
    code = 0 if args[1] in table else 2
elif name == "useradd":
    user = args[-1]
    state["users"][user] = [user]; state["groups"].append(user); save()
elif name == "usermod":
    user = args[-1]
    state["users"][user] += args[args.index("--groups") + 1].split(","); save()
elif name == "id":
    if args[-1] in state["users"]:
        print(" ".join(state["users"][args[-1]]))
    else:
        code = 1
elif name == "systemctl":
    units = state["units"]
    verb, rest = args[0], flags_out(args[1:])
    unit = lambda n: units.setdefault(n, {"enabled": False, "active": False, "restarts": 0})
    if verb == "enable":
        for n in rest: unit(n)["enabled"] = True
    elif verb == "disable":
        for n in rest:
            unit(n)["enabled"] = False
            if "--now" in args: unit(n)["active"] = False
    elif verb == "is-enabled":
        code = 0 if unit(rest[0])["enabled"] else 1
    elif verb == "is-active":
        code = 0 if unit(rest[0])["active"] else 3
    elif verb == "stop":
        for n in rest: unit(n)["active"] = False
    elif verb in ("start", "restart"):
        for n in rest:
            u = unit(n)
            if n == "armata-companion.service" and state.get("start"):
                done = subprocess.run(state["start"], capture_output=True, text=True)
                with open(HERE / "starts.log", "a") as out:
                    said = [done.returncode, done.stdout[-2000:], done.stderr[-4000:]]
                    out.write(json.dumps(said) + "\n")
                u["active"] = done.returncode == 0
                u["restarts"] += 0 if done.returncode == 0 else 5
            else:
                u["active"] = True
    elif verb == "show":
        u = unit(rest[-1])
        print("ActiveState=" + ("active" if u["active"] else "activating"))
        print("NRestarts=" + str(u["restarts"]))
    save()
elif name == "journalctl":
    for line in state.get("journal", []):
        print(line)
sys.exit(code)
"""


class StandIns:
    def __init__(self, folder: Path, *, codename: str = "trixie") -> None:
        self.bin = folder
        folder.mkdir(parents=True, exist_ok=True)
        script = folder / "standin.py"
        script.write_text(SCRIPT.replace("{python}", sys.executable))
        script.chmod(0o755)
        for name in NAMES:
            link = folder / name
            if not link.exists():
                link.symlink_to(script)
        available = ["libmtdev1t64"] if codename == "trixie" else ["libmtdev1"]
        self.save({
            "packages": [],
            "available": available,
            "users": {},
            "groups": ["video", "render", "input", "dialout", "audio", "gpio"],
            "units": {},
        })  # fmt: skip
        (folder / "calls.jsonl").write_text("")

    @property
    def state(self) -> dict[str, Any]:
        return dict(json.loads((self.bin / "state.json").read_text()))

    def save(self, state: dict[str, Any]) -> None:
        (self.bin / "state.json").write_text(json.dumps(state, indent=1))

    def update(self, **changes: Any) -> None:
        self.save({**self.state, **changes})

    def calls(self) -> list[list[str]]:
        lines = (self.bin / "calls.jsonl").read_text().splitlines()
        return [list(json.loads(line)) for line in lines if line]

    def env(self) -> dict[str, str]:
        return {**os.environ, "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}"}


def pi_root(folder: Path, codename: str = "trixie") -> Path:
    """An empty system to install into: its os-release and the Pi's kernel command line."""
    version = {"trixie": "13", "bookworm": "12"}[codename]
    (folder / "etc").mkdir(parents=True, exist_ok=True)
    (folder / "etc" / "os-release").write_text(
        f'PRETTY_NAME="Debian GNU/Linux {version} ({codename})"\n'
        f"VERSION_CODENAME={codename}\nID=debian\n"
    )
    (folder / "boot" / "firmware").mkdir(parents=True, exist_ok=True)
    (folder / "boot" / "firmware" / "cmdline.txt").write_text(
        "console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 "
        "fsck.repair=yes rootwait\n"
    )
    return folder
