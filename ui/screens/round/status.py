"""What the round screen's status shows, computed from the game state: the round and phase,
the heroes in seat order with their wounds, a Strigoi step's lines on the board."""

from __future__ import annotations

from companion.app.words.i18n import tr
from companion.app.words.names import round_line
from companion.engine.explain import hero_name
from companion.engine.game.context import GameRules
from companion.engine.game.state import GameState, HeroState
from ui import theme


def status_text(state: GameState) -> str:
    """Round and phase, who has chosen a card; the heroes' wounds follow below it as large
    counters in the figures' colours and marks (`wound_chips`, no caption: a line less for
    the options at large text). Each Strigoi's wounds are in the board's legend ("Master 1/3"),
    not here: the panel's lines are the options' room at 800x480."""
    lines = [round_line(state.round, state.phase)]
    if state.phase == "initiative":
        chosen = ", ".join(hero_name(h.hero) for h in seated(state) if h.chosen)
        if chosen:
            lines.append(tr("Card chosen: {list}").format(list=chosen))
    return "\n".join(lines)


def seated(state: GameState) -> list[HeroState]:
    return sorted(state.heroes, key=lambda h: h.seat)


def wound_chips(rules: GameRules, state: GameState) -> list[tuple[str, str, int]]:
    """One large counter per hero, in seat order: (hero id, its mark, its wounds), the wounds
    counted as toward defeat (R-WND-1: the Double Wound counts 2)."""
    return [
        (
            h.hero,
            theme.FIGURE_MARKS.get(h.hero, h.hero[:2].upper()),
            sum(rules.catalog.wound(w).value for w in h.wounds),
        )
        for h in seated(state)
    ]


def threat_legend() -> list[tuple[str, tuple[float, float, float, float], str]]:
    """The threat map's legend: what each shade says about the next Strigoi step, the
    deadliest first (when the zoomed legend's one row is full, "Safe" is the one left out;
    the board leaves out a shade it does not draw: `FortressView._legend_entries`)."""
    return [
        ("deadly", theme.DEADLY, tr("Deadly")),
        ("tint", theme.THREAT["risky"], tr("Risky")),
        ("tint", theme.THREAT["safe"], tr("Safe")),
    ]
