"""Which of the round screen's places hold back a touch after they change (ui/widgets/
touch_guard.py): the lists of options and the committing buttons below them, Undo, Redo, the
tool row, the heroes' chips, the alert strip, the Strigoi card and a hero's panel as they open
or show something else, and the board as it zooms."""

from __future__ import annotations

from typing import Any

from ui.widgets.touch_guard import TouchGuard, window_rect


def guard_round(screen: Any) -> TouchGuard:
    """The guard of `screen` (a RoundScreen whose board and hero panel are attached)."""
    guard = TouchGuard(screen)
    ids = screen.ids
    for name in ("options", "commit_box", "undo", "redo", "tools", "wounds", "alert", "zoom_out"):
        guard.watch(ids[name])
    guard.watch(ids.card)
    guard.watch(ids.card_headline, "text", area=ids.card)  # the next card, read too soon
    hero = screen.hero_view
    guard.watch(hero)
    guard.watch(hero.ids.body, "children", area=hero)  # the hand shown after Show, say
    view = screen.view
    zoomed = view.on_zoom

    def on_zoom(room: str | None) -> None:  # a tap on a room: its spaces come under the finger
        guard.areas.moved(window_rect(view))
        zoomed(room)

    view.on_zoom = on_zoom
    return guard


__all__ = ["guard_round"]
