"""Layout checks run on the live widget tree: text that does not fit its widget, widgets a
layout puts partly outside itself, a word broken between two of its letters, touch targets
smaller than 48 px, tiny texts, internal ids, squeezed lists, a list's edge cutting a row or a
line of text, figures and room names that cover each other on the board."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from ui.theme import MIN_TOUCH_PX


def walk(widget: Widget) -> Iterator[Widget]:
    yield widget
    for child in widget.children:
        yield from walk(child)


def shown(widget: Widget) -> bool:
    """Seen on the screen: neither it nor a parent is hidden (opacity 0) or folded (no
    height)."""
    node: Widget | None = widget
    while isinstance(node, Widget):
        if node.opacity <= 0 or node.height <= 0:
            return False
        node = node.parent if node.parent is not node else None
    return True


def overflowing_labels(root: Widget) -> list[str]:
    """Labels (buttons too) whose rendered text is larger than the widget, or that lose lines
    or letters to it (`clipped`)."""
    found = []
    for widget in walk(root):
        if isinstance(widget, Label) and widget.text and shown(widget):
            widget.texture_update()
            tw, th = widget.texture_size
            if tw > widget.width + 1 or th > widget.height + 1:
                found.append(
                    f"{type(widget).__name__} {widget.text[:40]!r}: text {tw:.0f}x{th:.0f} "
                    f"> widget {widget.width:.0f}x{widget.height:.0f}"
                )
            else:
                lost = clipped(widget)
                if lost:
                    found.append(f"{type(widget).__name__} {widget.text[:40]!r}: {lost}")
    return found


def clipped(label: Label) -> str | None:
    """What Kivy drops without a sign when a text does not fit: the lines below a fixed text
    height ("Inferno" over a lost "0/3"), the letters `shorten` replaces by an ellipsis.
    Measured by laying the text out again with room for all of it."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    width, height = label.text_size
    if width is None or (height is None and not label.max_lines and not label.shorten):
        return None  # nothing set that could drop part of the text
    kind = MarkupLabel if label.markup else CoreLabel
    whole = kind(
        text=label.text,
        font_size=label.font_size,
        font_name=label.font_name,
        bold=label.bold,
        italic=label.italic,
        text_size=(None if label.shorten else width, None),
        halign=label.halign,
        padding=label.padding,
        line_height=label.line_height,
    )
    need_w, need_h = whole.render()  # the size it needs, laid out without drawing
    if label.shorten and need_w > width + 1:
        return f"shortened: needs {need_w:.0f} px, has {width:.0f}"
    shown_h = label.texture_size[1]
    if not label.shorten and need_h > shown_h + 1:
        return f"lines lost: needs {need_h:.0f} px high, shows {shown_h:.0f}"
    return None


