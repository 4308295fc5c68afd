"""Game and table side by side: what the table must do, and what it shows that nobody asked for.

When a rule changes the game (Mechanics turns a platform, a platform collapses, a Strigoi
teleports) the table must follow: an **action** ("turn the platform in NE to ...", "put the
Master on the centre of SE"). It completes by itself when the readers see the table match, or
when a player says it is done by hand (tables without tags). When the table changes while the
game did not (a platform bumped by an elbow, a figure lifted), the difference becomes an
**alert** once it has lasted `alert_after_s`; the players answer it on the Resync screen: the
table is right (a correction command, undoable, made by the app layer) or the app is right
(an action to put the table back, which completes when the readers see it).

Single-threaded: the app's table watch (or a test) feeds it and asks for its status, passing the
time explicitly, so every behaviour here is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from companion.app.table.differences import (
    Difference,
    Kind,
    Lookup,
    RoomExpected,
    Tagged,
    compare,
)
from companion.app.table.sensing import SETTLE_S, UNKNOWN, RoomSensed, SensedTable
from companion.engine.situation import STRIGOI
from firmware_bridge import protocol as p
from firmware_bridge.tags import CENTRE_READER, RIM_READER

ALERT_AFTER_S = 3.0  # a difference the players did not ask for, lasting this long, is an alert
STRIGOI_FIGURES = frozenset(s for s in STRIGOI if s != "supreme")


class Origin(StrEnum):
    COMMAND = "command"  # a rule changed the game: the table must follow
    UNDO = "undo"  # undo or redo moved the game: the table must follow too
    CORRECTION = "correction"  # the table's reality was recorded: nothing to do at the table
    NEW_GAME = "new_game"  # a game starts: set the platforms up as it says
    RESUME = "resume"  # the table is as it was: compare only


class Step(StrEnum):
    SET_UP = "set_up"  # this platform in this room, turned so
    TURN = "turn"  # the platform in the room, to this rotation
    REMOVE_PLATFORM = "remove_platform"  # a collapse (R-COL-1)
    RESTORE_PLATFORM = "restore_platform"  # undo of a collapse
    PLACE_FIGURE = "place_figure"  # on the room's platform centre (a Strigoi landing, R-TEL)
    TAKE_FIGURE = "take_figure"  # off the centre (figure None: whatever lies there)


@dataclass(frozen=True)
class Action:
    room: str
    reader: int
    step: Step
    platform: str | None = None
    rotation: int | None = None
    figure: str | None = None
    since: float = 0.0
    sensed: bool = False  # the readers can confirm it; otherwise a player says it is done
    before: object = None  # what the table showed when it was asked (None: unknown)

    @property
    def key(self) -> tuple[str, int]:
        return (self.room, self.reader)


@dataclass(frozen=True)
class TableStatus:
    actions: tuple[Action, ...]  # what the table must do, in the order asked
    alerts: tuple[Difference, ...]  # lasting differences nobody asked for
    differences: tuple[Difference, ...]  # everything the readers disagree on now
    sensed: Mapping[str, RoomSensed] = field(default_factory=dict)  # what the readers show

    @property
    def in_step(self) -> bool:
        return not self.actions and not self.alerts


def _rim(x: RoomExpected) -> tuple[str | None, int | None]:
    return (x.platform, x.rotation)


class TableTracker:
    def __init__(
        self,
        rooms: Iterable[str],
        lookup: Lookup,
        rim_tagged: Tagged,
        figure_tagged: Tagged,
        settle_s: float = SETTLE_S,
        alert_after_s: float = ALERT_AFTER_S,
        online: Callable[[str], bool] = lambda node: True,
    ) -> None:
        self.sensed = SensedTable(rooms, settle_s)
        self.lookup = lookup
        self.rim_tagged = rim_tagged
        self.figure_tagged = figure_tagged
        self.alert_after_s = alert_after_s
        self.online = online
        self.expected: dict[str, RoomExpected] = {}
        self._actions: dict[tuple[str, int], Action] = {}
        self._changed_at: dict[tuple[str, int], float] = {}

    # ----- inputs ------------------------------------------------------------------------------
    def feed(self, message: p.Message, now: float) -> bool:
        return self.sensed.feed(message, now)

    def expect(self, expected: Mapping[str, RoomExpected], now: float, origin: Origin) -> None:
        """The game now holds `expected`; `origin` says whether the table must follow."""
        old = self.expected
        self.expected = dict(expected)
        if origin in (Origin.NEW_GAME, Origin.RESUME):
            self._actions.clear()
            for room in expected:
                for reader in (RIM_READER, CENTRE_READER):
                    self._changed_at[(room, reader)] = now
            if origin == Origin.NEW_GAME:
                for want in expected.values():
                    if want.cutout and want.platform is not None:
                        self._ask(
                            Action(
                                want.room,
                                RIM_READER,
                                Step.SET_UP,
                                want.platform,
                                want.rotation,
                                since=now,
                                sensed=self.rim_tagged(want.platform),
                            )
                        )
            return
        for room, want in expected.items():
            was = old.get(room)
            if was is None:
                continue
            if _rim(was) != _rim(want):
                self._changed_at[(room, RIM_READER)] = now
                self._rim_changed(was, want, now, origin)
            if was.figure != want.figure:
                self._changed_at[(room, CENTRE_READER)] = now
                self._centre_changed(was, want, now, origin)

    def _ask(self, action: Action) -> None:
        self._actions.pop(action.key, None)
        self._actions[action.key] = action  # newest last: the order they were asked in

    def _rim_changed(
        self, was: RoomExpected, want: RoomExpected, now: float, origin: Origin
    ) -> None:
        key = (want.room, RIM_READER)
        open_action = self._actions.get(key)
        if origin == Origin.CORRECTION:
            self._actions.pop(key, None)
            return
        before = open_action.before if open_action is not None else _rim(was)
        if before == _rim(want):
            self._actions.pop(key, None)  # asked and taken back before the table moved
            return
        if want.platform is None:
            step, platform = Step.REMOVE_PLATFORM, was.platform
        elif was.platform is None:
            step, platform = Step.RESTORE_PLATFORM, want.platform
        else:
            step, platform = Step.TURN, want.platform
        self._ask(
            Action(
                want.room,
                RIM_READER,
                step,
                platform,
                want.rotation,
                since=now,
                sensed=platform is not None and self.rim_tagged(platform),
                before=before,
            )
        )

    def _centre_changed(
        self, was: RoomExpected, want: RoomExpected, now: float, origin: Origin
    ) -> None:
        key = (want.room, CENTRE_READER)
        open_action = self._actions.get(key)
        if origin == Origin.CORRECTION:
            self._actions.pop(key, None)
            return
        before = open_action.before if open_action is not None else was.figure
        if before == want.figure:
            self._actions.pop(key, None)
            return
        figure: str | None
        if want.figure is not None:
            step, figure = Step.PLACE_FIGURE, want.figure
        else:
            step, figure = Step.TAKE_FIGURE, before if isinstance(before, str) else None
        tagged = figure is not None and self.figure_tagged(figure)
        if figure not in STRIGOI_FIGURES and not tagged:
            # heroes move their own figures; the app asks only where the readers can confirm
            self._actions.pop(key, None)
            return
        self._ask(
            Action(
                want.room,
                CENTRE_READER,
                step,
                figure=figure,
                since=now,
                sensed=tagged,
                before=before,
            )
        )

    # ----- answers from the players ------------------------------------------------------------
    def done_by_hand(self, key: tuple[str, int] | None = None) -> None:
        """The table did it (no tags to tell): one action, or every action when `key` is None."""
        if key is None:
            self._actions.clear()
        else:
            self._actions.pop(key, None)

    def app_is_right(self, difference: Difference, now: float) -> Action | None:
        """Guide the table back to the game: an action that completes when the readers see it."""
        want = self.expected.get(difference.room)
        if want is None:
            return None
        if difference.reader == RIM_READER:
            if want.platform is None:
                action = Action(want.room, RIM_READER, Step.REMOVE_PLATFORM, str(difference.table))
            elif difference.kind == Kind.ROTATION:
                action = Action(want.room, RIM_READER, Step.TURN, want.platform, want.rotation)
            elif difference.kind == Kind.NO_PLATFORM:
                action = Action(
                    want.room, RIM_READER, Step.RESTORE_PLATFORM, want.platform, want.rotation
                )
            else:
                action = Action(want.room, RIM_READER, Step.SET_UP, want.platform, want.rotation)
        elif want.figure is not None:
            action = Action(want.room, CENTRE_READER, Step.PLACE_FIGURE, figure=want.figure)
        else:
            taken = difference.table if difference.kind == Kind.EXTRA_FIGURE else None
            action = Action(
                want.room,
                CENTRE_READER,
                Step.TAKE_FIGURE,
                figure=taken if isinstance(taken, str) else None,
            )
        action = replace(action, since=now, sensed=True, before=difference.table)
        self._ask(action)
        return action

    # ----- outputs -----------------------------------------------------------------------------
    def status(self, now: float) -> TableStatus:
        """Actions still open (those the readers now confirm are closed), alerts, differences."""
        for node in self.sensed.room_of_node:
            if not self.online(node):
                self.sensed.offline_node(node, now)  # unknown until it says hello again
        view = self.sensed.view(now)
        found = compare(self.expected, view, self.lookup, self.rim_tagged, self.figure_tagged)
        found = [self._dated(d, now) for d in found]
        by_key = {d.key: d for d in found}
        for key, action in list(self._actions.items()):
            seen = view.get(action.room)
            if seen is None or not action.sensed:
                continue
            value = (seen.rim if action.reader == RIM_READER else seen.centre).value
            if value is not UNKNOWN and key not in by_key:
                del self._actions[key]  # the readers see the table as the game holds it
        alerts = tuple(
            d for d in found if d.key not in self._actions and now - d.since >= self.alert_after_s
        )
        return TableStatus(tuple(self._actions.values()), alerts, tuple(found), view)

    def _dated(self, difference: Difference, now: float) -> Difference:
        seen = self.sensed.room(difference.room, now)
        reading = seen.rim if difference.reader == RIM_READER else seen.centre
        since = max(reading.since, self._changed_at.get(difference.key, 0.0))
        return replace(difference, since=since)

    def wake_at(self, now: float) -> float | None:
        """The next time the status may change without new input: a reading settles, or a
        difference becomes old enough to be an alert."""
        times = []
        settle = self.sensed.wake_at(now)
        if settle is not None:
            times.append(settle)
        for d in self.status(now).differences:
            due = d.since + self.alert_after_s
            if d.key not in self._actions and due > now:
                times.append(due)
        return min(times, default=None)
