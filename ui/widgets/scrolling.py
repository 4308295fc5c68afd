"""Scrolled lists: the scroll view every screen uses, which one holds a widget, and bringing one
to rest. Kivy's scroll view keeps a glide (its scroll effect's velocity) going after a list
changes size; while it lasts it sets the scroll position every frame, over anything else that
sets it."""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.app.words.i18n import ngettext
from ui import theme
from ui.widgets.glyphs import DOWN_MARKUP

__all__ = [
    "MoreBelow",
    "ScrollArea",
    "WholeRows",
    "at_rest",
    "scroll_view_of",
    "text_lines",
    "to_top",
]


class ScrollArea(ScrollView):
    """Kivy's ScrollView without its binding leak (Kivy 2.3): each scroll update binds
    `bar_color` once more and the fade half a second later unbinds it once, so a list scrolled
    or refilled often kept a binding per update (~250 a game on the round screen's lists)."""

    def update_from_scroll(self, *largs: object) -> None:
        self.funbind("bar_color", self._change_bar_color)  # at most the one it binds again
        super().update_from_scroll(*largs)


class MoreBelow(ButtonBehavior, Label):
    """The cue in the empty band a WholeRows list leaves below its whole rows: "(triangle) 3 more
    below", the rows out of sight under its edge. The whole band is its touch target: a tap
    scrolls the list until the next hidden row is in sight. No list row (not in the list,
    no Button): the layout checks judge it as a text, in sight only when it fits its band."""

    #: the rows (or, with none, the texts) below the list's lower edge
    hidden = NumericProperty(0)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.halign = "center"
        self.valign = "middle"
        self.color = theme.MUTED
        self.markup = True  # the triangle in a font that has it
        self.opacity = 0
        self.bind(size=self._wrap)

    def _wrap(self, *_: object) -> None:
        self.text_size = (max(1.0, self.width - 16), None)

    def on_touch_down(self, touch: object) -> bool:
        if self.opacity <= 0 or not self.hidden:
            return False  # not in sight: no target
        return bool(super().on_touch_down(touch))


class WholeRows(Widget):
    """A scrolled list's place in a column: its one child, a ScrollArea over rows (a grid's, or
    tiles within a layout), is made as high as the whole rows at the list's top that fit, the
    rest of the place left empty below it. At rest at its top (as a list opens) the list's
    edge never cuts a row: a button's last line out of sight would read as a whole sentence
    ("…de la chambre" with "nord-ouest." below the edge, issue 29); the player scrolls on to
    the next whole row."""

    #: rows are the texts too, not only the buttons (a card's sentences: the edge never cuts
    #: one of them through)
    rows_of_text = BooleanProperty(False)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._fit_soon = Clock.create_trigger(self._fit, -1)  # before the next frame
        self._watched: Widget | None = None
        self._scrolled: Widget | None = None
        self._cue_drawn: tuple[str, float, float] | None = None  # the cue's text as rendered
        self.cue = MoreBelow()  # below the list (drawn under it): the band's "3 more below"
        self.cue.bind(on_release=self._next_row)
        super().add_widget(self.cue)
        self.bind(pos=self._fit_soon, size=self._fit_soon)

    def add_widget(self, widget: Widget, *args: object, **kwargs: object) -> None:
        super().add_widget(widget, *args, **kwargs)
        self._fit_soon()

    @property
    def view(self) -> Widget | None:
        """The list: the one child that is not the cue."""
        return next((w for w in self.children if w is not self.cue), None)

    def _watch(self, grid: Widget | None) -> None:
        """The list's content: its height changes with its rows, and so does the fit."""
        if grid is self._watched:
            return
        if self._watched is not None:
            self._watched.unbind(height=self._fit_soon, children=self._fit_soon)
        if grid is not None:
            grid.bind(height=self._fit_soon, children=self._fit_soon)  # rows grow the grid
        self._watched = grid

    def visible_height(self) -> float:
        """The height down to the last button or check row (`rows_of_text`: or text; a note
        between the rows: or line of it) at the list's top that fits whole (rows of a grid,
        tiles in a layout within the list). Texts with no row in sight (a rules page) end at
        a line's end. All of the place when everything fits, when not even the first row in
        sight fits whole (a heading above it is no row: the list would show the heading and an
        empty place, the playtest's Why? panel in German with large text), or when the whole
        rows fill less than half of the place (then the row the edge runs through fills the
        rest, and the layout check says it is cut)."""
        view = self.view
        if view is None or not view.children:
            return float(self.height)
        content = view.children[0]
        _lay_out(content)  # the rows where the next frame draws them, not where they were
        if content.height <= self.height + 1:
            return float(self.height)
        top = content.to_window(0, content.top)[1]
        spans = []  # each row's (a text's line's) top and bottom, down from the list's top
        rows: list[tuple[float, float]] = []  # of them, the rows (a heading line is none)
        for b in _rows_and_texts(content):
            if b.height <= 0:
                continue
            if isinstance(b, ButtonBehavior) or (self.rows_of_text and b.text):
                rows.append((top - b.to_window(0, b.top)[1], top - b.to_window(0, b.y)[1]))
            elif b.text:  # a note between the rows: the edge never cuts one of its lines
                spans += [(top - high, top - low) for high, low in text_lines(b)]
        spans += rows
        height = float(self.height)
        moved = True
        while moved:
            moved = False
            for start, end in spans:
                if start < height - 0.5 and end > height + 0.5:  # the edge runs through it
                    height, moved = start, True
        # texts with no row in sight (the rules' paragraphs, their button far below) end
        # between two of their lines; a row in sight must show whole
        row_in_sight = any(start < self.height - 0.5 for start, _end in rows)
        whole = [end <= height + 0.5 for _start, end in (rows if row_in_sight else spans)]
        first_whole = any(whole)
        return height if first_whole and height >= self.height / 2 else float(self.height)

    def _fit(self, *_: object) -> None:
        view = self.view
        if view is None:
            return
        self._watch(view.children[0] if view.children else None)
        if view is not self._scrolled:
            view.bind(scroll_y=self._show_cue)  # scrolled on: fewer rows below
            self._scrolled = view
        height = self.visible_height()
        view.size = (self.width, height)
        view.pos = (self.x, self.top - height)
        self._show_cue()

    def _below(self) -> list[tuple[float, Widget]]:
        """The rows whose lower edge is below the list's (with no such row, the texts), each
        with how far down from the list's top it ends: what the player does not see yet, at
        the list's top as it opens or scrolled. Measured down from the content's top, as
        `visible_height` laid the rows out at the fit (a scroll moves them, it lays out
        nothing: no layout pass in every frame of a glide)."""
        view = self.view
        if not isinstance(view, ScrollView) or not view.children:
            return []
        content = view.children[0]
        if content.height <= view.height + 1:
            return []  # everything in sight
        top = content.to_window(0, content.top)[1]
        shown_to = (content.height - view.height) * (1 - view.scroll_y) + view.height
        rows: list[tuple[float, Widget]] = []
        texts: list[tuple[float, Widget]] = []
        for w in _rows_and_texts(content):
            end = top - w.to_window(0, w.y)[1]
            if w.height <= 0 or end <= shown_to + 0.5:
                continue
            if isinstance(w, ButtonBehavior) or (self.rows_of_text and w.text):
                rows.append((end, w))
            elif w.text:
                texts.append((end, w))
        return rows or texts

    def _show_cue(self, *_: object) -> None:
        """The cue in the band below the list while it hides rows, in sight when its text
        fits the band (a band thinner than a line shows no cue)."""
        view, cue = self.view, self.cue
        band = self.height - view.height if view is not None else 0.0
        count = len(self._below()) if band >= 1 else 0
        cue.hidden = count
        scale = getattr(App.get_running_app(), "text_scale", 1.0) or 1.0
        cue.font_size = max(16.0, sp(16) * scale)
        cue.pos = (self.x, self.y)
        cue.size = (self.width, max(0.0, band))
        if count:
            text = f"{DOWN_MARKUP} " + ngettext(
                "{count} more below", "{count} more below", count
            ).format(count=count)
            key = (text, cue.font_size, cue.width)
            if key != self._cue_drawn:  # rendered again only when it changed, not per frame
                cue.text = text
                cue.texture_update()
                self._cue_drawn = key
        fits = count and cue.texture_size[1] <= band and cue.texture_size[0] <= self.width
        cue.opacity = 1 if fits else 0
        if not fits:
            cue.text = ""
            self._cue_drawn = None

    def _next_row(self, *_: object) -> None:
        """The list scrolled on until the next row below its edge is in sight, whole."""
        view, below = self.view, self._below()
        if not isinstance(view, ScrollView) or not below:
            return
        content = view.children[0]
        end = min(end for end, _w in below)
        at_rest(view)
        view.scroll_y = max(0.0, 1 - (end - view.height) / (content.height - view.height))


