"""The table's own Wi-Fi for the phones (issue 41, item 2): NetworkManager's access point through
`nmcli`, the command Pi OS bookworm and trixie ship, where there is no router the Pi knows.

`nmcli device wifi hotspot` makes a WPA2 access point with NetworkManager's own shared addressing
(the Pi at 10.42.0.1, DHCP for the phones); `nmcli connection down` ends it and `nmcli device
connect` lets NetworkManager join the best network it knows again. Everything here is a value
(`WifiState`) read from nmcli's terse output; the calls run on `WifiWorker`'s thread, never the
table service's, and their results are posted back."""

from __future__ import annotations

import logging
import queue
import secrets
import shutil
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

log = logging.getLogger(__name__)

#: the connection NetworkManager keeps for the table's access point
CONNECTION = "armata-table"
#: how long one nmcli call may take (an access point comes up in a few seconds)
NMCLI_TIMEOUT_S = 45.0
#: letters and digits a player can copy off a screen without mixing them up (no 0/O, 1/l/I)
PASSWORD_LETTERS = "abcdefghijkmnpqrstuvwxyz23456789"

Kind = Literal["no_manager", "no_wifi", "joined", "hotspot", "off"]
Mode = Literal["auto", "on", "off"]  # the table setting "hotspot"
MODES: tuple[Mode, ...] = ("auto", "on", "off")


@dataclass(frozen=True)
class WifiState:
    """What the Pi's Wi-Fi does now. `network` is the joined network's or the access point's
    name; `password` only the access point's; `problem` why the last change failed."""

    kind: Kind
    device: str = ""
    network: str = ""
    password: str = ""
    problem: str | None = None
    #: the Pi's `<hostname>.local` when it resolves to one of its addresses (web/local_name)
    local_name: str = ""

    @property
    def hotspot(self) -> bool:
        return self.kind == "hotspot"

    @property
    def can_open(self) -> bool:
        """Whether there is a Wi-Fi chip NetworkManager could turn into an access point."""
        return self.kind in ("joined", "off", "hotspot")

    def join_code(self) -> str:
        """The Wi-Fi QR code's text a phone's camera offers to join (the ZXing `WIFI:` form),
        made by segno's helper; "" when no access point is open."""
        if not self.hotspot:
            return ""
        from segno import helpers

        return str(
            helpers.make_wifi_data(ssid=self.network, password=self.password, security="WPA")
        )


@dataclass(frozen=True)
class Credentials:
    """The access point's name and password, made once and kept in the table's settings so a
    phone that joined once joins again."""

    name: str
    password: str

    @staticmethod
    def new() -> Credentials:
        suffix = "".join(secrets.choice("23456789") for _ in range(4))
        password = "".join(secrets.choice(PASSWORD_LETTERS) for _ in range(10))
        return Credentials(f"Armata-{suffix}", password)

    @staticmethod
    def read(value: object) -> Credentials | None:
        """From the stored setting; None when missing or unusable (WPA2: 8 to 63 characters)."""
        if not isinstance(value, dict):
            return None
        name, password = value.get("name"), value.get("password")
        if not (isinstance(name, str) and isinstance(password, str)):
            return None
        if not (0 < len(name.encode()) <= 32 and 8 <= len(password) <= 63):
            return None
        return Credentials(name, password)

    def stored(self) -> dict[str, str]:
        return {"name": self.name, "password": self.password}


def terse_fields(line: str) -> list[str]:
    """One line of `nmcli -t`: fields split on ':', with nmcli's '\\:' and '\\\\' escapes."""
    fields, current, escaped = [], [], False
    for char in line:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


#: runs nmcli with these arguments; (exit status, output, error output)
Runner = Callable[[Sequence[str]], tuple[int, str, str]]