def outside_their_box(root: Widget) -> list[str]:
    """Widgets a box or grid layout places partly outside itself: a row of fixed height holding
    taller buttons, more fixed-width children than the row is wide. Each widget's own text may
    fit it (`overflowing_labels` sees nothing), yet Kivy draws it over its neighbours, and a
    scroll view around them cuts it off (issue 29: the setup wizard's Default/Random buttons, 72
    px high in a 48 px row at density 1.5, hidden under the hint above the list)."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.stacklayout import StackLayout

    found = []
    for widget in walk(root):
        box = widget.parent
        if not isinstance(box, (BoxLayout, GridLayout, StackLayout)) or not shown(widget):
            continue
        if widget.width <= 0 or box.width <= 0:
            continue  # folded sideways: nothing of it is seen
        # a box, grid or stack is no relative layout: its children share its coordinates
        beyond = max(box.x - widget.x, widget.right - box.right, box.y - widget.y,
                     widget.top - box.top)  # fmt: skip
        if beyond > 1:
            text = getattr(widget, "text", "")
            found.append(
                f"{type(widget).__name__} {text[:30]!r} {widget.width:.0f}x{widget.height:.0f} "
                f"reaches {beyond:.0f} px outside its {type(box).__name__} "
                f"{box.width:.0f}x{box.height:.0f}"
            )
    return found


#: Kivy markup tags ([b], [color=...], [/b]), not shown
MARKUP_TAG = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def broken_words(root: Widget) -> list[str]:
    """Wrapped labels with a word wider than their line: Kivy breaks such a word between two
    letters ("Pourquo" over "i ?"). A no-break space joins its neighbours into one word."""
    from kivy.core.text import Label as CoreLabel

    found = []
    for label in _visible_texts(root):
        line = label.text_size[0]
        if line is None:
            continue  # not wrapped: `overflowing_labels` judges it
        text = MARKUP_TAG.sub("", label.text) if label.markup else label.text
        measure = CoreLabel(font_size=label.font_size, font_name=label.font_name, bold=label.bold)
        for word in re.split(r"[ \n\t]+", text):
            width = measure.get_extents(word)[0] if word else 0
            if width > line + 1:
                found.append(f"{word!r} is {width:.0f} px, its line {line:.0f} px")
    return found


def small_touch_targets(root: Widget) -> list[str]:
    """Buttons a finger may need, under 48 px (a hidden one, at opacity 0, is none), and the
    board's spaces while one is being chosen: a tap on the whole fortress only zooms to a room,
    so the spaces a finger picks are the zoomed room's, and those must be 48 px too."""
    from ui.board.view import FortressView

    found = [
        f"{w.text[:30]!r}: {w.width:.0f}x{w.height:.0f}"
        for w in walk(root)
        if isinstance(w, Button)
        and shown(w)
        and (w.width < MIN_TOUCH_PX or w.height < MIN_TOUCH_PX)
    ]
    for view in walk(root):
        if not isinstance(view, FortressView) or not shown(view) or not view.highlight:
            continue
        direct = view.zoom_room is not None or not view.zoom_on_tap  # spaces tapped directly
        if direct and view.space_px() < MIN_TOUCH_PX:
            found.append(f"board space to choose: {view.space_px():.0f} px")
    return found


#: What a player must never read: component ids (tokens, cards), coordinates, ladder and platform
#: ids, compass abbreviations of rooms.
INTERNAL_ID = re.compile(
    r"\b(?:red|grey|wound|master|apprentice|token)-[\w-]+"
    r"|\b(?:attila|falk_maria|matthew|charles|roel)/[a-z0-9-]+"
    r"|\[-?\d+, ?-?\d+\]"
    r"|\bL\d\b|\bp\d\b"
    r"|\b(?:NE|NW|SE|SW)\b"
)
MIN_TEXT_PX = 16


def _visible_texts(root: Widget) -> Iterator[Label]:
    for widget in walk(root):
        if isinstance(widget, Label) and widget.text and shown(widget):
            yield widget


def internal_ids(root: Widget) -> list[str]:
    """Visible texts that show an internal id (INTERNAL_ID)."""
    found = []
    for label in _visible_texts(root):
        match = INTERNAL_ID.search(label.text)
        if match:
            found.append(f"{match.group(0)!r} in {label.text[:60]!r}")
    return found


def small_texts(root: Widget) -> list[str]:
    """Visible texts under 16 px: too small to read at arm's length on the 7" panel."""
    return [
        f"{label.text[:30]!r}: {label.font_size:.0f} px"
        for label in _visible_texts(root)
        if label.font_size < MIN_TEXT_PX - 0.01
    ]


#: Rows of a scrolled list a finger must always see at once (the list under the round
#: screen's status lines: the options, the Fix menu, More, Why?).
MIN_LIST_ROWS = 2


