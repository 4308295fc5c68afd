"""The table's own Wi-Fi (issue 41, item 2) through the real nmcli path: a stand-in nmcli first
on PATH (standins/nmcli_standin.py) answers in nmcli's terse form and records each call; the
hotspot module runs it as a process, reads its output and its failures."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.app.devices.hotspot import (
    CONNECTION,
    PASSWORD_LETTERS,
    Credentials,
    Hotspot,
    WifiState,
    WifiWorker,
    terse_fields,
)
from companion.app.web.qr import phone_word, qr_rgba, wifi_words
from tests.support.processes import limit
from tests.support.qr_reader import scanned
from tests.support.standins.nmcli_standin import Nmcli

KEYS = Credentials("Armata-2345", "abcdefgh23")


@pytest.fixture
def nmcli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Nmcli:
    standin = Nmcli(tmp_path)
    for key, value in standin.env().items():
        monkeypatch.setenv(key, value)
    return standin


@pytest.mark.parametrize(
    ("line", "fields"),
    [
        ("wlan0:wifi:connected:Home", ["wlan0", "wifi", "connected", "Home"]),
        ("wlan0:wifi:connected:Caf\\\\e\\: 2nd", ["wlan0", "wifi", "connected", "Caf\\e: 2nd"]),
        ("eth0:ethernet:unavailable:", ["eth0", "ethernet", "unavailable", ""]),
    ],
)
def test_nmclis_terse_lines_are_split_with_its_escapes(line: str, fields: list[str]) -> None:
    assert terse_fields(line) == fields


def test_without_networkmanager_there_is_nothing_to_switch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no nmcli at all
    state = Hotspot().state()
    assert state == WifiState("no_manager") and not state.can_open
    assert wifi_words(state) == ""


def test_a_joined_network_is_named_even_with_a_colon(nmcli: Nmcli) -> None:
    nmcli.change(
        devices=[
            {
                "device": "wlan0",
                "type": "wifi",
                "state": "connected",
                "connection": "Café: 2nd floor",
            }
        ]
    )
    state = Hotspot().state()
    assert (state.kind, state.device, state.network) == ("joined", "wlan0", "Café: 2nd floor")
    assert "Café: 2nd floor" in wifi_words(state)


def test_no_wifi_chip_no_access_point(nmcli: Nmcli) -> None:
    nmcli.change(
        devices=[
            {"device": "eth0", "type": "ethernet", "state": "connected", "connection": "Wired"}
        ]
    )
    hotspot = Hotspot()
    assert hotspot.open(KEYS).kind == "no_wifi"
    assert nmcli.changes() == []  # nothing asked of NetworkManager


def test_the_access_point_opens_and_its_join_code_reads_back(nmcli: Nmcli, tmp_path: Path) -> None:
    hotspot = Hotspot()
    assert hotspot.state().kind == "off"
    state = hotspot.open(KEYS)
    assert (state.kind, state.device, state.network, state.password) == (
        "hotspot", "wlan0", "Armata-2345", "abcdefgh23",
    )  # fmt: skip
    assert nmcli.changes() == [
        ["device", "wifi", "hotspot", "ifname", "wlan0", "con-name", CONNECTION,
         "ssid", "Armata-2345", "password", "abcdefgh23"],
    ]  # fmt: skip
    # a phone's camera reads the code the screen shows: the network and its password
    width, height, pixels = qr_rgba(state.join_code(), scale=4)
    picture = tmp_path / "join.ppm"
    rgb = b"".join(pixels[i : i + 3] for i in range(0, len(pixels), 4))
    picture.write_bytes(f"P6 {width} {height} 255\n".encode() + rgb)
    assert scanned(picture) == "WIFI:T:WPA;S:Armata-2345;P:abcdefgh23;;"
    said = wifi_words(state)
    assert "Armata-2345" in said and "abcdefgh23" in said
    # asked again with the same name: nothing new asked of NetworkManager
    assert hotspot.open(KEYS).hotspot and len(nmcli.changes()) == 1


def test_closing_returns_to_the_known_network(nmcli: Nmcli) -> None:
    nmcli.change(in_reach=["Home"])
    hotspot = Hotspot()
    hotspot.open(KEYS)
    state = hotspot.close()
    assert (state.kind, state.network, state.problem) == ("joined", "Home", None)
    assert nmcli.changes()[1:] == [
        ["connection", "down", CONNECTION],
        ["device", "connect", "wlan0"],
    ]
    assert state.join_code() == ""


def test_closing_with_no_known_network_in_reach_says_so(nmcli: Nmcli) -> None:
    hotspot = Hotspot()
    hotspot.open(KEYS)
    state = hotspot.close()
    assert state.kind == "off"
    assert state.problem == "Connection activation failed: No suitable network found."
    assert phone_word("wifi_problem").format(reason=state.problem) in wifi_words(state)


def test_a_busy_chip_leaves_the_wifi_as_it_was_and_says_why(nmcli: Nmcli) -> None:
    nmcli.change(busy=True)
    state = Hotspot().open(KEYS)
    assert state.kind == "off" and not state.hotspot
    assert state.problem == "Connection activation failed: the Wi-Fi device is busy."


def test_networkmanager_not_running_is_a_problem_not_a_crash(nmcli: Nmcli) -> None:
    nmcli.change(broken=True)
    state = Hotspot().open(KEYS)
    assert state.kind == "no_manager" and state.problem == "NetworkManager is not running."


def test_credentials_are_wpa2_and_easy_to_copy() -> None:
    made = {Credentials.new() for _ in range(20)}
    assert len(made) == 20  # random
    for keys in made:
        assert keys.name.startswith("Armata-") and len(keys.name) <= 32
        assert len(keys.password) == 10 and set(keys.password) <= set(PASSWORD_LETTERS)
        assert Credentials.read(keys.stored()) == keys
    for bad in (
        None,
        "x",
        {"name": "A"},
        {"name": "A", "password": "short"},
        {"name": "", "password": "abcdefgh"},
    ):
        assert Credentials.read(bad) is None


@pytest.mark.parametrize(
    ("reachable", "in_state", "opened"),
    [(False, "disconnected", True), (True, "disconnected", False), (False, "connected", False)],
)
def test_auto_opens_only_where_no_network_is_in_reach(
    nmcli: Nmcli, reachable: bool, in_state: str, opened: bool
) -> None:
    connection = "Home" if in_state == "connected" else ""
    nmcli.change(
        devices=[{"device": "wlan0", "type": "wifi", "state": in_state, "connection": connection}]
    )
    told: list[WifiState] = []
    done = threading.Event()
    worker = WifiWorker(lambda s: (told.append(s), done.set()), lambda: reachable)
    worker.start()
    worker.ask("auto", KEYS)
    assert done.wait(limit(30))
    worker.stop()
    assert told[-1].hotspot is opened
    assert (len(nmcli.changes()) == 1) is opened


def test_a_failing_call_never_ends_the_worker(nmcli: Nmcli) -> None:
    told: list[WifiState] = []
    done = threading.Event()

    def tell(state: WifiState) -> None:
        told.append(state)
        if len(told) == 1:
            raise RuntimeError("a listener that fails")
        done.set()

    worker = WifiWorker(tell, lambda: True)
    worker.start()
    worker.ask("state")
    worker.ask("open", KEYS)
    assert done.wait(limit(30))
    worker.stop()
    worker.stop()  # a second stop does nothing
    assert [s.kind for s in told] == ["off", "hotspot"]
