"""The address the phones open (issue 41, item 1): read from the interfaces, the Wi-Fi's (or the
Pi's own hotspot's) first, never 127.0.0.1 while an interface has an address, read again each
time it is shown. `serve` in a network namespace that has only a hotspot's address and no
default route (where asking the kernel for a route to a public address said 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.web import address as web_address
from companion.app.web.address import browser_address, by_name, preferred
from companion.app.web.local_name import local_name
from tests.support.qr_reader import scanned
from tests.support.standins.netns import give_address, inside, namespace
from tests.support.standins.nmcli_standin import Nmcli
from tests.support.web_table import WebTable
from tests.web.test_serve_web import Served, terminal_code_png


@pytest.mark.parametrize(
    ("found", "shown"),
    [
        (
            [("lo", "127.0.0.1"), ("eth0", "192.168.1.20"), ("wlan0", "10.42.0.1")],
            ["10.42.0.1", "192.168.1.20"],
        ),
        ([("lo", "127.0.0.1"), ("end0", "192.168.1.20")], ["192.168.1.20"]),
        ([("lo", "127.0.0.1"), ("wlan0", "169.254.3.4")], []),  # no DHCP answer: not reachable
        ([("lo", "127.0.0.1")], []),
        (
            [("tun0", "10.8.0.2"), ("ap0", "10.42.0.1"), ("wlan0", "10.42.0.1")],
            ["10.42.0.1", "10.8.0.2"],
        ),
    ],
)
def test_the_likeliest_address_first(found: list[tuple[str, str]], shown: list[str]) -> None:
    assert preferred(found) == shown


def test_an_address_is_shown_only_while_no_interface_has_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(web_address, "interface_addresses", lambda: [("lo", "127.0.0.1")])
    assert browser_address("0.0.0.0", 8421) == "http://127.0.0.1:8421/"
    monkeypatch.setattr(web_address, "interface_addresses", lambda: [("wlan0", "10.42.0.1")])
    assert browser_address("0.0.0.0", 8421) == "http://10.42.0.1:8421/"
    assert browser_address("127.0.0.1", 8421) == "http://127.0.0.1:8421/"  # as it was asked


def test_the_feed_reads_the_address_again_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Phones screen shows `feed.address` when it opens: a hotspot opened since the start
    is in the next code shown."""
    monkeypatch.setattr(web_address, "interface_addresses", lambda: [("eth0", "192.168.1.20")])
    with WebTable(tmp_path, host="0.0.0.0") as table:
        port = table.server.port
        assert table.address == f"http://192.168.1.20:{port}/"
        monkeypatch.setattr(web_address, "interface_addresses", lambda: [("wlan0", "10.42.0.1")])
        assert table.address == f"http://10.42.0.1:{port}/"


@pytest.fixture
def hotspot_namespace() -> Iterator[str]:
    """A network namespace as a Pi's own hotspot sees it: a cable's address, the Wi-Fi's
    hotspot address 10.42.0.1/24 (NetworkManager's), and no default route; the Pi's name
    `armata-table.local` resolves to the hotspot's address there (Avahi's answer on a Pi; a
    hosts file here, the same lookup)."""
    hosts = "10.42.0.1 armata-table.local"
    with namespace({"eth0": "192.168.7.5/24", "wlan0": "10.42.0.1/24"}, hosts=hosts) as name:
        yield name


@pytest.mark.slow
def test_serve_on_a_hotspot_prints_and_encodes_the_hotspots_address(
    hotspot_namespace: str, tmp_path: Path
) -> None:
    named = inside(hotspot_namespace, hostname="armata-table")
    served = Served(tmp_path / "data", web="0.0.0.0:0", inside=named)
    try:
        at = served.wait_line(r"^Table view in a browser: http://")
        address = served.lines[at].split(": ", 1)[1]
        assert address.startswith("http://10.42.0.1:"), served.lines  # the hotspot's
        code = served.code_after(at)
        assert scanned(terminal_code_png(code, tmp_path / "address.pbm")) == address
        # and the Pi's name beside it, once the Wi-Fi worker has looked it up (issue 41, item 1)
        by_name = served.lines[served.wait_line(r"^Or type, on most phones: ")]
        port = address.rsplit(":", 1)[1]
        assert by_name.endswith(f" http://armata-table.local:{port}"), by_name
    finally:
        code_, errors = served.close()
    assert code_ == 0, errors


