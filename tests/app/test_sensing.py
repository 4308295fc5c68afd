"""The sensed table (reader events -> what the table shows, debounced) and its comparison with the
game: named differences, actions the table must do and alerts, on explicit times."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.app.table.differences import (
    Kind,
    RoomExpected,
    compare,
    expected_from_game,
    expected_from_layout,
)
from companion.app.table.sensing import CENTRE_READER, RIM_READER, UNKNOWN, SensedTable
from companion.app.table.taps import rim_target
from companion.app.table.tracking import Origin, Step, TableTracker
from companion.boardfile import load_board_file
from companion.store.nfc import Binding
from firmware_bridge import protocol as p
from firmware_bridge.board import room_node
from firmware_bridge.tags import rim_edge
from tests.support.processes import limit

FORTRESS = load_board_file()
ROOMS = list(FORTRESS.rooms)
NE = "NE"
NODE = room_node(NE)
PLATFORM = FORTRESS.rooms[NE].platform or ""
OTHER = next(r.platform for r in FORTRESS.rooms.values() if r.platform not in (None, PLATFORM))


def rim_uid(platform: str, edge: int) -> str:
    return f"aa{platform.encode().hex()[:8]:0<8}{edge:02x}"


FIGURES = {"master": "bb000001", "apprentice": "bb000002", "roel": "bb000003"}
TAGS = {
    **{
        rim_uid(r.platform, e): Binding(
            rim_uid(r.platform, e), "platform", rim_target(r.platform, e)
        )
        for r in FORTRESS.rooms.values()
        if r.platform is not None
        for e in range(6)
    },
    **{
        uid: Binding(uid, "strigoi" if f in ("master", "apprentice") else "hero", f)
        for f, uid in FIGURES.items()
    },
    "cc000001": Binding("cc000001", "action_card", "roel/prayer-in-the-dark"),
}


def tracker(tagged: bool = True) -> TableTracker:
    return TableTracker(
        ROOMS,
        TAGS.get,
        lambda platform: tagged,
        lambda figure: tagged and figure in FIGURES,
        settle_s=0.5,
        alert_after_s=3.0,
    )


def hello(node: str = NODE, readers: int = 2) -> p.Hello:
    return p.Hello(seq=1, node=node, kind="room", firmware="t", readers=readers)


def present(uid: str, reader: int = RIM_READER, node: str = NODE) -> p.TagPresent:
    return p.TagPresent(seq=2, node=node, reader=reader, uid=uid)


def removed(uid: str, reader: int = RIM_READER, node: str = NODE) -> p.TagRemoved:
    return p.TagRemoved(seq=3, node=node, reader=reader, uid=uid)


def rim_at(rotation: int, platform: str = PLATFORM) -> str:
    return rim_uid(platform, rim_edge(rotation, FORTRESS.rooms[NE].orientation))


def layout_table(t: TableTracker, now: float, rotations: dict[str, int] | None = None) -> None:
    """Every room node says hello and reads its platform's rim tag as the layout has it."""
    for room in FORTRESS.rooms.values():
        t.feed(hello(room_node(room.id)), now)
        if room.platform is not None:
            rotation = (rotations or {}).get(room.id, room.rotation)
            edge = rim_edge(rotation, room.orientation)
            t.feed(present(rim_uid(room.platform, edge), node=room_node(room.id)), now)


# ----- the debounce ---------------------------------------------------------------------------
def test_a_reading_counts_once_it_stayed_half_a_second() -> None:
    table = SensedTable([NE], settle_s=0.5)
    assert table.room(NE, 0).rim.value is UNKNOWN  # never heard: unknown, not "nothing"
    table.feed(hello(), 0.0)
    assert table.room(NE, 0.4).rim.value is UNKNOWN
    assert table.room(NE, 0.5).rim.value is None  # spoke, nothing on it
    table.feed(present(rim_at(0)), 1.0)
    assert table.room(NE, 1.2).rim.value is None
    assert table.room(NE, 1.5).rim.value == rim_at(0)
    assert table.wake_at(1.2) == pytest.approx(1.5)


def test_a_hand_turning_a_platform_settles_on_the_last_edge_only() -> None:
    table = SensedTable([NE], settle_s=0.5)
    table.feed(hello(), 0.0)
    table.feed(present(rim_at(0)), 0.0)
    now = 1.0
    for rotation in (1, 2, 3):  # edge after edge passes over the reader, 0.2 s each
        table.feed(removed(rim_at(rotation - 1)), now)
        table.feed(present(rim_at(rotation)), now + 0.05)
        now += 0.2
        assert table.room(NE, now).rim.value == rim_at(0)  # still the settled one
    assert table.room(NE, now + 0.5).rim.value == rim_at(3)
    assert table.room(NE, now + 0.5).rim.since == pytest.approx(now - 0.15 + 0.5)