def cramped_lists(root: Widget) -> list[str]:
    """Scrolled lists squeezed by what is around them (`squeezed`). A list under a shown
    Strigoi card is not seen, so it is not judged."""
    from kivy.uix.scrollview import ScrollView

    from ui.widgets.scrolling import WholeRows

    found = []
    for view in walk(root):
        if not isinstance(view, ScrollView) or not shown(view) or not view.children:
            continue
        content = view.children[0]
        texts = [w for w in walk(content) if isinstance(w, Label) and w.height > 0]
        lines: dict[int, float] = {}  # a grid's tiles side by side are one row to see
        for w in texts:
            top = round(w.to_window(w.x, w.top)[1])
            lines[top] = max(lines.get(top, 0.0), w.height)
        place = view.parent if isinstance(view.parent, WholeRows) else view  # its place
        problem = squeezed(
            place.height,
            content.height,
            list(lines.values()),
            [w.height for w in texts if isinstance(w, Button)],
            _vertical_spacing(content),
        )
        if problem and not _under_a_card(root, view):
            tallest = max(texts, key=lambda w: w.height)
            found.append(f"{problem} (its tallest: {tallest.text[:30]!r}, {tallest.height:.0f} px)")
    return found


def cut_rows(root: Widget) -> list[str]:
    """Buttons of two lines or more in a scrolled list at its top (as it opens) whose lower
    edge hides some of their lines while showing others whole: the lines in sight read as the whole
    sentence ("…de la chambre" with "nord-ouest." below the edge, issue 29). A line cut
    through shows itself cut; a list scrolled by a finger cuts rows as it moves. A list in its
    place (WholeRows) showing none of its rows, the place empty below, is wrong too."""
    from kivy.uix.behaviors import ButtonBehavior

    from ui.widgets.scrolling import WholeRows

    found = []
    for view, content, edge in _lists_at_their_top(root):
        rows = [  # rows one taps (a page's text is read on, scrolled)
            row for row in walk(content) if isinstance(row, Button) and row.text and row.height > 0
        ]
        for row in rows:
            problem = _lines_below(row, edge)
            if problem:
                found.append(f"{row.text[:40]!r}: {problem}")
        place = view.parent if isinstance(view.parent, WholeRows) else view
        free = place.height - view.height  # the place left empty below the list
        tapped = [  # a check row is a row too, though no Button
            row for row in walk(content) if isinstance(row, ButtonBehavior) and row.height > 0
        ]
        read = [  # a page's paragraphs in sight (the rules): what the list shows is read
            w
            for w in walk(content)
            if isinstance(w, Label) and not isinstance(w, Button) and w.text and w.height > 0
        ]
        in_sight = [w for w in read if w.to_window(0, w.y)[1] >= edge - 1]
        if (
            free > 1
            and tapped
            and not in_sight
            and all(r.to_window(0, r.top)[1] <= edge + 1 for r in tapped)
        ):
            found.append(f"no row in sight, {free:.0f} px of the list's place empty")
    return found


def cut_texts(root: Widget) -> list[str]:
    """Texts of a scrolled list at its top (as it opens) with a line the list's edge cuts
    through: a strip of letters in sight, the rest under what lies beyond the edge (issue 29
    playtest: the setup wizard's reason why Add player is disabled, under its Back/Next row at
    large French text). A list whose place ends between two texts (WholeRows `rows_of_text`)
    or a reason in a fixed place shows none; a list under a shown card is not seen. Buttons are
    `cut_rows`' to judge."""

    found = []
    for view, content, edge in _lists_at_their_top(root):
        if _under_a_card(root, view):
            continue  # not seen
        for label in walk(content):
            if isinstance(label, Button) or not isinstance(label, Label) or not label.text:
                continue
            if label.height <= 0 or not shown(label):
                continue
            strip = _line_cut(label, edge)
            if strip:
                found.append(f"{label.text[:40]!r}: {strip}")
    return found


def _lists_at_their_top(root: Widget) -> list[tuple[Widget, Widget, float]]:
    """Each shown scrolled list at its top (as it opens) with more than it shows: the view,
    its content and the window height of its lower edge. (All in sight, or scrolled by a
    finger: nothing to judge.)"""
    from kivy.uix.scrollview import ScrollView

    found = []
    for view in walk(root):
        if not isinstance(view, ScrollView) or not shown(view) or not view.children:
            continue
        content = view.children[0]
        if content.height <= view.height + 1 or view.scroll_y < 0.999:
            continue
        found.append((view, content, view.to_window(view.x, view.y)[1]))
    return found


