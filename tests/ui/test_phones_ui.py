"""The touchscreen's Phones view (issue 30): the table view's address as a QR code and in words,
opened from Home and Hardware in the four languages; a hero's "my phone" code, then revoked, by
touch. The codes are segno's; the pixels handed to the screen are checked against its modules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.web.qr import phone_word, qr_modules, qr_rgba
from tests.conftest import IN_CI, ROOT
from tests.support.browser import have_chromium
from tests.support.qr_reader import scanned
from tests.support.standins.netns import give_address, inside, namespace
from tests.support.standins.nmcli_standin import Nmcli
from tests.ui.test_ui import ui

ARTIFACTS = ROOT / "tests" / "artifacts" / "phones"


def test_the_pixels_follow_the_codes_modules_top_row_first() -> None:
    link = "http://192.168.1.20:8421/seat/abcdefghijklmnopqrstuv"
    modules = qr_modules(link)
    width, height, pixels = qr_rgba(link, scale=3)
    assert (width, height) == (len(modules[0]) * 3, len(modules) * 3)
    for row in (0, 2, 5, len(modules) - 3):
        for col in range(len(modules[0])):
            x, y = col * 3 + 1, row * 3 + 1
            dark = pixels[(y * width + x) * 4] == 0
            assert dark == modules[row][col], (row, col)
    assert modules[2][2] and not modules[0][0]  # a finder pattern's corner, inside the border


@pytest.mark.slow
@pytest.mark.skipif(not have_chromium() and not IN_CI, reason="needs chromium and chromium-driver")
def test_the_phones_view_shows_the_address_and_a_revocable_seat(tmp_path: Path) -> None:
    """On a network of its own (a cable's address, a Wi-Fi chip on no network, no route; an
    nmcli stand-in on PATH), the app listening on every interface as the kiosk does."""
    nmcli = Nmcli(tmp_path / "nmcli", in_reach=["Home"])
    hosts = "192.168.7.5 armata-table.local"  # Avahi's answer on a Pi
    with namespace({"eth0": "192.168.7.5/24", "wlan0": None}, hosts=hosts) as name:
        nmcli.change(on_hotspot=give_address("wlan0", "10.42.0.1/24"))
        nmcli.change(on_down="ip addr flush dev wlan0")
        nmcli.hold()  # each change waits for the script, which looks at the screen meanwhile
        report = ui(
            "phones",
            str(ARTIFACTS),
            data=tmp_path / "data",
            flags=("--web", "0.0.0.0:0"),
            env=nmcli.env(),
            inside=inside(name, hostname="armata-table"),
        )
    address = report["address"]
    assert address.startswith("http://192.168.7.5:") and not address.endswith(":0/")
    screens = report["screens"]
    for name, shot in screens.items():
        assert Path(shot["png"]).stat().st_size > 3_000, name
        for check in ("overflow", "small_targets", "small_texts", "internal_ids"):
            assert shot[check] == [], (name, check, shot[check])
    for lang in ("en", "de", "it", "fr"):
        assert screens[f"phones-{lang}"]["link"] == address
    seat = screens["phones-seat"]["link"]
    assert seat.startswith(address + "seat/")
    token = seat.rsplit("/", 1)[1]
    assert report["tokens"] == {"active": {}, "ended": {token: "revoked"}}
    # Matthew's phone chose his card: the same command as a tap, the round screen followed
    assert report["phone_choice"] == [200, {"ok": True}]
    after = report["after_phone"]
    assert after["chosen"] == report["phone_card"]
    assert after["last"].startswith("ChooseCard(hero='matthew'")
    # his card chosen, still his to change until the reveal (R-RND-1), not to pick again
    assert "Matthew has chosen a card: change it" in after["options"]
    assert not any(text.startswith("Matthew: pick") for text in after["options"])
    # "My phone" on Roel's panel of the round screen: the code a phone scans is Roel's seat link
    mine = report["my_phone"]
    assert phone_word("seat").format(hero="Roel") in mine["panel"]
    link = mine["link"]
    assert link.startswith(address + "seat/") and link != seat  # a new token: the old one ended
    assert scanned(Path(mine["code_png"])) == link
    panel = screens["hero-panel-my-phone"]
    for check in ("overflow", "small_targets", "small_texts", "internal_ids"):
        assert panel[check] == [], ("hero panel", check, panel[check])
    for name in ("my-phone", "my-phone-revoked"):
        for check in ("overflow", "small_targets", "small_texts", "internal_ids"):
            assert screens[name][check] == [], (name, check, screens[name][check])
    # a real Chromium page on the scanned link: Roel's hand, nobody else's, and the seat
    page = mine["page"]
    assert "error" not in page, page
    assert page["seatShown"] and page["live"] and page["hands"] == len(mine["hand"])
    assert "Roel" in page["text"] and sorted(page["handTitles"]) == sorted(mine["hand_titles"])
    # revoked on the touchscreen: the page closes the seat and says why
    ended = mine["ended_page"]
    assert "error" not in ended, ended
    assert not ended["seatShown"] and "revoked" in ended["text"].lower()
    # the round screen follows the phone: the choice is made there while it holds the seat,
    # back on the touchscreen (the same place in the list) once the link ended
    on_phone = "Roel chooses on their phone (or here)"
    assert on_phone in mine["options_followed"] and on_phone not in mine["options_after"]
    where = mine["options_followed"].index(on_phone)
    assert "Roel" in mine["options_after"][where]
    assert len(mine["options_after"]) == len(mine["options_followed"])
    the_tables_own_wifi(report["wifi"], nmcli, address)
    for name in ("wifi-off", "wifi-on", "wifi-back"):
        for check in ("overflow", "small_targets", "small_texts", "internal_ids"):
            assert screens[name][check] == [], (name, check, screens[name][check])


def the_tables_own_wifi(seen: dict[str, Any], nmcli: Nmcli, address: str) -> None:
    """Opened and closed by touch: both codes read back, no button moved, the switch greyed
    while nmcli works, the setting "Never" stored."""
    off, opening, on, closing, back = (seen[k] for k in ("off", "opening", "on", "closing", "back"))
    assert off["state"].startswith("WifiState(kind='off', device='wlan0'")
    assert off["join"] == "" and off["link"] == address
    assert phone_word("wifi_none") in "\n".join(off["texts"])
    named = address.replace("192.168.7.5", "armata-table.local")
    assert phone_word("by_name").format(address=named) in "\n".join(off["texts"])
    assert phone_word("wifi_open") in off["places"]
    # tapped: the switch greyed, the words say so, nothing moved
    assert opening["disabled"] and opening["changing"]
    assert phone_word("wifi_busy") in "\n".join(opening["texts"])
    assert opening["places"] == off["places"]
    keys = nmcli.world()["hotspot"]
    hotspot = f"http://10.42.0.1:{address.rsplit(':', 1)[1]}"
    assert on["state"].startswith("WifiState(kind='hotspot', device='wlan0'")
    assert on["join"] == f"WIFI:T:WPA;S:{keys['ssid']};P:{keys['password']};;"
    assert scanned(Path(on["join_png"])) == on["join"]
    assert on["link"] == hotspot and scanned(Path(on["code_png"])) == hotspot
    words = "\n".join(on["texts"])
    assert keys["ssid"] in words and keys["password"] in words
    for step in ("wifi_step_join", "wifi_step_open"):
        assert phone_word(step) in on["texts"]
    moved = {k: v for k, v in on["places"].items() if k != phone_word("wifi_close")}
    assert moved == {k: v for k, v in off["places"].items() if k != phone_word("wifi_open")}
    assert on["places"][phone_word("wifi_close")] == off["places"][phone_word("wifi_open")]
    assert closing["disabled"] and closing["changing"]
    assert back["state"].startswith("WifiState(kind='joined', device='wlan0', network='Home'")
    assert back["join"] == "" and back["link"] == address
    assert nmcli.changes() == [
        ["device", "wifi", "hotspot", "ifname", "wlan0", "con-name", "armata-table",
         "ssid", keys["ssid"], "password", keys["password"]],
        ["connection", "down", "armata-table"],
        ["device", "connect", "wlan0"],
    ]  # fmt: skip
    assert (seen["setting_before"], seen["setting_after"]) == ("auto", "off")