def retranslate(root: Widget) -> None:
    """Every "3 more below" cue under `root` again in the language now set: a new language
    changes no size, so no fit would say it again (the play-test saw it stay English)."""
    for widget in _walk(root):
        if isinstance(widget, WholeRows):
            widget._show_cue()


def _rows_and_texts(widget: Widget) -> list[Widget]:
    """The rows one taps (a Button, a check row: whole, not their inner texts) and the texts
    between them, within the widget."""
    if isinstance(widget, ButtonBehavior):
        return [widget]
    found = [widget] if isinstance(widget, Label) else []
    for child in widget.children:
        found += _rows_and_texts(child)
    return found


def text_lines(label: Label) -> list[tuple[float, float]]:
    """The window heights of the top and bottom of each line of a label's text, as drawn
    (centred in the label): where a list ends (WholeRows) and where the layout checks see a
    line cut."""
    label.texture_update()  # the text as the next frame draws it
    lines = len(getattr(getattr(label, "_label", None), "_cached_lines", None) or ()) or 1
    texture_h = label.texture_size[1]
    if texture_h <= 0:
        return []
    high = label.to_window(0, label.center_y + texture_h / 2)[1]
    line_h = texture_h / lines
    return [(high - k * line_h, high - (k + 1) * line_h) for k in range(lines)]


def _lay_out(widget: Widget) -> None:
    """Lay out the widget and the layouts within it now, top down: the list is fitted before
    the frame in which Kivy would (a reused button grown by its new text still stands where
    its shorter text put it, and a fit on those places cut it with room to spare)."""
    if isinstance(widget, Layout):
        widget.do_layout()
    for child in widget.children:
        _lay_out(child)


def _walk(widget: Widget) -> list[Widget]:
    found = [widget]
    for child in widget.children:
        found += _walk(child)
    return found


def scroll_view_of(widget: Widget) -> ScrollView | None:
    """The scroll view the widget lies in, if any."""
    parent = widget.parent
    while isinstance(parent, Widget) and not isinstance(parent, ScrollView):
        parent = parent.parent  # the Window above the root is no widget: the climb ends there
    return parent if isinstance(parent, ScrollView) else None


def at_rest(view: ScrollView) -> None:
    """Stop the list's glide, as a finger put on it does."""
    for effect in (view.effect_x, view.effect_y):
        if effect is not None:
            effect.velocity = 0


def to_top(view: ScrollView) -> None:
    """The list back at its top, at rest: a glide left from the list before would otherwise
    carry on and move the new list under the finger."""
    at_rest(view)
    view.scroll_y = 1
