"""The Strigoi step after a turn (R-TEL teleport, R-LOS attack) and the phase-3 curse (R-CUR).

Results are value objects carrying their explanation (`why`) and the situation afterwards.
Relocations the players choose (R-TEL-4, R-LOS-4) are listed, not performed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.engine.explain import Reason, reason
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import opposite
from companion.engine.options import Options
from companion.engine.sight import Sighting, choose_target, first_on_ray, scan
from companion.engine.situation import Situation
from companion.errors import IllegalCommand

CARD_LETTERS = "ABCDEFX"


#: One direction tried: (direction, outcome code, room or ladder id, other Strigoi in the way)
Attempt = tuple[int, str, str | None, str | None]
_BLOCKED = ("no_room", "centre_not_destination", "collapsed_room")


@dataclass(frozen=True, slots=True)
class Teleport:
    strigoi: str
    start: str
    to: str
    moved: bool
    bounced: bool
    direction: int | None  # direction travelled, or of the ladder side reached
    ladder: str | None  # ladder standing in that direction (R-TEL-4, R-TEL-8)
    letter: str
    attempts: tuple[Attempt, ...] = ()

    @property
    def why(self) -> tuple[Reason, ...]:
        """The explanation, built on demand from the directions tried."""
        name, start = self.strigoi, self.start
        if not self.attempts:
            return (reason("R-TEL-6", "letter_x", strigoi=name, room=start),)
        first = self.attempts[0][0]
        why = [reason("R-TEL-2", "book", letter=self.letter, room=start, direction=first)]
        for i, (direction, code, value, other) in enumerate(self.attempts):
            if i == 1:
                why.append(reason("R-TEL-3", "bounce", strigoi=name, direction=direction))
            if code == "teleport":
                why.append(reason("R-TEL-2", code, strigoi=name, start=start, to=value))
            elif code == "ladder":
                why.append(reason("R-TEL-4", code, ladder=value, room=start))
            elif code == "occupied":
                why.append(reason("R-TEL-5", code, target=value, other=other))
            elif code == "no_room":
                why.append(reason("R-TEL-3", code, room=start, direction=direction))
            else:
                why.append(reason("R-TEL-3", code, target=value))
        if len(self.attempts) == 2 and self.attempts[1][1] in _BLOCKED:
            centre = any(code == "centre_not_destination" for _d, code, _v, _o in self.attempts)
            why.append(
                reason(
                    "R-TEL-3",
                    "bounce_failed_centre" if centre else "bounce_failed",
                    strigoi=name,
                    room=start,
                    direction=first,
                    opposite=self.attempts[1][0],
                )
            )
        return tuple(why)


@dataclass(frozen=True, slots=True)
class Attack:
    hero: str
    distance: int
    wounds: int
    protectable: bool
    direction: int | None  # line from the Strigoi to the hero; None on the same space


#: One sight line from the landing centre: direction, first figure on it (or None), cells walked.
SightLine = tuple[int, Sighting | None, int]


@dataclass(frozen=True, slots=True)
class StrigoiStep:
    teleport: Teleport
    attack: Attack | None
    ladder_destroyed: str | None
    blood_lost: int
    relocate: tuple[str, ...]
    before: Situation
    damage: int  # the Strigoi card's damage; wounds = damage + bonus
    bonus: int
    lines: tuple[SightLine, ...] = ()  # the six lines looked along after landing (R-LOS-1)
    tied: bool = False  # the target won a distance tie (R-LOS-2)
    ladder_why: tuple[Reason, ...] = ()

    @property
    def after(self) -> Situation:
        """The situation once the step is done (relocations, a player's choice, not applied)."""
        jump = self.teleport
        if jump.moved:
            return self.before.with_strigoi(jump.strigoi, jump.to)
        if self.ladder_destroyed is not None:
            return self.before.with_board(self.before.board.without_ladder(self.ladder_destroyed))
        return self.before

    @property
    def why(self) -> tuple[Reason, ...]:
        """The explanation, built on demand from what the step recorded."""
        jump, attack = self.teleport, self.attack
        why = list(jump.why)
        wounds = reason(
            "R-LOS-2",
            "wounds",
            wounds=self.damage + self.bonus,
            damage=self.damage,
            bonus=self.bonus,
        )
        if jump.moved:
            if attack is not None and not attack.protectable:
                why.append(reason("R-LOS-4", "landing_on_hero", hero=attack.hero, room=jump.to))
                return (*why, wounds)
            why += [_line_reason(d, seen, reach) for d, seen, reach in self.lines]
            if attack is None:
                why.append(reason("R-LOS-2", "nobody_visible", strigoi=jump.strigoi))
                return tuple(why)
            code = "target_tie" if self.tied else "target"
            why.append(
                reason(
                    "R-LOS-2",
                    code,
                    strigoi=jump.strigoi,
                    hero=attack.hero,
                    distance=attack.distance,
                )
            )
            return (*why, wounds)
        if jump.ladder is not None:
            if attack is not None:
                why.append(
                    reason(
                        "R-TEL-4",
                        "ladder_guarded",
                        hero=attack.hero,
                        strigoi=jump.strigoi,
                        ladder=jump.ladder,
                    )
                )
                return (*why, wounds)
            return (*why, *self.ladder_why)
        return (*why, reason("R-TEL-7", "stays_no_attack", strigoi=jump.strigoi))


@dataclass(frozen=True, slots=True)
class Curse:
    teleport: Teleport
    cursed: tuple[str, ...]
    ladder_destroyed: str | None
    blood_lost: int
    relocate: tuple[str, ...]
    why: tuple[Reason, ...]
    after: Situation


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
) -> Attempt:
    """What lies in `direction` of `room` for a teleporting Strigoi (R-TEL-2..5)."""
    state = situation.board
    target = fortress.rooms[room].neighbours[direction]
    if target is None:
        ladder = fortress.ladder_by_side.get((room, direction))
        if ladder is not None and ladder in state.ladders:
            return (direction, "ladder", ladder, None)
        return (direction, "no_room", None, None)
    if target == fortress.centre_room and not options.centre_room_is_destination:
        return (direction, "centre_not_destination", target, None)
    if target in state.collapsed:
        return (direction, "collapsed_room", target, None)
    for other, where in situation.strigoi.items():
        if other != strigoi and where == target:
            return (direction, "occupied", target, other)
    return (direction, "teleport", target, None)


