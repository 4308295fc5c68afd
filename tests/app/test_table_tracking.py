"""The table tracked end to end, with real parts: the simulated board's nodes on pseudo-terminals
behind the real bridge, the simulated table turning platforms edge by edge over the rim readers,
a game on a real SQLite log, the table watch, and the LED rings the nodes really show."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.devices.leds import LedSync, Light, RingShow, table_leds
from companion.app.devices.nodes import BoardHardware, register_stickers
from companion.app.devices.watch import TableWatch, game_view, origin_of
from companion.app.session.game import GameSession
from companion.app.story.announce import announcements
from companion.app.table.taps import TagIndex
from companion.app.table.tracking import Origin, Step, TableStatus, TableTracker
from companion.boardfile import load_board_file
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.store.gamelog import GameLog
from companion.store.nfc import NfcRegistry
from firmware_bridge.board import room_node
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for

FORTRESS = load_board_file()
NE = "NE"


class LiveTable:
    """A game at a simulated table, wired as the app wires it."""

    def __init__(self, directory: Path, seats: list[tuple[str, str]], seed: int) -> None:
        self.log = GameLog(directory / "companion.db")
        self.registry = NfcRegistry(self.log.db)
        self.hardware = BoardHardware.simulated_board(FORTRESS)
        assert self.hardware.table is not None
        self.table = self.hardware.table
        self.table.step_s = 0.04
        register_stickers(self.registry, self.table)
        self.tags = TagIndex(self.registry)
        bridge = self.hardware.bridge
        self.tracker = TableTracker(
            FORTRESS.rooms,
            self.tags.lookup,
            self.tags.rim_tagged,
            self.tags.figure_tagged,
            # the debounce as the thread that reads sees time: a loaded machine stalls it
            settle_s=limit(0.25),
            alert_after_s=limit(0.5),
            online=bridge.is_online,
        )
        self.statuses: list[TableStatus] = []
        self.watch = TableWatch(
            self.tracker, list(FORTRESS.rooms), LedSync(bridge), self.statuses.append
        )
        self.hardware.start(self.watch.node_message)
        self.watch.start()
        wait_for(lambda: all(bridge.is_online(room_node(r)) for r in FORTRESS.rooms), 10, "nodes")
        self.session = GameSession.start(self.log, seed, seats)
        self.last: list = []
        self.watch.game(game_view(self.session.rules, self.session.state, Origin.NEW_GAME))

    @property
    def status(self) -> TableStatus:
        return self.watch.status

    def do(self, command: c.Command) -> list[e.Event]:
        before = self.session.state
        events = self.session.execute(command)
        self.last = announcements(self.session.rules, before, events)
        self.watch.game(
            game_view(self.session.rules, self.session.state, origin_of(command), self.last)
        )
        return events

    def undo(self) -> None:
        self.session.undo()
        self.last = []
        self.watch.game(game_view(self.session.rules, self.session.state, Origin.UNDO))

    def settled(self, what: str, done: object, timeout_s: float = 5.0) -> None:
        wait_for(lambda: self.watch.wait_idle(0.1) and bool(done()), timeout_s, what)  # type: ignore[operator]

    def ring(self, room: str) -> RingShow:
        """What the simulated node's ring really shows (from the LED commands it applied)."""
        node = self.table.node(room)

        def light(led: object) -> Light:
            return Light(led.colour, led.pattern, led.brightness)  # type: ignore[attr-defined]

        ring = light(node.ring) if node.ring is not None else Light()
        return RingShow(ring, tuple(sorted((d, light(x)) for d, x in node.segments.items())))

    def rings_match_the_state(self) -> bool:
        """Every node shows exactly the picture the state, announcements and status imply."""
        want = table_leds(FORTRESS.rooms, self.session.state, self.last, self.watch.status)
        return all(self.ring(room) == want[room_node(room)] for room in FORTRESS.rooms)

    def close(self) -> None:
        self.watch.stop()
        self.hardware.stop()
        self.log.close()


@pytest.fixture()
def live(tmp_path: Path) -> Iterator[LiveTable]:
    table = LiveTable(tmp_path, [("matthew", "L1"), ("roel", "L2")], 3)
    try:
        yield table
    finally:
        table.close()


def until_set_up(live: LiveTable) -> None:
    """The simulated table stands as the default layout: the readers close the setup steps."""
    live.settled("setup confirmed", lambda: live.status.actions == () and live.status.alerts == ())


