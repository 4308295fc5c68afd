"""Phones: the QR code of the table view's address (anyone may follow the game), and each hero's
"my phone" code (a seat link showing only that hero's hand), which the touchscreen can revoke.
Opened from the Home and Hardware screens. The codes come from companion/app/web/qr.py (segno).

Where the table's own Wi-Fi is open (companion/app/devices/hotspot.py), its join code stands
beside the page's: "1. Join the Wi-Fi", "2. Follow the game". The buttons keep their places while
the Wi-Fi changes (the words above them take the space); the switch waits, greyed, for nmcli."""

from __future__ import annotations

from typing import Protocol

from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.app.devices.hotspot import WifiState
from companion.app.service import TableService
from companion.app.session.game import GameSession
from companion.app.web.address import by_name
from companion.app.web.feed import WebFeed
from companion.app.web.qr import only_this_machine, phone_word, qr_rgba, wifi_words
from companion.app.words.i18n import tr
from companion.engine.explain import hero_name
from ui import theme


class PhonesHost(Protocol):
    """What the phones' page may call (the App gives it): the table service (its Wi-Fi), the
    phones' feed (addresses and seat links) and the game being played."""

    @property
    def service(self) -> TableService: ...
    @property
    def web_feed(self) -> WebFeed | None: ...
    @property
    def session(self) -> GameSession | None: ...