def test_other_nodes_and_readers_are_not_the_tables() -> None:
    table = SensedTable([NE])
    assert not table.feed(present("cc000001", node="cards"), 0.0)
    assert not table.feed(present("cc000001", reader=4), 0.0)
    table.feed(hello(readers=1), 0.0)  # a node with no centre reader
    assert table.room(NE, 5.0).centre.value is UNKNOWN
    table.feed(p.Status(seq=9, node=NODE, state="offline"), 6.0)
    assert table.room(NE, 9.0).rim.value is UNKNOWN


# ----- differences ------------------------------------------------------------------------------
def expect(**changes: object) -> dict[str, RoomExpected]:
    layout = expected_from_layout(FORTRESS)
    layout[NE] = replace(layout[NE], **changes)  # type: ignore[arg-type]
    return layout


def diffs(expected: dict[str, RoomExpected], *messages: p.Message) -> list[tuple[object, ...]]:
    table = SensedTable(ROOMS, settle_s=0.5)
    table.feed(hello(), 0.0)
    for message in messages:
        table.feed(message, 0.0)
    found = compare(expected, table.view(1.0), TAGS.get, lambda x: True, lambda f: f in FIGURES)
    return [(d.room, d.reader, d.kind, d.table, d.game) for d in found]


ROTATION = FORTRESS.rooms[NE].rotation


@pytest.mark.parametrize(
    ("expected", "messages", "found"),
    [
        (expect(), [present(rim_at(ROTATION))], []),
        (
            expect(),
            [present(rim_at((ROTATION + 1) % 6))],
            [(Kind.ROTATION, (ROTATION + 1) % 6, ROTATION)],
        ),
        (expect(), [], [(Kind.NO_PLATFORM, None, PLATFORM)]),
        (
            expect(platform=None, rotation=None),
            [present(rim_at(2))],
            [(Kind.STILL_THERE, PLATFORM, None)],
        ),
        (expect(), [present(rim_at(0, OTHER))], [(Kind.WRONG_PLATFORM, OTHER, PLATFORM)]),
        (expect(), [present("dd000001")], [(Kind.UNKNOWN_TAG, "dd000001", PLATFORM)]),
        (
            expect(),
            [present("cc000001")],
            [(Kind.FOREIGN_TAG, "action_card:roel/prayer-in-the-dark", PLATFORM)],
        ),
        (expect(platform=None, rotation=None), [], []),  # collapsed, and nothing there: right
    ],
)
def test_the_rim_reader(
    expected: dict[str, RoomExpected], messages: list[p.Message], found: list[tuple[object, ...]]
) -> None:
    assert diffs(expected, *messages) == [(NE, RIM_READER, *x) for x in found]


@pytest.mark.parametrize(
    ("figure", "messages", "found"),
    [
        ("master", [present(FIGURES["master"], CENTRE_READER)], []),
        ("master", [], [(Kind.FIGURE_MISSING, None, "master")]),
        (
            "master",
            [present(FIGURES["apprentice"], CENTRE_READER)],
            [(Kind.WRONG_FIGURE, "apprentice", "master")],
        ),
        (None, [present(FIGURES["roel"], CENTRE_READER)], [(Kind.EXTRA_FIGURE, "roel", None)]),
        (None, [present("dd000002", CENTRE_READER)], [(Kind.UNKNOWN_TAG, "dd000002", None)]),
        ("matthew", [], []),  # an untagged figure cannot be missed by the readers
    ],
)
def test_the_centre_reader(
    figure: str | None, messages: list[p.Message], found: list[tuple[object, ...]]
) -> None:
    expected = expect(figure=figure)
    rim = present(rim_at(ROTATION))
    assert diffs(expected, rim, *messages) == [(NE, CENTRE_READER, *x) for x in found]


def test_one_platform_read_in_two_rooms_is_named_for_both() -> None:
    table = SensedTable(ROOMS, settle_s=0.5)
    other_room = next(r for r in FORTRESS.rooms.values() if r.platform == OTHER).id
    for room in (NE, other_room):
        table.feed(hello(room_node(room)), 0.0)
        table.feed(present(rim_at(0, OTHER), node=room_node(room)), 0.0)
    found = compare(
        expected_from_layout(FORTRESS), table.view(1.0), TAGS.get, lambda x: True, lambda f: True
    )
    assert {(d.room, d.kind) for d in found} == {
        (NE, Kind.PLATFORM_TWICE),
        (other_room, Kind.PLATFORM_TWICE),
    }