def rotation_event(live: LiveTable) -> list[tuple[str, object]]:
    return [
        (row["kind"], row["payload"])
        for row in live.log.db.query(
            "select kind, payload from events where game_id = ? and kind = 'platform_rotated' "
            "order by seq",
            [live.session.game_id],
        )
    ]


@pytest.mark.rule("R-ABL Mechanics")
def test_a_round_where_mechanics_turns_a_platform_by_the_rim_tags(live: LiveTable) -> None:
    """R-ABL Mechanics: the app says what to turn and lights its edge; the table's rim tags
    close the step; undo asks for the turn back and the rings follow the state."""
    assert {a.step for a in live.status.actions} <= {Step.SET_UP}
    until_set_up(live)
    live.settled("the rings as set up", live.rings_match_the_state)
    live.do(c.ChooseCard(hero="matthew", card="matthew/armata-strigoi"))
    live.do(c.ChooseCard(hero="roel", card="roel/nightside-of-siberia"))
    before = live.session.state.rotations[NE]
    target = (before + 2) % 6
    live.do(c.UseMechanics(hero="matthew", room=NE, rotation=target))
    live.settled("the turn asked", lambda: [a.step for a in live.status.actions] == [Step.TURN])
    [turn] = live.status.actions
    assert (turn.room, turn.rotation, turn.sensed) == (NE, target, True)
    live.settled("the edge lit", live.rings_match_the_state)
    lit = live.ring(NE)
    assert lit.segments == ((target, Light("#00c0ff", "chase", 255)),)  # the edge book 0 must face
    live.table.turn(NE, target)  # a hand turns it, edge after edge over the reader
    live.settled("the turn confirmed", lambda: live.status.actions == ())
    live.settled("the rings back", live.rings_match_the_state)
    assert live.ring(NE) == RingShow()  # nothing to show there any more: off
    assert live.status.alerts == ()
    live.undo()  # the game goes back: the table must too
    live.settled(
        "the turn back asked", lambda: [a.rotation for a in live.status.actions] == [before]
    )
    live.settled("undo lights the edge again", live.rings_match_the_state)
    assert live.ring(NE).segments[0][0] == before
    live.table.turn(NE, before)
    live.settled("the turn back confirmed", lambda: live.status.actions == ())
    live.settled("the rings as the state says", live.rings_match_the_state)


def test_a_bumped_platform_resolved_both_ways_in_resync(live: LiveTable) -> None:
    until_set_up(live)
    start = live.session.state.rotations[NE]
    live.table.bump(NE)  # an elbow: one edge
    live.settled("the alert", lambda: len(live.status.alerts) == 1)
    [alert] = live.status.alerts
    assert (alert.room, alert.table, alert.game) == (NE, (start + 1) % 6, start)
    live.settled("the ring blinks", live.rings_match_the_state)
    assert live.ring(NE).ring == Light("#ffb000", "pulse", 255)
    # "the table is right": a correction, in the log like any command
    live.do(c.SetRotation(room=NE, rotation=int(alert.table or 0)))
    live.settled(
        "resolved by the correction", lambda: live.status.alerts == () and live.status.actions == ()
    )
    assert rotation_event(live)[-1][0] == "platform_rotated"
    assert live.session.state.rotations[NE] == (start + 1) % 6
    commands = [
        row["payload"]
        for row in live.log.db.query(
            "select payload from commands where game_id = ? order by seq", [live.session.game_id]
        )
    ]
    assert '"set_rotation"' in commands[-1]
    live.settled("rings off again", live.rings_match_the_state)
    # bumped again; now "the app is right": the table is guided back
    live.table.bump(NE)
    live.settled("the second alert", lambda: len(live.status.alerts) == 1)
    [second] = live.status.alerts
    head = live.session.head
    live.watch.app_is_right(second)
    live.settled("guided back", lambda: [a.step for a in live.status.actions] == [Step.TURN])
    live.settled("the edge to turn to is lit", live.rings_match_the_state)
    live.table.turn(NE, (start + 1) % 6)
    live.settled(
        "the guide closes itself", lambda: live.status.actions == () and live.status.alerts == ()
    )
    assert live.session.head == head  # the app was right: nothing was recorded
    live.undo()  # undo the correction: the game says `start` again, the table must follow
    live.settled(
        "undo asks to turn back", lambda: [a.rotation for a in live.status.actions] == [start]
    )
    live.settled("and lights it", live.rings_match_the_state)


