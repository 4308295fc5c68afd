"""QR codes of the table view's address and of the seat links, made with segno (no network):
as modules (rows of dark/light) and as RGBA pixels a screen turns into a texture."""

from __future__ import annotations

import io
from typing import Protocol

from companion.app.words.i18n import N_, tr


class WifiFacts(Protocol):
    """What the words need of the Pi's Wi-Fi (devices/hotspot.WifiState has it): the web
    layer names no device."""

    @property
    def kind(self) -> str: ...
    @property
    def network(self) -> str: ...
    @property
    def password(self) -> str: ...
    @property
    def problem(self) -> str | None: ...
    @property
    def hotspot(self) -> bool: ...

#: the touchscreen's words around the codes
PHONE_WORDS = {
    "phones": N_("Phones"),
    "scan": N_("Scan to follow the game on a phone or tablet:"),
    "seat": N_("My phone: {hero}"),
    "seat_scan": N_("{hero}: scan with your own phone. It shows only your hand."),
    "revoke": N_("Revoke this phone link"),
    "revoked": N_("Phone link revoked."),
    "no_web": N_("The table view for phones is turned off on this table."),
    "wifi_own": N_("The table's own Wi-Fi: {name}\nPassword: {password}"),
    "by_name": N_("Or type, on most phones: {address}"),
    "wifi_join": N_("Scan to join the table's Wi-Fi:"),
    "wifi_step_join": N_("1. Join the Wi-Fi"),
    "wifi_step_open": N_("2. Follow the game"),
    "wifi_joined": N_("The table is on the Wi-Fi {name}: phones on it can follow the game."),
    "wifi_none": N_("The table is on no Wi-Fi: open its own for the phones."),
    "wifi_open": N_("Open the table's own Wi-Fi"),
    "wifi_close": N_("Back to the known Wi-Fi"),
    "wifi_busy": N_("Changing the Wi-Fi: this takes a few seconds."),
    "wifi_problem": N_("The Wi-Fi could not change: {reason}"),
    "this_machine": N_(
        "This address works on this machine only: a phone needs the table's address on the "
        "local network, which the kiosk on the Pi serves."
    ),
}


def only_this_machine(address: str) -> bool:
    """A loopback address: a phone that scans it opens itself, not the table."""
    host = address.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
    return host in ("localhost", "::1") or host.startswith("127.")


def phone_word(key: str) -> str:
    """One of the touchscreen's words around the codes, in the table's language."""
    return tr(PHONE_WORDS[key])


def wifi_words(state: WifiFacts) -> str:
    """What the Pi's Wi-Fi means for the phones, in words ("" without NetworkManager or a Wi-Fi
    chip: nothing to say or switch)."""
    if state.hotspot:
        said = phone_word("wifi_own").format(name=state.network, password=state.password)
    elif state.kind == "joined":
        said = phone_word("wifi_joined").format(name=state.network)
    elif state.kind == "off":
        said = phone_word("wifi_none")
    else:
        said = ""
    if state.problem:
        problem = phone_word("wifi_problem").format(reason=state.problem)
        said = f"{said}\n{problem}" if said else problem
    return said


def qr_modules(text: str, border: int = 2) -> list[list[bool]]:
    """The code's modules, quiet zone included; True is dark."""
    import segno  # loaded with the first code shown, not before the first frame

    code = segno.make(text, error="m", micro=False)
    return [[bool(v) for v in row] for row in code.matrix_iter(border=border)]


def qr_rgba(text: str, scale: int = 6, border: int = 2) -> tuple[int, int, bytes]:
    """(width, height, pixels): black on white, top row first, `scale` pixels a module."""
    rows = qr_modules(text, border)
    dark, light = b"\x00\x00\x00\xff", b"\xff\xff\xff\xff"
    lines = []
    for row in rows:
        line = b"".join((dark if v else light) * scale for v in row)
        lines.extend([line] * scale)
    return len(rows[0]) * scale, len(rows) * scale, b"".join(lines)


def qr_terminal(text: str) -> str:
    """The code as text for a terminal (`serve`): two rows of modules a line in block
    characters, light on the terminal's dark, read by a phone's camera off the screen."""
    out = io.StringIO()
    import segno

    segno.make(text, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


__all__ = [
    "PHONE_WORDS",
    "phone_word",
    "qr_modules",
    "qr_rgba",
    "qr_terminal",
    "wifi_words",
]