def teleport(
    fortress: Fortress, situation: Situation, strigoi: str, letter: str, options: Options
) -> Teleport:
    """Where `strigoi` goes for a card letter: book, bounce, ladder, occupied, X (R-TEL)."""
    check_letter(letter)
    start = situation.strigoi_room(strigoi)
    if letter == "X":  # R-TEL-6
        return Teleport(strigoi, start, start, False, False, None, None, letter)
    direction = fortress.book_direction(start, letter, situation.board)
    if direction is None:
        raise IllegalCommand(f"{strigoi} stands in {start!r}, which has no books to read")
    first = _probe(fortress, situation, strigoi, start, direction, options)
    attempts: tuple[Attempt, ...] = (first,)
    if first[1] in _BLOCKED:  # R-TEL-3: bounce
        attempts = (
            first,
            _probe(fortress, situation, strigoi, start, opposite(direction), options),
        )
    last_direction, code, value, _ = attempts[-1]
    bounced = len(attempts) == 2
    if code == "teleport":
        assert value is not None
        return Teleport(
            strigoi, start, value, True, bounced, last_direction, None, letter, attempts
        )
    if code == "ladder":  # R-TEL-4 (R-TEL-8 when bounced)
        return Teleport(
            strigoi, start, start, False, bounced, last_direction, value, letter, attempts
        )
    where = last_direction if code == "occupied" else None  # R-TEL-5, or the bounce failed
    return Teleport(strigoi, start, start, False, bounced, where, None, letter, attempts)


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


def ladder_guard(
    fortress: Fortress, situation: Situation, room: str, ladder_id: str
) -> Sighting | None:
    """R-TEL-4: the visible hero standing between the Strigoi in `room` and its ladder, if any.

    The first figure on the line toward the ladder; a hero on the ladder itself does not guard it.
    """
    ladder = fortress.ladders[ladder_id]
    origin = fortress.centre(room)
    occupants = situation.occupants(fortress)
    occupants.pop(origin, None)
    first = first_on_ray(fortress, situation.board, occupants, origin, ladder.side)
    if first is None or first.hero is None or first.at == ladder.cell:
        return None
    return first


def _landing_victim(fortress: Fortress, situation: Situation, room: str) -> str | None:
    centre = fortress.centre(room)
    return next((h.hero for h in situation.heroes if h.at == centre), None)


def _line_reason(direction: int, seen: Sighting | None, reach: int) -> Reason:
    if seen is not None:
        return reason(
            "R-LOS-1", "sees", direction=direction, figure=seen.figure, distance=seen.distance
        )
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
    card = _damage(damage, strigoi)
    wounds = card + bonus
    if moved.moved:
        victim = _landing_victim(fortress, situation, moved.to)
        if victim is not None:  # R-LOS-4
            attack = Attack(victim, 0, wounds, False, None)
            return StrigoiStep(moved, attack, None, 1, (victim,), situation, card, bonus)
        origin = fortress.centre(moved.to)
        occupants = situation.occupants(fortress)
        del occupants[fortress.centre(moved.start)]  # the Strigoi has left its old platform
        lines: list[SightLine] = []
        sightings: list[Sighting] = []
        for d in range(6):
            seen, reach = scan(fortress, situation.board, occupants, origin, d)
            lines.append((d, seen, reach))
            if seen is not None:
                sightings.append(seen)
        chosen = choose_target(situation, options, sightings)
        if chosen is None:
            return StrigoiStep(moved, None, None, 0, (), situation, card, bonus, tuple(lines))
        target, tied = chosen
        assert target.hero is not None
        attack = Attack(target.hero, target.distance, wounds, True, target.direction)
        return StrigoiStep(moved, attack, None, 0, (), situation, card, bonus, tuple(lines), tied)
    if moved.ladder is not None:
        guard = ladder_guard(fortress, situation, moved.start, moved.ladder)
        if guard is not None:
            assert guard.hero is not None
            attack = Attack(guard.hero, guard.distance, wounds, True, guard.direction)
            return StrigoiStep(moved, attack, None, 0, (), situation, card, bonus)
        outcome = _destroy_ladder(fortress, situation, strigoi, moved.ladder)
        return StrigoiStep(
            moved,
            None,
            outcome.destroyed,
            outcome.blood_lost,
            outcome.relocate,
            outcome.after,
            card,
            bonus,
            ladder_why=outcome.why,
        )
    return StrigoiStep(moved, None, None, 0, (), situation, card, bonus)


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


__all__ = [
    "CARD_LETTERS",
    "Attack",
    "Attempt",
    "Curse",
    "SightLine",
    "StrigoiStep",
    "Teleport",
    "check_letter",
    "curse",
    "cursing_strigoi",
    "ladder_guard",
    "strigoi_step",
    "teleport",
]