def test_a_platform_without_registered_tags_is_never_missed() -> None:
    table = SensedTable(ROOMS, settle_s=0.5)
    table.feed(hello(), 0.0)
    assert (
        compare(
            expected_from_layout(FORTRESS),
            table.view(1.0),
            TAGS.get,
            lambda x: False,
            lambda f: False,
        )
        == []
    )


def test_the_game_expects_strigoi_figures_and_heroes_on_centres() -> None:
    from tests.support.table import Table

    t = Table()
    centre = FORTRESS.centre(NE)
    t.place("roel", centre)
    t.game.state.strigoi = {"supreme": "SE"}
    t.game.state.supreme = "apprentice"
    expected = expected_from_game(t.rules, t.state)
    assert expected[NE].figure == "roel"
    assert expected["SE"].figure == "apprentice"  # the Supreme is the flipped card's figure
    t.game.state.collapsed = [NE]
    assert expected_from_game(t.rules, t.state)[NE] == replace(
        expected[NE], platform=None, rotation=None, figure=None
    )


# ----- actions and alerts -----------------------------------------------------------------------
def test_mechanics_asks_the_table_to_turn_and_the_readers_close_it() -> None:
    t = tracker()
    layout_table(t, 0.0)
    base = expected_from_layout(FORTRESS)
    t.expect(base, 0.0, Origin.RESUME)
    assert t.status(1.0).in_step
    turned = {**base, NE: replace(base[NE], rotation=(ROTATION + 2) % 6)}
    t.expect(turned, 2.0, Origin.COMMAND)
    [action] = t.status(2.0).actions
    assert (action.step, action.rotation, action.sensed) == (Step.TURN, (ROTATION + 2) % 6, True)
    assert t.status(10.0).alerts == ()  # asked for: never an alert
    t.feed(removed(rim_at(ROTATION)), 11.0)
    t.feed(present(rim_at((ROTATION + 1) % 6)), 11.1)
    t.feed(removed(rim_at((ROTATION + 1) % 6)), 11.2)
    t.feed(present(rim_at((ROTATION + 2) % 6)), 11.3)
    assert t.status(11.5).actions  # not settled yet
    assert t.wake_at(11.5) == pytest.approx(11.8)
    assert t.status(11.8).in_step


def test_undo_before_the_table_moved_takes_the_action_back() -> None:
    t = tracker(tagged=False)  # no tags: only a player can say it is done
    base = expected_from_layout(FORTRESS)
    t.expect(base, 0.0, Origin.RESUME)
    turned = {**base, NE: replace(base[NE], rotation=(ROTATION + 1) % 6)}
    t.expect(turned, 1.0, Origin.COMMAND)
    assert [a.sensed for a in t.status(1.0).actions] == [False]
    t.expect(base, 2.0, Origin.UNDO)
    assert t.status(2.0).actions == ()
    t.expect(turned, 3.0, Origin.UNDO)  # redo
    t.done_by_hand((NE, RIM_READER))
    t.expect(base, 4.0, Origin.UNDO)  # now the table did turn: undo asks to turn it back
    [back] = t.status(4.0).actions
    assert (back.step, back.rotation) == (Step.TURN, ROTATION)


def test_a_bumped_platform_is_an_alert_only_once_it_lasts() -> None:
    t = tracker()
    layout_table(t, 0.0)
    t.expect(expected_from_layout(FORTRESS), 0.0, Origin.RESUME)
    t.feed(removed(rim_at(ROTATION)), 5.0)
    t.feed(present(rim_at((ROTATION + 1) % 6)), 5.1)
    assert t.status(5.7).alerts == () and len(t.status(5.7).differences) == 1
    assert t.wake_at(5.7) == pytest.approx(5.6 + 3.0)
    [alert] = t.status(8.7).alerts
    assert (alert.kind, alert.table, alert.game, alert.since) == (
        Kind.ROTATION,
        (ROTATION + 1) % 6,
        ROTATION,
        pytest.approx(5.6),
    )
    action = t.app_is_right(alert, 9.0)  # "the app is right": guide the table back
    assert action is not None and (action.step, action.rotation) == (Step.TURN, ROTATION)
    assert t.status(9.0).alerts == ()
    t.feed(present(rim_at(ROTATION)), 9.5)
    assert t.status(10.0).in_step