def qr_texture(text: str) -> Texture:
    """A sharp black-on-white code (one texel per screen pixel block, no smoothing)."""
    width, height, pixels = qr_rgba(text, scale=4)
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(pixels, colorfmt="rgba", bufferfmt="ubyte")
    texture.flip_vertical()  # the pixels' first row is the code's top
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class PhonesView(ModalView):
    def __init__(self, app: PhonesHost, seat: str | None = None, **kwargs: object) -> None:
        """The table's code; with `seat` (a hero's panel on the round screen: "my phone"), that
        hero's seat code at once, closed rather than taken back to the table's code."""
        super().__init__(size_hint=(0.94, 0.94), auto_dismiss=True, **kwargs)
        self.app = app
        self.background_color = theme.BACKGROUND
        self.shown_link = ""  # the address the code shows now (scripts read it)
        self.shown_join = ""  # the Wi-Fi join code's text, when the table's own Wi-Fi is open
        self.code: Image | None = None  # the code's image (scripts screenshot it)
        self.join_code: Image | None = None  # the Wi-Fi join code's image
        self.changing = False  # a Wi-Fi switch asked and not answered yet
        self.showing_table = False
        self.only_seat = seat is not None
        if seat is None:
            app.service.read_network()  # the Wi-Fi and the Pi's name, read again as it opens
            self.table()
        else:
            self.seat(seat)

    def _page(self, words: str, link: str, join: str = "") -> BoxLayout:
        """A code (two with `join`, the Wi-Fi's first) on the left, words and buttons beside."""
        self.clear_widgets()
        self.shown_link = link
        self.shown_join = join
        self.code = self.join_code = None
        row = BoxLayout(orientation="horizontal", padding=dp(12), spacing=dp(12))
        if link and join:  # one above the other, each with its step beside it: big enough
            codes = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_x=0.5)
            self.join_code = self._code(codes, join, phone_word("wifi_step_join"))
            self.code = self._code(codes, link, phone_word("wifi_step_open"))
            row.add_widget(codes)
        elif link:
            self.code = Image(texture=qr_texture(link), fit_mode="contain", size_hint_x=0.5)
            row.add_widget(self.code)
        side = BoxLayout(orientation="vertical", spacing=dp(8))
        said = Label(text=words, font_size=sp(18), color=theme.TEXT, halign="left", valign="top")
        said.bind(size=lambda label, size: setattr(label, "text_size", (size[0], None)))
        side.add_widget(said)
        row.add_widget(side)
        self.add_widget(row)
        return side

    @staticmethod
    def _code(codes: BoxLayout, text: str, caption: str) -> Image:
        """One of two codes with its step beside it."""
        line = BoxLayout(orientation="horizontal", spacing=dp(8))
        image = Image(texture=qr_texture(text), fit_mode="contain", size_hint_x=0.6)
        line.add_widget(image)
        step = Label(text=caption, font_size=sp(18), color=theme.TEXT, size_hint_x=0.4)
        step.bind(size=lambda label, size: setattr(label, "text_size", size))
        step.halign, step.valign = "left", "middle"
        line.add_widget(step)
        codes.add_widget(line)
        return image

    def _button(self, box: BoxLayout | GridLayout, text: str, action: object) -> Button:
        button = Button(text=text, font_size=sp(18), size_hint_y=None, height=dp(52))
        button.bind(size=lambda b, size: setattr(b, "text_size", (size[0] - dp(8), None)))
        button.halign = "center"
        button.bind(on_release=lambda _b: action())  # type: ignore[operator]
        box.add_widget(button)
        return button

    def table(self) -> None:
        """The table view's address, as a code and in words (beside the Wi-Fi's join code when
        the table's own Wi-Fi is open); a "my phone" per hero; the Wi-Fi switch."""
        self.showing_table = True
        feed = self.app.web_feed
        if feed is None:
            side = self._page(phone_word("no_web"), "")
            self._button(side, tr("Close"), self.dismiss)
            return
        wifi: WifiState = self.app.service.wifi_state
        parts = [wifi_words(wifi)] if wifi_words(wifi) and feed.public else []
        if self.changing:
            parts.append(phone_word("wifi_busy"))
        parts.append(f"{phone_word('scan')}\n{feed.address}")
        if wifi.local_name and feed.public:
            named = by_name(feed.address, wifi.local_name)
            parts.append(phone_word("by_name").format(address=named))
        if only_this_machine(feed.address):
            parts.append(phone_word("this_machine"))
        join = wifi.join_code() if feed.public else ""
        side = self._page("\n\n".join(parts), feed.address, join)
        session = self.app.session
        if session is not None and session.state.phase != "over":
            seats = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
            seats.bind(minimum_height=seats.setter("height"))
            for hero in sorted(session.state.heroes, key=lambda h: h.seat):
                self._button(
                    seats,
                    phone_word("seat").format(hero=hero_name(hero.hero)),
                    lambda hero=hero.hero: self.seat(hero),
                )
            side.add_widget(seats)
        if feed.public and wifi.can_open:
            switch = self._button(
                side,
                phone_word("wifi_close" if wifi.hotspot else "wifi_open"),
                lambda: self.switch_wifi(not wifi.hotspot),
            )
            switch.disabled = self.changing
        self._button(side, tr("Close"), self.dismiss)

    def switch_wifi(self, on: bool) -> None:
        """Open or close the table's own Wi-Fi; the page says so until nmcli has answered."""
        self.changing = True
        self.app.service.open_hotspot(on)
        self.table()

    def wifi_changed(self) -> None:
        """The Wi-Fi answered: the table's page again (a seat's page stays as it is)."""
        self.changing = False
        if self.showing_table:
            self.table()

    def seat(self, hero: str) -> None:
        """`hero`'s seat link as a code, to be scanned by that player's own phone."""
        self.showing_table = False
        feed = self.app.web_feed
        link = feed.seat_link(hero) if feed is not None else None
        if link is None:
            self.table()
            return
        words = phone_word("seat_scan").format(hero=hero_name(hero))
        if only_this_machine(link):
            words += f"\n\n{phone_word('this_machine')}"
        side = self._page(words, link)
        self._button(side, phone_word("revoke"), lambda: self.revoke(hero))
        self._back(side)

    def revoke(self, hero: str) -> None:
        self.showing_table = False
        if self.app.web_feed is not None:
            self.app.web_feed.revoke(hero)
        side = self._page(phone_word("revoked"), "")
        self._back(side)

    def _back(self, side: BoxLayout) -> None:
        """Back to the table's code, or Close when opened from a hero's panel."""
        if self.only_seat:
            self._button(side, tr("Close"), self.dismiss)
        else:
            self._button(side, tr("Back"), self.table)


__all__ = ["PhonesView", "qr_texture"]
