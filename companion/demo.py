"""The terminal demonstration that `./setup.sh run` shows until the touchscreen app exists."""

from __future__ import annotations

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.fortress import Fortress
from companion.engine.options import Options
from companion.engine.situation import HeroFigure, Situation
from companion.engine.strigoi import strigoi_step
from companion.engine.threat import threat_map
from companion.textview import render_board


def demo_situation(fortress: Fortress) -> Situation:
    """Round 2 on the default fortress: both Strigoi on their marked platforms, three heroes."""
    marked = [r.id for r in fortress.rooms.values() if r.strigoi_start]
    board = fortress.initial_state()
    spaces = [c for c in fortress.spaces(board) if fortress.feature(c, board) is None]
    occupied = {fortress.centre(room) for room in marked}
    free = [c for c in spaces if c not in occupied and fortress.room_at(c) is not None]
    east = fortress.rooms["E"].centre if "E" in fortress.rooms else free[0]
    heroes = (
        HeroFigure("roel", min(free, key=lambda c: abs(c[0] - east[0]) + abs(c[1] - east[1])), 4),
        HeroFigure("matthew", (east[0], east[1] - 7), 6) if (east[0], east[1] - 7) in free
        else HeroFigure("matthew", free[len(free) // 2], 6),
        HeroFigure("falk_maria", free[-1], 2),
    )
    return Situation(
        board=board, strigoi={"master": marked[0], "apprentice": marked[-1]}, heroes=heroes,
        players=3, altar=2,
    )


def run_demo(letter: str = "E") -> str:
    fortress = load_board_file()
    situation = demo_situation(fortress)
    damage = load_catalog().damage()
    options = Options()
    step = strigoi_step(fortress, situation, "master", letter, 1, damage, options)
    lines = [
        "Armata Strigoi table companion - terminal demonstration (the touchscreen app comes later)",
        "",
        render_board(fortress, situation),
        "",
        f"Roel played a card showing {letter!r}; the Strigoi action token shows the Master, +1 damage.",
    ]
    lines += [f"  [{r.rule}] {r.text()}" for r in step.why]
    if step.attack is not None:
        lines.append(
            f"=> {step.attack.hero} takes {step.attack.wounds} wound(s) unless protected."
        )
    threats = threat_map(fortress, situation, "matthew", None, damage, options)
    deadly = sum(1 for outcomes in threats.cells.values() if outcomes)
    lines += [
        "",
        f"Threat map for Matthew (card unknown): {deadly} of {len(threats.cells)} spaces would be "
        f"attacked by at least one of {threats.outcome_count} possible Strigoi outcomes.",
        "",
        render_board(fortress, step.after).split("\n\n")[0],
    ]
    return "\n".join(lines)
