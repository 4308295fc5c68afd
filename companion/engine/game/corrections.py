"""Manual corrections: the table is right and the game follows it (a hero, a Strigoi, blood,
wounds, a platform's rotation; the set-ups of arrange.py). Accepted at any time, checked against
the board, undoable like any command."""

from __future__ import annotations

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.arrange import arrange
from companion.engine.game.context import ALTAR_MAX, GameRules, board_state
from companion.engine.game.effects import draw_token
from companion.engine.game.emitter import Emitter, refuse
from companion.engine.game.queries import platform_turned

#: the blood points of the game (R-CMP-6)
BLOOD_POINTS = 14


def _playing(em: Emitter, cmd: c.Command, hero: str) -> None:
    if hero not in {h.hero for h in em.state.heroes}:
        raise refuse(cmd, f"{hero!r} is not playing")


def correct(rules: GameRules, em: Emitter, cmd: c.Command) -> None:
    """Apply one correction (one of `commands.CORRECTIONS`), or refuse it."""
    state = em.state
    if isinstance(cmd, c.SET_UP):
        arrange(rules, em, cmd)
    elif isinstance(cmd, c.SetHeroPosition):
        _playing(em, cmd, cmd.hero)
        to = None if cmd.to is None else (cmd.to[0], cmd.to[1])
        if to is not None and not rules.fortress.is_space(to, board_state(state)):
            raise refuse(cmd, f"{list(to)} is not a space")
        em(e.HeroMoved(hero=cmd.hero, to=to, manual=True))
    elif isinstance(cmd, c.SetBlood):
        fits = 0 <= cmd.altar <= ALTAR_MAX and cmd.inferno >= 0
        if not (fits and cmd.altar + cmd.inferno <= BLOOD_POINTS):
            raise refuse(cmd, "the Altar holds 0-5 and the 14 blood points are not exceeded")
        em(e.BloodSet(altar=cmd.altar, inferno=cmd.inferno))
    elif isinstance(cmd, c.AddWound):
        _playing(em, cmd, cmd.hero)
        if "wound" in rules.options.physical and cmd.token is None:
            raise refuse(cmd, "the wound tokens are physical: say which token")
        token = draw_token(em, rules, "wound", cmd.token)
        if token is None:
            raise refuse(cmd, "no wound token left")
        em(e.WoundTaken(hero=cmd.hero, token=token))
    elif isinstance(cmd, c.RemoveWound):
        _playing(em, cmd, cmd.hero)
        if cmd.token not in state.hero(cmd.hero).wounds:
            raise refuse(cmd, f"{cmd.hero} has no wound {cmd.token!r}")
        em(e.WoundRemoved(hero=cmd.hero, token=cmd.token))
    elif isinstance(cmd, c.SetStrigoiPosition):
        if cmd.strigoi not in state.strigoi:
            raise refuse(cmd, f"{cmd.strigoi!r} is not on the board")
        if cmd.room not in rules.fortress.rooms:
            raise refuse(cmd, f"unknown room {cmd.room!r}")
        centre = rules.fortress.centre(cmd.room)
        others = {room for name, room in state.strigoi.items() if name != cmd.strigoi}
        if any(h.at == centre for h in state.heroes) or cmd.room in others:
            raise refuse(cmd, f"the centre of {cmd.room} is taken")
        em(e.StrigoiMoved(strigoi=cmd.strigoi, room=cmd.room))
    elif isinstance(cmd, c.SetRotation):
        if cmd.room not in rules.fortress.platforms or not 0 <= cmd.rotation <= 5:
            raise refuse(cmd, "a platform room and a rotation 0-5")
        # the figures on the table rode the platform when it turned (bumped or turned by hand)
        em(platform_turned(rules, state, cmd.room, cmd.rotation))
    else:
        raise refuse(cmd, "not a correction")


__all__ = ["correct"]
