"""Phones: the QR code of the table view's address (anyone may follow the game), and each hero's
"my phone" code (a seat link showing only that hero's hand), which the touchscreen can revoke.
Opened from the Home and Hardware screens. The codes come from companion/app/qr.py (segno)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.app.i18n import tr
from companion.app.qr import only_this_machine, phone_word, qr_rgba
from companion.engine.explain import hero_name
from ui import theme

if TYPE_CHECKING:
    from ui.app import ArmataApp


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
    def __init__(self, app: ArmataApp, seat: str | None = None, **kwargs: object) -> None:
        """The table's code; with `seat` (a hero's panel on the round screen: "my phone"), that
        hero's seat code at once, closed rather than taken back to the table's code."""
        super().__init__(size_hint=(0.94, 0.94), auto_dismiss=True, **kwargs)
        self.app = app
        self.background_color = theme.BACKGROUND
        self.shown_link = ""  # the address the code shows now (scripts read it)
        self.code: Image | None = None  # the code's image (scripts screenshot it)
        self.only_seat = seat is not None
        if seat is None:
            self.table()
        else:
            self.seat(seat)

    def _page(self, words: str, link: str) -> BoxLayout:
        self.clear_widgets()
        self.shown_link = link
        self.code = None
        row = BoxLayout(orientation="horizontal", padding=dp(12), spacing=dp(12))
        if link:
            self.code = Image(texture=qr_texture(link), fit_mode="contain", size_hint_x=0.48)
            row.add_widget(self.code)
        side = BoxLayout(orientation="vertical", spacing=dp(8))
        said = Label(text=words, font_size=sp(18), color=theme.TEXT, halign="left", valign="top")
        said.bind(size=lambda label, size: setattr(label, "text_size", (size[0], None)))
        side.add_widget(said)
        row.add_widget(side)
        self.add_widget(row)
        return side

    def _button(self, box: BoxLayout, text: str, action: object) -> None:
        button = Button(text=text, font_size=sp(18), size_hint_y=None, height=dp(52))
        button.bind(on_release=lambda _b: action())  # type: ignore[operator]
        box.add_widget(button)

    def table(self) -> None:
        """The table view's address, as a code and in words; a "my phone" per hero."""
        feed = self.app.web_feed
        if feed is None:
            side = self._page(phone_word("no_web"), "")
        else:
            words = f"{phone_word('scan')}\n\n{feed.address}"
            if only_this_machine(feed.address):
                words += f"\n\n{phone_word('this_machine')}"
            side = self._page(words, feed.address)
            session = self.app.session
            if session is not None and session.state.phase != "over":
                for hero in sorted(session.state.heroes, key=lambda h: h.seat):
                    self._button(
                        side,
                        phone_word("seat").format(hero=hero_name(hero.hero)),
                        lambda hero=hero.hero: self.seat(hero),
                    )
        self._button(side, tr("Close"), self.dismiss)

    def seat(self, hero: str) -> None:
        """`hero`'s seat link as a code, to be scanned by that player's own phone."""
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