@pytest.mark.slow
def test_serve_with_no_network_opens_its_own_wifi_and_shows_both_codes(tmp_path: Path) -> None:
    """A Pi with no network in reach (no address anywhere, no route): `serve` opens the table's
    own Wi-Fi by itself (the setting's default, "auto"), prints its name, password and join
    code, then the table view's new address 10.42.0.1 and its code; `wifi off` closes it."""
    nmcli = Nmcli(tmp_path / "nmcli")
    with namespace({"eth0": None, "wlan0": None}) as name:
        nmcli.change(on_hotspot=give_address("wlan0", "10.42.0.1/24"))
        nmcli.change(on_down="ip addr flush dev wlan0")
        served = Served(tmp_path / "data", web="0.0.0.0:0", inside=inside(name), env=nmcli.env())
        try:
            at = served.wait_line(r"^Table view in a browser: http://")
            assert served.lines[at].startswith("Table view in a browser: http://127.0.0.1:")
            own = served.wait_line(r"^The table's own Wi-Fi: Armata-\d{4}$", seconds=60)
            keys = nmcli.world()["hotspot"]
            assert served.lines[own + 1] == f"Password: {keys['password']}"
            join = served.wait_line(r"^Scan to join the table's Wi-Fi:$", after=own)
            code = served.code_after(join)
            text = f"WIFI:T:WPA;S:{keys['ssid']};P:{keys['password']};;"
            assert scanned(terminal_code_png(code, tmp_path / "join.pbm")) == text
            at = served.wait_line(r"^Table view in a browser: http://", after=join)
            address = served.lines[at].split(": ", 1)[1]
            assert address.startswith("http://10.42.0.1:"), served.lines[at]
            assert (
                scanned(terminal_code_png(served.code_after(at), tmp_path / "page.pbm")) == address
            )
            served.send("wifi off")
            served.wait_line(r"^The table is on no Wi-Fi: open its own for the phones\.$", after=at)
            assert served.wait_line(r"No suitable network found", after=at) > at
            assert nmcli.changes()[1:] == [
                ["connection", "down", "armata-table"],
                ["device", "connect", "wlan0"],
            ]
        finally:
            code_, errors = served.close()
    assert code_ == 0, errors


@pytest.mark.parametrize(
    ("hostname", "answers", "ours", "shown"),
    [
        ("armata-table", {"10.42.0.1"}, ["10.42.0.1"], "armata-table.local"),
        ("armata-table.fritz.box", {"192.168.1.20"}, ["192.168.1.20"], "armata-table.local"),
        ("armata-table", {"192.168.1.99"}, ["192.168.1.20"], ""),  # another machine's name
        ("armata-table", set(), ["192.168.1.20"], ""),  # nobody answers (no Avahi)
        ("armata-table", {"10.42.0.1"}, [], ""),  # no network: nothing a phone could reach
        ("", {"10.42.0.1"}, ["10.42.0.1"], ""),
    ],
)
def test_the_pis_name_counts_only_when_it_names_this_machine(
    hostname: str, answers: set[str], ours: list[str], shown: str
) -> None:
    asked: list[str] = []

    def lookup(name: str) -> set[str]:
        asked.append(name)
        return answers

    assert local_name(lambda: hostname, lambda: ours, lookup) == shown
    assert asked in ([], [f"{hostname.split('.')[0]}.local"])


def test_the_address_by_name_keeps_the_port_and_path() -> None:
    assert by_name("http://10.42.0.1:8421/", "armata.local") == "http://armata.local:8421/"
    assert by_name("http://10.42.0.1/seat/x", "armata.local") == "http://armata.local/seat/x"