def _line_cut(label: Label, edge: float) -> str | None:
    """The line of the label's text that the edge (window y) runs through, if any."""
    from ui.widgets.scrolling import text_lines

    lines = text_lines(label)
    for k, (high, low) in enumerate(lines):
        seen = max(0.0, high - max(low, edge))
        if 1 < seen < high - low - 1:
            return (
                f"line {k + 1} of {len(lines)} cut by the list's edge, "
                f"{seen:.0f} of {high - low:.0f} px"
            )
    return None


def _lines_below(label: Label, edge: float) -> str | None:
    """The lines of a wrapped text the edge (window y) hides, when it shows others whole."""
    from ui.widgets.scrolling import text_lines

    lines = text_lines(label)
    if len(lines) < 2:
        return None
    seen = hidden = 0
    for high, low in lines:
        visible = max(0.0, high - max(low, edge))
        if visible >= high - low - 1:
            seen += 1
        elif visible < (high - low) / 2:
            hidden += 1
    if seen and hidden:
        return f"{hidden} of {len(lines)} lines below the list's edge, {seen} in sight"
    return None


def _vertical_spacing(layout: Widget) -> float:
    """A box's spacing, or a grid's between its rows ([horizontal, vertical])."""
    spacing = getattr(layout, "spacing", 0) or 0
    if isinstance(spacing, (list, tuple)):
        spacing = spacing[-1]
    return float(spacing)


def squeezed(
    view_px: float, content_px: float, rows: list[float], buttons: list[float], spacing: float
) -> str | None:
    """What is wrong with a list `view_px` high showing `content_px` of rows (texts and
    buttons, however nested): when it must scroll, it must show its tallest button whole (else
    that button can never be scrolled wholly into sight) and MIN_LIST_ROWS of its usual rows,
    else a player scrolls blind; a long note may be read by scrolling."""
    from statistics import median

    if content_px <= view_px + 1 or not rows:
        return None  # everything in sight, or nothing to see
    usual = MIN_LIST_ROWS * median(rows) + (MIN_LIST_ROWS - 1) * spacing
    needed = max(max(buttons, default=0.0), usual)
    if view_px + 1 >= needed:
        return None
    return (
        f"a list of {len(rows)} rows is {view_px:.0f} px high: "
        f"{needed:.0f} px show {MIN_LIST_ROWS} rows"
    )


def _under_a_card(root: Widget, widget: Widget) -> bool:
    """A shown card (the Strigoi card over the round screen's panel, a hero's panel over the
    screen) lies over its centre."""
    from ui.screens.round.screen import CardPanel

    x, y = widget.to_window(*widget.center)
    inside = set()  # the cards the widget is part of (a list on a card is on it, not under it)
    node = widget
    while isinstance(node, Widget) and node.parent is not node:
        inside.add(id(node))
        node = node.parent
    return any(
        isinstance(card, CardPanel)
        and id(card) not in inside
        and card.showing
        and shown(card)
        and card.collide_point(*card.to_widget(x, y))
        for card in walk(root)
    )


def board_overlaps(root: Widget) -> list[str]:
    """Figures, room names, the legend and buttons over a shown board that cover each other,
    and any of them over a space (each space must be seen whole): the view keeps where its
    last redraw put each of them (`FortressView.drawn`, `ground`, `overlays`), compared two by
    two (ui/board_layout.overlaps, covered). A figure stands on its space: that is no cover.
    And no room's name reads as a neighbour's (ui/board_layout.misread): beside another room's
    space, or without a leader line nearer another room than its own."""
    from ui.board.layout import Box, covered, overlaps
    from ui.board.view import FortressView

    found = []
    for view in walk(root):
        if isinstance(view, FortressView) and shown(view):
            names = [item for item in view.drawn if isinstance(item, Box)]
            found += [f"board: {problem}" for problem in overlaps([*view.drawn, *view.overlays])]
            found += [
                f"board: {problem}" for problem in covered(view.ground, [*names, *view.overlays])
            ]
            found += [f"board: {problem}" for problem in view.misread_names()]
    return found
