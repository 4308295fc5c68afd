"""A hero's panel over the round screen (companion/app/story/hero_panel.py computes what it says):
the abilities usable now first, then the card played this round, the hand as card tiles with
their printed facts (behind "Show the hand" during the secret choice; a tile is played by a tap
when the engine allows it), reward cards and tokens, wounds with their effects."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.app.story.hero_panel import CardFacts, HeroPanel, PanelAction
from companion.app.words.i18n import tr
from ui import theme
from ui.screens.round.card_panel import CardPanel
from ui.widgets.scrolling import to_top

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

#: a card tile is never narrower than this (three across at 800 px, four at 1024 px), times
#: the text size, and half as wide again from 150 % on (one across at 800 px): a tile stays
#: lower than the band below "Hand", so a card of the hand is in sight as the panel opens
TILE_DP = 240
#: a panel this wide has room for My phone beside Close and the summary (800x480 and up)
WIDE_DP = 700


def tile_px() -> float:
    scale = getattr(App.get_running_app(), "text_scale", 1.0) or 1.0
    return dp(TILE_DP) * scale * (1.5 if scale > 1.25 else 1.0)


def escape(text: str) -> str:
    """Text shown in a markup label as it is (a card title with "&" or "[")."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


#: a no-break space: Kivy wraps lines at plain spaces only
NBSP = "\u00a0"


def figures_line(figures: tuple[str, ...]) -> str:
    """A card's figures on one line, "Initiative 3 · Bewegung 3 · Stärke 2 · Buch A": each
    name with its number kept together, the line wrapped (when the tile is too narrow) only
    after a "·"."""
    return f"{NBSP}· ".join(figure.replace(" ", NBSP, 1) for figure in figures)


def tile_text(card: CardFacts, action: str = "") -> str:
    """A card tile's text: its title, its figures on one line, then its abilities."""
    lines = [f"[b]{escape(card.title)}[/b]", escape(figures_line(card.figures))]
    lines += map(escape, card.lines)
    if card.note:
        lines.append(f"[i]{escape(card.note)}[/i]")
    if action:
        lines.append(f"[b]{escape(action)}[/b]")
    return "\n".join(lines)


@lru_cache(maxsize=256)
def text_height(text: str, font_size: float, font_name: str, width: float, halign: str) -> float:
    """A tile's text height at `width`. Every tile's texture change measures the whole grid
    again: the same text at the same width is measured once (bounded: hands change)."""
    from kivy.core.text.markup import MarkupLabel

    measure = MarkupLabel(
        text=text, font_size=font_size, font_name=font_name, text_size=(width, None), halign=halign
    )
    return float(measure.render()[1])