@pytest.mark.rule("R-COL-1")
def test_a_collapse_waits_until_the_platform_is_gone(live: LiveTable) -> None:
    """R-COL-1: the collapsed platform's rim tag must disappear from the reader."""
    until_set_up(live)
    state = live.session.state
    collapsed = type(state)(
        **{**{f: getattr(state, f) for f in state.__struct_fields__}, "collapsed": [NE]}
    )
    live.watch.game(game_view(live.session.rules, collapsed, Origin.COMMAND))
    live.settled(
        "remove it", lambda: [a.step for a in live.status.actions] == [Step.REMOVE_PLATFORM]
    )
    live.settled("pulsing red", lambda: live.ring(NE).ring == Light("#ff0000", "pulse", 255))
    live.table.bump(NE)  # touched but still there: not done
    live.watch.wait_idle()
    assert [a.step for a in live.status.actions] == [Step.REMOVE_PLATFORM]
    live.table.remove_platform(NE)
    live.settled(
        "confirmed by the readers", lambda: live.status.actions == () and live.status.alerts == ()
    )


def test_a_strigoi_landing_is_confirmed_by_its_figure_tag(live: LiveTable) -> None:
    """R-TEL: the announcement's landing room; the action closes when the figure is read there."""
    until_set_up(live)
    rng = random.Random(5)
    # play legal commands until a Strigoi is placed or teleports (round 2 on)
    for _ in range(3000):
        events = live.do(rng.choice(live.session.legal_commands()))
        placed = [x for x in events if isinstance(x, e.StrigoiPlaced | e.StrigoiMoved)]
        if placed:
            break
    else:
        pytest.fail("no Strigoi was placed in 3000 commands")
    live.settled(
        "figures to place", lambda: any(a.step == Step.PLACE_FIGURE for a in live.status.actions)
    )
    for action in [a for a in live.status.actions if a.step == Step.PLACE_FIGURE]:
        assert action.sensed and action.figure in ("master", "apprentice")
        live.settled("its ring pulses", live.rings_match_the_state)
        live.table.put_figure(action.room, action.figure or "")
    live.settled(
        "every landing confirmed",
        lambda: not any(a.step == Step.PLACE_FIGURE for a in live.status.actions),
    )
    if any(isinstance(x, e.StrigoiMoved) for x in events):
        assert live.last  # a teleport is also announced


def test_the_rings_follow_a_strigoi_step_undo_redo_and_a_new_game(live: LiveTable) -> None:
    """Issue 14: every ring equals what the state (and the last command's announcements)
    implies, read back from what the simulated nodes really show: a Strigoi's landing pulses
    in its colour; undo takes it back, redo brings the state (not the stale pulse) back; a new
    game leaves nothing of the old one lit."""
    from companion.app.story.announce import STRIGOI_COLOUR

    until_set_up(live)
    rng = random.Random(11)
    for _ in range(3000):  # play until a Strigoi teleports (an announced step)
        live.do(rng.choice(live.session.legal_commands()))
        steps = [
            a for a in live.last if a.kind == "strigoi_step" and a.facts["from"] != a.facts["to"]
        ]
        if steps:
            break
    else:
        pytest.fail("no Strigoi teleported")
    step = steps[0]
    landed = str(step.facts["to"])
    live.settled("the landing lit", live.rings_match_the_state)
    assert live.ring(landed).ring.pattern == "pulse"
    assert live.ring(landed).ring.colour == STRIGOI_COLOUR[str(step.facts["strigoi"])]
    head = live.session.head
    live.undo()
    live.table.arrange(  # the players put the table back as the game now says
        {
            r.id: (r.platform, live.session.state.rotations.get(r.id, 0))
            for r in FORTRESS.rooms.values()
            if r.platform
        },
        {room: None for room in FORTRESS.rooms}
        | {room: name for name, room in live.session.state.strigoi.items()},
    )
    live.settled("undone: no pulse", live.rings_match_the_state)
    assert live.ring(landed).ring.pattern != "pulse"
    live.session.redo()
    live.last = []
    live.watch.game(game_view(live.session.rules, live.session.state, Origin.UNDO))
    assert live.session.head == head
    live.settled("redone", live.rings_match_the_state)
    assert live.session.state.strigoi[str(step.facts["strigoi"])] == landed
    live.session = GameSession.start(live.log, 99, [("roel", "L1"), ("attila", "L2")])
    live.last = []
    live.watch.game(game_view(live.session.rules, live.session.state, Origin.NEW_GAME))
    live.settled("a new game: the old one's rings off", live.rings_match_the_state)
    assert all(live.ring(room).ring.pattern == "off" for room in FORTRESS.rooms)
