"""The terminal demonstration that `./setup.sh run` shows until the touchscreen app exists."""

from __future__ import annotations

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress
from companion.engine.options import Options
from companion.engine.situation import HeroFigure, Situation
from companion.engine.strigoi import StrigoiStep, strigoi_step
from companion.engine.threat import threat_map
from companion.textview import render_board, render_picture

#: Round 2 of a three-player game on the default fortress (cells of the shipped board file).
DEMO_HEROES = (
    HeroFigure("roel", (-5, 7), 4),
    HeroFigure("matthew", (-2, 2), 3),
    HeroFigure("falk_maria", (7, -1), 5),
)


def demo_situation(fortress: Fortress) -> Situation:
    """Both Strigoi on their marked platforms (round 2), three heroes on free spaces."""
    marked = [r.id for r in fortress.rooms.values() if r.strigoi_start]
    board = fortress.initial_state()
    heroes = tuple(h for h in DEMO_HEROES if fortress.is_space(h.at, board))
    strigoi = {"master": marked[-1], "apprentice": marked[0]} if len(marked) >= 2 else {}
    return Situation(board=board, strigoi=strigoi, heroes=heroes, players=3, altar=2)


def most_telling_step(
    fortress: Fortress, situation: Situation, damage: dict[str, int], options: Options
) -> tuple[str, StrigoiStep]:
    """The card letter whose Master step shows the most: an attack if any letter gives one."""
    steps = [
        (letter, strigoi_step(fortress, situation, "master", letter, 1, damage, options))
        for letter in "EABCDF"
    ]
    return next(((x, s) for x, s in steps if s.attack), steps[0])


def run_demo() -> str:
    fortress = load_board_file()
    situation = demo_situation(fortress)
    damage = load_catalog().damage()
    options = Options()
    lines = [
        "Armata Strigoi table companion - terminal demonstration (the app: ./setup.sh run)",
        "",
        render_board(fortress, situation),
    ]
    if "master" not in situation.strigoi:
        return "\n".join([*lines, "", "This board has no Strigoi-marked platforms to start from."])
    letter, step = most_telling_step(fortress, situation, damage, options)
    lines += [
        "",
        f"Roel's card shows {letter!r}; the Strigoi action token shows the Master, +1 damage.",
        *(f"  [{r.rule}] {r.text()}" for r in step.why),
    ]
    if step.attack is not None:
        wounds = step.attack.wounds
        lines.append(
            f"=> {hero_name(step.attack.hero)} takes {wounds} "
            f"{'wound' if wounds == 1 else 'wounds'} unless protected."
        )
    threats = threat_map(fortress, situation, "matthew", None, damage, options)
    unsafe = sum(1 for cell in threats.cells if threats.level(cell) != "safe")
    lines += [
        "",
        f"Threat map for Matthew (card unknown): {unsafe} of {len(threats.cells)} spaces are "
        f"reached by at least one of the {threats.outcome_count} possible Strigoi outcomes.",
        "",
        "After the Strigoi step:",
        render_picture(fortress, step.after),
    ]
    return "\n".join(lines)