class HeroPanelView(CardPanel):
    """Covers the round screen while shown (a CardPanel: it takes every touch on it)."""

    name_text = StringProperty("")
    phone_text = StringProperty("")  # "My phone: Roel" beside Close, when the phones' page runs
    _phone_call: Callable[[], None] | None = None
    summary_text = StringProperty("")
    hero_colour = ListProperty(list(theme.HERO))

    def show(
        self,
        panel: HeroPanel,
        act: Callable[[PanelAction], None],
        show_hand: Callable[[], None],
        extra: list[tuple[str, Callable[[], None]]] | None = None,
        phone: tuple[str, Callable[[], None]] | None = None,
    ) -> None:
        """Render `panel`; `act` uses an ability (or plays a card), `show_hand` asks for the
        hand during the secret choice; `extra` are the screen's own buttons (Fix position);
        `phone` is "My phone", beside Close at every visit (the seat's code)."""
        self.hero = panel.hero
        self.name_text = panel.name
        self.summary_text = panel.summary
        self.hero_colour = list(theme.FIGURE_COLOURS.get(panel.hero, theme.HERO))
        body = self.ids.body
        to_top(self.ids.scroll)
        body.clear_widgets()
        self.choices: list[Button] = []  # what the Pi's Next goes through, in order
        # My phone: beside Close in a wide window, else the body's first row (upright, the
        # summary beside it would be squeezed to a word a line): one place at every visit
        wide = self.width >= dp(WIDE_DP)
        self.phone_text, self._phone_call = phone if phone and wide else ("", None)
        self.ids.phone.action = self.phone  # the Pi's Confirm presses it as a finger does
        if phone and not wide:
            self._button(*phone)
        #: the Pi's Next goes to the hero's own buttons first, My phone after
        self.extras = [self.ids.phone] if phone and wide else self.choices
        self.choices = []
        for label, call in extra or []:
            self._button(label, call)
        if panel.actions:  # first: what the hero can do now
            self._heading(tr("Use now"))
            for action in panel.actions:
                self._button(action.label, lambda a=action: act(a))
        self.hand_grid = None  # the hand's cards (in sight as the panel opens: the layout check)
        self._heading(panel.hand_heading)  # the hand before the card played: what is decided
        if panel.hand_secret:  # asked first: the hand opens only on a second tap (R-RND-1)
            self._ask(panel.hand_question, panel.show_hand_label, show_hand)
        elif not panel.hand:
            self._text(tr("No cards in hand."))
        else:
            if any(card.instead for card in panel.hand):
                self._text(tr("Until all have chosen, another card may be played instead."))
            elif any(card.choose is not None for card in panel.hand):
                self._text(tr("Tap a card to play it this round."))
            grid = self.hand_grid = self._grid()
            for card in panel.hand:
                tile = self._tile(card, act)
                tile.bind(texture_size=lambda t, _s, g=grid: self._same_height(g, t))
                grid.add_widget(tile)
        if panel.played is not None:
            self._heading(tr("Played this round"))
            self._grid().add_widget(self._tile(panel.played))
        for section in panel.sections:
            self._heading(section.heading)
            for line in section.lines:
                text = escape(line.name)  # a thing held and what it does, or a note
                if line.does:
                    text = f"[b]{text}[/b] — {escape(line.does)}"
                self._text(text)
        self.showing = True
        scroll = self.ids.scroll
        to_top(scroll)
        Clock.schedule_once(lambda _dt: to_top(scroll), 0)  # once the new body is laid out

    #: Close and Not now: the screen's own closing (set by the round screen), else `close`
    dismissing: Callable[[], None] | None = None

    def phone(self) -> None:
        if self._phone_call is not None:
            self._phone_call()

    def dismiss(self) -> None:
        (self.dismissing or self.close)()

    def close(self) -> None:
        self.showing = False
        to_top(self.ids.scroll)  # before the body empties: no spring back from where it was
        self.ids.body.clear_widgets()
        self.choices, self.extras = [], []

    def buttons(self) -> list[Button]:
        """The panel's buttons in reading order, Close last (the Pi's Next goes round them)."""
        return [*getattr(self, "choices", []), *getattr(self, "extras", []), self.ids.close]

    # ----- widgets -------------------------------------------------------------------------------
    def _heading(self, text: str) -> None:
        self.ids.body.add_widget(Factory.PanelHeading(text=text))

    def _text(self, text: str) -> None:
        self.ids.body.add_widget(Factory.PanelText(text=text))

    def _grid(self) -> GridLayout:
        body = self.ids.body
        grid = GridLayout(
            cols=max(1, int((body.width or tile_px()) // tile_px())),
            spacing=dp(6),
            size_hint_y=None,
        )
        grid.bind(minimum_height=grid.setter("height"))
        if not getattr(self, "_columns_bound", False):  # once: a binding per grid kept every
            body.bind(width=self._columns)  # hand shown alive (its tiles and their textures)
            self._columns_bound = True
        body.add_widget(grid)
        return grid

    def _columns(self, body: Widget, width: float) -> None:
        """The card grids shown take as many columns as the panel's width holds."""
        for child in body.children:
            if isinstance(child, GridLayout):
                child.cols = max(1, int(width // tile_px()))

    @staticmethod
    def _same_height(grid: GridLayout, tile: Widget) -> None:
        """Every tile as tall as the tallest, its text at the top: the cards line up as on
        the table. Each text's height is measured at the tile's width now (laid out, not
        drawn): a height read from its texture may be one of a narrower width the grid had a
        frame before."""
        tallest = max(
            text_height(t.text, t.font_size, t.font_name, max(1, t.width - dp(16)), t.halign)
            for t in grid.children
        )
        for each in grid.children:
            if each.text_size != [each.width - dp(16), tallest]:
                each.text_size = (each.width - dp(16), tallest)
            each.height = max(dp(48), tallest + dp(16))

    def _tile(self, card: CardFacts, act: Callable[[PanelAction], None] | None = None) -> Widget:
        playable = act is not None and card.choose is not None
        verb = tr("Play this one instead") if card.instead else tr("Play this card")
        tile = Factory.CardTile(text=tile_text(card, verb if playable else ""))
        if playable and act is not None and card.choose is not None:
            action = PanelAction(card.title, (card.choose,))
            tile.background_color = theme.COMMIT
            tile.bind(on_release=lambda _t: act(action))
            tile.action = lambda: act(action)
            tile.commit = True
            self.choices.append(tile)
        else:
            tile.disabled = True  # facts to read, nothing to press
        return tile

    def _ask(self, question: str, yes: str, show_hand: Callable[[], None]) -> None:
        """ "Only Matthew looks — show?" in large type, Show and Not now as two big buttons side
        by side (Not now closes the panel, as Close does)."""
        self.ids.body.add_widget(Factory.PanelQuestion(text=question))
        row = Factory.AnswerRow()
        for text, call, commit in ((yes, show_hand, True), (tr("Not now"), self.dismiss, False)):
            button = Factory.AnswerButton(text=text)
            button.background_color = theme.COMMIT if commit else theme.PANEL
            button.action = call
            button.commit = commit
            button.bind(on_release=lambda b: b.action())
            row.add_widget(button)
            self.choices.append(button)
        self.ids.body.add_widget(row)

    def _button(self, text: str, call: Callable[[], None], commit: bool = False) -> None:
        button = Factory.OptionButton(text=text)
        button.background_color = theme.COMMIT if commit else theme.PANEL
        button.action = call
        button.commit = commit
        button.bind(on_release=lambda b: b.action())
        self.ids.body.add_widget(button)
        self.choices.append(button)
