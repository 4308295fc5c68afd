"""The Strigoi step after a turn (R-TEL teleport, R-LOS attack) and the phase-3 curse (R-CUR).

Results are value objects carrying their explanation (`why`) and the situation afterwards.
Relocations the players choose (R-TEL-4, R-LOS-4) are listed, not performed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from companion.engine.explain import Reason, reason
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell, opposite
from companion.engine.options import Options
from companion.engine.sight import Sighting, choose_target, first_on_ray, line_of_sight, ray
from companion.engine.situation import Situation
from companion.errors import IllegalCommand

CARD_LETTERS = "ABCDEFX"


@dataclass(frozen=True, slots=True)
class Teleport:
    strigoi: str
    start: str
    to: str
    moved: bool
    bounced: bool
    direction: int | None  # direction travelled, or of the ladder side reached
    ladder: str | None  # ladder standing in that direction (R-TEL-4, R-TEL-8)
    why: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class Attack:
    hero: str
    distance: int
    wounds: int
    protectable: bool
    direction: int | None  # line from the Strigoi to the hero; None on the same space


@dataclass(frozen=True, slots=True)
class StrigoiStep:
    teleport: Teleport
    attack: Attack | None
    ladder_destroyed: str | None
    blood_lost: int
    relocate: tuple[str, ...]
    why: tuple[Reason, ...]
    after: Situation


@dataclass(frozen=True, slots=True)
class Curse:
    teleport: Teleport
    cursed: tuple[str, ...]
    ladder_destroyed: str | None
    blood_lost: int
    relocate: tuple[str, ...]
    why: tuple[Reason, ...]
    after: Situation


_ProbeKind = Literal["room", "occupied", "ladder", "blocked"]


def check_letter(letter: str) -> None:
    if len(letter) != 1 or letter not in CARD_LETTERS:
        raise IllegalCommand(f"card letter must be one of A-F or X, got {letter!r}")


def _probe(
    fortress: Fortress,
    situation: Situation,
    strigoi: str,
    room: str,
    direction: int,
    options: Options,
) -> tuple[_ProbeKind, str | None, Reason]:
    """What lies in `direction` of `room` for a teleporting Strigoi (R-TEL-2..5)."""
    state = situation.board
    target = fortress.rooms[room].neighbours[direction]
    if target is None:
        ladder = fortress.ladder_by_side.get((room, direction))
        if ladder is not None and ladder in state.ladders:
            return "ladder", ladder, reason("R-TEL-4", "ladder", ladder=ladder, room=room)
        return "blocked", None, reason("R-TEL-3", "no_room", room=room, direction=direction)
    if target == fortress.centre_room and not options.centre_room_is_destination:
        return "blocked", None, reason("R-TEL-3", "centre_not_destination", target=target)
    if target in state.collapsed:
        return "blocked", None, reason("R-TEL-3", "collapsed_room", target=target)
    other = situation.other_strigoi(strigoi)
    if other is not None and situation.strigoi[other] == target:
        return "occupied", target, reason("R-TEL-5", "occupied", target=target, other=other)
    return "room", target, reason("R-TEL-2", "teleport", strigoi=strigoi, start=room, to=target)


def teleport(
    fortress: Fortress, situation: Situation, strigoi: str, letter: str, options: Options
) -> Teleport:
    """Where `strigoi` goes for a card letter: book, bounce, ladder, occupied, X (R-TEL)."""
    check_letter(letter)
    start = situation.strigoi_room(strigoi)
    if letter == "X":
        stay = (reason("R-TEL-6", "letter_x", strigoi=strigoi, room=start),)
        return Teleport(strigoi, start, start, False, False, None, None, stay)
    direction = fortress.book_direction(start, letter, situation.board)
    if direction is None:
        raise IllegalCommand(f"{strigoi} stands in {start!r}, which has no books to read")
    why: list[Reason] = [reason("R-TEL-2", "book", letter=letter, room=start, direction=direction)]
    bounced = False
    for attempt in (direction, opposite(direction)):
        kind, value, because = _probe(fortress, situation, strigoi, start, attempt, options)
        why.append(because)
        if kind == "room":
            assert value is not None
            return Teleport(strigoi, start, value, True, bounced, attempt, None, tuple(why))
        if kind == "occupied":
            return Teleport(strigoi, start, start, False, bounced, attempt, None, tuple(why))
        if kind == "ladder":
            return Teleport(strigoi, start, start, False, bounced, attempt, value, tuple(why))
        if bounced:
            why.append(reason("R-TEL-3", "bounce_failed", strigoi=strigoi, room=start))
            return Teleport(strigoi, start, start, False, True, None, None, tuple(why))
        bounced = True
        why.append(reason("R-TEL-3", "bounce", strigoi=strigoi, direction=opposite(direction)))
    raise AssertionError("unreachable")


def _damage(damage: Mapping[str, int], strigoi: str) -> int:
    try:
        return damage[strigoi]
    except KeyError:
        raise IllegalCommand(f"no damage value known for strigoi {strigoi!r}") from None


@dataclass(frozen=True, slots=True)
class _LadderOutcome:
    destroyed: str | None
    blood_lost: int
    relocate: tuple[str, ...]
    why: tuple[Reason, ...]
    after: Situation


def _destroy_ladder(
    fortress: Fortress, situation: Situation, strigoi: str, ladder_id: str
) -> _LadderOutcome:
    """R-TEL-4: the ladder goes; a hero on it costs a blood point, so does the last ladder."""
    ladder = fortress.ladders[ladder_id]
    why = [reason("R-TEL-4", "ladder_destroyed", strigoi=strigoi, ladder=ladder_id)]
    blood, relocate = 0, []
    for figure in situation.heroes:
        if figure.at == ladder.cell:
            blood += 1
            relocate.append(figure.hero)
            why.append(reason("R-TEL-4", "ladder_occupied", hero=figure.hero, ladder=ladder_id))
    board = situation.board.without_ladder(ladder_id)
    if not board.ladders:
        blood += 1
        why.append(reason("R-TEL-4", "last_ladder"))
    return _LadderOutcome(
        ladder_id, blood, tuple(relocate), tuple(why), situation.with_board(board)
    )


def _landing_victim(fortress: Fortress, situation: Situation, room: str) -> str | None:
    centre = fortress.centre(room)
    return next((h.hero for h in situation.heroes if h.at == centre), None)


def _line_reason(
    fortress: Fortress, situation: Situation, origin: Cell, direction: int, seen: Sighting | None
) -> Reason:
    if seen is not None:
        return reason(
            "R-LOS-1", "sees", direction=direction, figure=seen.figure, distance=seen.distance
        )
    reach = len(ray(fortress, situation.board, origin, direction))
    if reach == 0:
        return reason("R-LOS-1", "line_closed", direction=direction)
    return reason("R-LOS-1", "sees_nothing", direction=direction, reach=reach)


def strigoi_step(
    fortress: Fortress,
    situation: Situation,
    strigoi: str,
    letter: str,
    bonus: int,
    damage: Mapping[str, int],
    options: Options,
) -> StrigoiStep:
    """Phase 2c: teleport, then attack the nearest visible hero (R-TEL, R-LOS)."""
    moved = teleport(fortress, situation, strigoi, letter, options)
    why = list(moved.why)
    wounds = _damage(damage, strigoi) + bonus
    wound_reason = reason(
        "R-LOS-2", "wounds", wounds=wounds, damage=_damage(damage, strigoi), bonus=bonus
    )
    if moved.moved:
        after = situation.with_strigoi(strigoi, moved.to)
        victim = _landing_victim(fortress, situation, moved.to)
        if victim is not None:  # R-LOS-4
            why += [reason("R-LOS-4", "landing_on_hero", hero=victim, room=moved.to), wound_reason]
            attack = Attack(victim, 0, wounds, False, None)
            return StrigoiStep(moved, attack, None, 1, (victim,), tuple(why), after)
        origin = fortress.centre(moved.to)
        occupants = after.occupants(fortress)
        del occupants[origin]
        sightings = line_of_sight(fortress, after.board, occupants, origin)
        seen = {s.direction: s for s in sightings}
        for d in range(6):
            why.append(_line_reason(fortress, after, origin, d, seen.get(d)))
        chosen = choose_target(after, options, sightings)
        if chosen is None:
            why.append(reason("R-LOS-2", "nobody_visible", strigoi=strigoi))
            return StrigoiStep(moved, None, None, 0, (), tuple(why), after)
        target, tied = chosen
        assert target.hero is not None
        code = "target_tie" if tied else "target"
        why += [
            reason("R-LOS-2", code, strigoi=strigoi, hero=target.hero, distance=target.distance),
            wound_reason,
        ]
        attack = Attack(target.hero, target.distance, wounds, True, target.direction)
        return StrigoiStep(moved, attack, None, 0, (), tuple(why), after)
    if moved.ladder is not None:
        ladder = fortress.ladders[moved.ladder]
        origin = fortress.centre(moved.start)
        occupants = situation.occupants(fortress)
        occupants.pop(origin, None)
        first = first_on_ray(fortress, situation.board, occupants, origin, ladder.side)
        if first is not None and first.hero is not None and first.at != ladder.cell:
            why += [
                reason(
                    "R-TEL-4", "ladder_guarded", hero=first.hero, strigoi=strigoi, ladder=ladder.id
                ),
                wound_reason,
            ]
            attack = Attack(first.hero, first.distance, wounds, True, ladder.side)
            return StrigoiStep(moved, attack, None, 0, (), tuple(why), situation)
        outcome = _destroy_ladder(fortress, situation, strigoi, moved.ladder)
        why += outcome.why
        return StrigoiStep(
            moved,
            None,
            outcome.destroyed,
            outcome.blood_lost,
            outcome.relocate,
            tuple(why),
            outcome.after,
        )
    why.append(reason("R-TEL-7", "stays_no_attack", strigoi=strigoi))
    return StrigoiStep(moved, None, None, 0, (), tuple(why), situation)


def cursing_strigoi(situation: Situation) -> str:
    """R-CUR-1: the Master curses, or the Supreme once one Strigoi is gone."""
    for name in ("supreme", "master"):
        if name in situation.strigoi:
            return name
    raise IllegalCommand("neither the Master nor the Supreme Strigoi is on the board")


def curse(fortress: Fortress, situation: Situation, letter: str, options: Options) -> Curse:
    """Phase 3 (R-CUR-1): teleport with the first player's letter, then curse the room."""
    strigoi = cursing_strigoi(situation)
    moved = teleport(fortress, situation, strigoi, letter, options)
    why = list(moved.why)
    if moved.moved:
        after = situation.with_strigoi(strigoi, moved.to)
        cursed = tuple(
            sorted(h.hero for h in situation.heroes if fortress.room_at(h.at) == moved.to)
        )
        why.append(reason("R-CUR-1", "curse", strigoi=strigoi, room=moved.to))
        victim = _landing_victim(fortress, situation, moved.to)
        if victim is None:
            return Curse(moved, cursed, None, 0, (), tuple(why), after)
        why.append(reason("R-CUR-1", "landing_on_hero", hero=victim, room=moved.to))
        return Curse(moved, cursed, None, 1, (victim,), tuple(why), after)
    why.append(reason("R-CUR-1", "no_curse", strigoi=strigoi))
    if moved.ladder is None:
        return Curse(moved, (), None, 0, (), tuple(why), situation)
    # Decision (R-CUR-1): the curse attacks nobody on sight, so a hero between the Strigoi and the
    # ladder does not save it; the ladder is destroyed as in R-TEL-4.
    outcome = _destroy_ladder(fortress, situation, strigoi, moved.ladder)
    why += outcome.why
    return Curse(
        moved,
        (),
        outcome.destroyed,
        outcome.blood_lost,
        outcome.relocate,
        tuple(why),
        outcome.after,
    )