def run_nmcli(arguments: Sequence[str]) -> tuple[int, str, str]:
    """The system's nmcli (on PATH; a stand-in in the tests)."""
    found = shutil.which("nmcli")
    if found is None:
        return 127, "", "nmcli not found"
    try:
        done = subprocess.run(
            [found, *arguments], capture_output=True, text=True, timeout=NMCLI_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return 124, "", f"nmcli did not answer in {NMCLI_TIMEOUT_S:.0f} s"
    except OSError as exc:
        return 126, "", str(exc)
    return done.returncode, done.stdout, done.stderr


class Hotspot:
    """The Pi's Wi-Fi as NetworkManager manages it; each call blocks for nmcli (the worker's
    thread), none raises: a failure is a `WifiState` with its `problem`."""

    def __init__(self, run: Runner = run_nmcli, connection: str = CONNECTION) -> None:
        self.run = run
        self.connection = connection
        self._password = ""  # the open access point's, as given to open()

    def state(self, problem: str | None = None) -> WifiState:
        status, out, err = self.run(
            ["-t", "-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"]
        )
        if status == 127:
            return WifiState("no_manager", problem=problem)
        if status != 0:
            return WifiState("no_manager", problem=problem or _said(err, status))
        wifi = [f for f in (terse_fields(line) for line in out.splitlines()) if len(f) >= 4]
        wifi = [f for f in wifi if f[1] == "wifi"]
        if not wifi:
            return WifiState("no_wifi", problem=problem)
        device, _, state, connection = wifi[0][:4]
        if state.startswith("connected") and connection == self.connection:
            name = self._ssid() or connection
            return WifiState("hotspot", device, name, self._password, problem)
        if state.startswith("connected") and connection:
            return WifiState("joined", device, connection, problem=problem)
        return WifiState("off", device, problem=problem)

    def open(self, credentials: Credentials) -> WifiState:
        """The access point with these credentials on the first Wi-Fi device."""
        before = self.state()
        if not before.can_open:
            return before
        if before.hotspot and before.network == credentials.name:
            self._password = credentials.password
            return self.state()
        status, _, err = self.run(
            [
                "device", "wifi", "hotspot",
                "ifname", before.device,
                "con-name", self.connection,
                "ssid", credentials.name,
                "password", credentials.password,
            ]
        )  # fmt: skip
        if status != 0:
            return self.state(problem=_said(err, status))
        self._password = credentials.password
        return self.state()

    def close(self) -> WifiState:
        """End the access point and let NetworkManager join a network it knows."""
        before = self.state()
        if not before.hotspot:
            return before
        status, _, err = self.run(["connection", "down", self.connection])
        if status != 0:
            return self.state(problem=_said(err, status))
        self._password = ""
        status, _, err = self.run(["device", "connect", before.device])
        if status != 0:  # no known network in reach: the Wi-Fi stays off, the phones' way too
            return self.state(problem=_said(err, status))
        return self.state()

    def _ssid(self) -> str:
        status, out, _ = self.run(
            ["-t", "-g", "802-11-wireless.ssid", "connection", "show", self.connection]
        )
        return out.strip() if status == 0 else ""


def _said(err: str, status: int) -> str:
    """nmcli's own reason (its last line, "Error: …" stripped), or its exit status."""
    lines = [line.strip() for line in err.splitlines() if line.strip()]
    if not lines:
        return f"nmcli exit status {status}"
    last = lines[-1]
    return last.removeprefix("Error:").strip() or last


#: what the worker is asked: read the state, open (with credentials), close, or open when the
#: Pi has no network at all (`auto`, at the start)
Job = tuple[Literal["state", "open", "close", "auto"], Credentials | None]


class WifiWorker:
    """Runs the Hotspot's calls on one thread, in order; tells `told` each resulting state (on
    that thread: the table service posts it to its own). `reachable` says whether another device
    could open the table now (an address on some network): `auto` opens the access point only
    when it says no."""

    def __init__(
        self,
        told: Callable[[WifiState], None],
        reachable: Callable[[], bool],
        hotspot: Hotspot | None = None,
        named: Callable[[], str] = lambda: "",
    ) -> None:
        self.hotspot = hotspot or Hotspot()
        self.told = told
        self.reachable = reachable
        self.named = named  # the Pi's name on the network, looked up again after each call
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="wifi", daemon=True)
            self._thread.start()

    def ask(
        self,
        what: Literal["state", "open", "close", "auto"],
        credentials: Credentials | None = None,
    ) -> None:
        self._jobs.put((what, credentials))

    def stop(self, wait_s: float = 2.0) -> None:
        """Stop after the call under way (an access point open stays open: the phones keep their
        way in until someone closes it); a second call does nothing."""
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(wait_s)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            what, credentials = job
            try:
                state = self._do(what, credentials)
                self.told(replace(state, local_name=self.named()))
            except Exception:  # a failed check never ends the worker
                log.exception("the Wi-Fi check failed")

    def _do(self, what: str, credentials: Credentials | None) -> WifiState:
        if what == "open" and credentials is not None:
            return self.hotspot.open(credentials)
        if what == "close":
            return self.hotspot.close()
        state = self.hotspot.state()
        if (
            what == "auto"
            and credentials is not None
            and state.kind == "off"
            and not self.reachable()
        ):
            log.info("no network the phones could use: opening the table's own Wi-Fi")
            return self.hotspot.open(credentials)
        return state


__all__ = [
    "CONNECTION",
    "MODES",
    "Credentials",
    "Hotspot",
    "Kind",
    "Mode",
    "Runner",
    "WifiState",
    "WifiWorker",
    "run_nmcli",
    "terse_fields",
]