def test_a_correction_needs_nothing_from_the_table() -> None:
    t = tracker()
    layout_table(t, 0.0, {NE: (ROTATION + 1) % 6})
    base = expected_from_layout(FORTRESS)
    t.expect(base, 0.0, Origin.RESUME)
    assert len(t.status(4.0).alerts) == 1
    corrected = {**base, NE: replace(base[NE], rotation=(ROTATION + 1) % 6)}
    t.expect(corrected, 4.0, Origin.CORRECTION)  # "the table is right"
    assert t.status(4.0).in_step


def test_a_new_game_asks_for_every_platform_and_the_readers_confirm_them() -> None:
    t = tracker()
    t.expect(expected_from_layout(FORTRESS), 0.0, Origin.NEW_GAME)
    assert [a.step for a in t.status(0.0).actions] == [Step.SET_UP] * 6
    layout_table(t, 1.0, {NE: (ROTATION + 3) % 6})
    [left] = t.status(2.0).actions
    assert left.room == NE


@pytest.mark.rule("R-COL-1")
def test_a_collapse_waits_for_the_platform_to_go_and_a_strigoi_for_its_figure() -> None:
    t = tracker()
    layout_table(t, 0.0)
    base = expected_from_layout(FORTRESS)
    t.expect(base, 0.0, Origin.RESUME)
    landed = {**base, NE: replace(base[NE], figure="master")}
    t.expect(landed, 1.0, Origin.COMMAND)  # the Master teleports to NE (R-TEL)
    [place] = t.status(1.0).actions
    assert (place.step, place.figure, place.reader) == (Step.PLACE_FIGURE, "master", CENTRE_READER)
    t.feed(present(FIGURES["master"], CENTRE_READER), 2.0)
    assert t.status(2.5).in_step  # confirmed by its figure tag
    gone = {**landed, NE: replace(landed[NE], platform=None, rotation=None, figure=None)}
    t.expect(gone, 3.0, Origin.COMMAND)  # R-COL-1: the platform collapses, the figure goes
    steps = {a.step for a in t.status(3.0).actions}
    assert steps == {Step.REMOVE_PLATFORM, Step.TAKE_FIGURE}
    t.feed(removed(FIGURES["master"], CENTRE_READER), 4.0)
    t.feed(removed(rim_at(ROTATION)), 4.0)
    assert t.status(4.5).in_step


def test_a_hero_moving_onto_a_centre_is_no_action_when_the_readers_cannot_tell() -> None:
    t = tracker(tagged=False)
    base = expected_from_layout(FORTRESS)
    t.expect(base, 0.0, Origin.RESUME)
    t.expect({**base, NE: replace(base[NE], figure="matthew")}, 1.0, Origin.COMMAND)
    assert t.status(1.0).actions == ()
    t.expect({**base, NE: replace(base[NE], figure="apprentice")}, 2.0, Origin.COMMAND)
    assert [a.step for a in t.status(2.0).actions] == [Step.PLACE_FIGURE]  # a Strigoi: always


def test_the_watch_never_misses_a_reading_that_settles_between_two_clock_reads() -> None:
    """Every clock read jumps 0.3 s: a reading fed at t settles (t + 0.5) after the status was
    computed (t + 0.3) but before the next wake time is worked out (t + 0.6). The watch must
    compute again instead of sleeping until the next input."""
    import itertools
    import time as real_time

    from companion.app.devices.watch import GameView, TableWatch

    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.3  # noqa: E731
    t = TableTracker(
        [NE], TAGS.get, lambda x: True, lambda f: f in FIGURES, settle_s=0.5, alert_after_s=1e6
    )
    seen: list[object] = []
    watch = TableWatch(t, [NE], None, lambda status: seen.append(status), clock=clock).start()
    try:
        layout = expected_from_layout(FORTRESS)
        watch.game(GameView(None, {NE: layout[NE]}, Origin.RESUME))
        watch.node_message(hello())
        watch.node_message(present(FIGURES["master"], CENTRE_READER))
        deadline = real_time.monotonic() + limit(3)
        while real_time.monotonic() < deadline and len(watch.status.differences) < 2:
            real_time.sleep(0.01)
        assert [d.kind for d in watch.status.differences] == [Kind.NO_PLATFORM, Kind.EXTRA_FIGURE]
    finally:
        watch.stop()
