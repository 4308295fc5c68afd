"""The Strigoi placement of round 2 at a table (issue 40, items 3 and 8; R-SET-3), through the
table service as every front end drives it: the simulated board's nodes on pseudo-terminals,
the voice through espeak-ng (a stand-in first on PATH that records each call), a real log.
The to-do is raised, lit and spoken, and closed by the centre readers (the figures set on the
simulated table) or by hand; a service restarted mid-game on the simulated board finds its
table as the game left it: no difference, no alert, no amber ring."""

from __future__ import annotations

import contextlib
import queue
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app.devices.leds import ALERT_COLOUR
from companion.app.service import Outcome, TableService
from companion.app.story.announce import STRIGOI_COLOUR
from companion.app.story.cards import card_of
from companion.app.table.tracking import Step, TableStatus
from companion.engine.game import events as e
from firmware_bridge.board import room_node
from tests.support.processes import limit
from tests.support.standins.voice_standin import StandIn

pytestmark = pytest.mark.slow  # the simulated board's nodes on pseudo-terminals, the voice


class Posted:
    """The listener and the service's thread: what the service posts runs here, when asked."""

    def __init__(self) -> None:
        self.calls: queue.Queue[Callable[[], None]] = queue.Queue()
        self.statuses: list[TableStatus] = []

    def run(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                self.calls.get(timeout=0.02)()

    def until(self, what: str, done: Callable[[], bool], seconds: float = 10.0) -> None:
        deadline = time.monotonic() + limit(seconds)
        while not done():
            assert time.monotonic() < deadline, f"waited in vain for {what}"
            self.run(0.05)

    def table_changed(self, status: TableStatus) -> None:
        self.statuses.append(status)

    def __getattr__(self, name: str) -> object:
        return lambda *args: None  # the other listener calls


@pytest.fixture()
def voice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[StandIn]:
    standin = StandIn(tmp_path / "voice")
    for key, value in standin.env().items():
        monkeypatch.setenv(key, value)
    yield standin


def table_service(data: Path, posted: Posted) -> TableService:
    service = TableService(data, posted.calls.put)
    service.start(posted)  # type: ignore[arg-type]
    table = service.hardware.table
    assert table is not None  # the embedded default: the simulated board
    table.step_s = 0.02  # quick hands (the readers' debounce stays)
    return service


def set_up(service: TableService, posted: Posted, seed: int) -> None:
    service.new_game(seed=seed)
    service.simulated_hands()  # the players set the table up as the wizard says
    posted.until("the table set up", lambda: table_in_step(service), 15)


def table_in_step(service: TableService) -> bool:
    service.watch.wait_idle(0)
    status = service.watch.status
    return not status.actions and not status.differences


def play_until(service: TableService, posted: Posted, done: Callable[[Outcome], bool]) -> Outcome:
    """Random legal commands; after each, what the table must do is done by hand (the simulated
    hands follow the game), until `done(outcome)`."""
    chooser = random.Random(5)
    for _ in range(600):
        session = service.session
        assert session is not None and session.state.phase != "over"
        outcome = service.execute(chooser.choice(session.legal_commands()))
        assert outcome.refused is None, outcome.refused
        if done(outcome):
            return outcome
        service.watch.wait_idle(limit(2.0))
        posted.run(0.02)
        if service.watch.status.actions:
            service.done_by_hand()
            posted.until("the simulated table to follow", lambda: table_in_step(service))
    raise AssertionError("not reached in 600 commands")


def glows(service: TableService, room: str) -> bool:
    """The room's ring glows steady (a Strigoi standing there, nothing to do)."""
    ring = service.hardware.ring(room_node(room))
    return ring is not None and ring.pattern == "steady"


def round_two_begins(outcome: Outcome) -> bool:
    return any(isinstance(x, e.StrigoiPlaced) for x in outcome.events)


@pytest.mark.rule("R-SET-3")
@pytest.mark.parametrize("closed_by", ["readers", "hand"])
def test_round_two_asks_the_table_to_place_the_strigoi(
    tmp_path: Path, voice: StandIn, closed_by: str
) -> None:
    posted = Posted()
    service = table_service(tmp_path / "data", posted)
    try:
        set_up(service, posted, seed=11)
        outcome = play_until(service, posted, round_two_begins)
        session = service.session
        assert session is not None
        entered = dict(session.state.strigoi)
        assert set(entered) == {"master", "apprentice"}
        kinds = [a.kind for a in outcome.announced]
        assert kinds[-3:] == ["curse_skipped", "round", "strigoi_placed"], kinds
        # the to-do: each Strigoi figure onto its room's centre, the readers able to see it
        service.watch.wait_idle(limit(2.0))
        asked = {
            (a.room, a.figure)
            for a in service.watch.status.actions
            if a.step == Step.PLACE_FIGURE and a.sensed
        }
        assert asked == {(room, name) for name, room in entered.items()}
        # lit: the nodes' rings pulse in each Strigoi's colour
        service.hardware.bridge.wait_acked(limit(2.0))
        for name, room in entered.items():
            ring = service.hardware.ring(room_node(room))
            assert ring is not None
            assert (ring.colour, ring.pattern) == (STRIGOI_COLOUR[name], "pulse"), room
        # spoken: the placement card's words, naming each figure and its room
        card = card_of(service.catalog, outcome.announced[-1])
        assert service.speaker.idle(limit(10))
        said = [call.text for call in voice.calls()]
        assert said[-2:] == [service.announcer.words(a) for a in outcome.announced[-2:]]
        assert said[-1] == card.words and all(put in said[-1] for put in card.todo)
        assert "Put the Master on the centre of the" in said[-1]
        if closed_by == "readers":
            table = service.hardware.table
            assert table is not None
            for name, room in entered.items():
                table.put_figure(room, name)  # a player sets the figure on its centre
            posted.until("the readers to confirm", lambda: table_in_step(service))
        else:
            service.done_by_hand()  # "Strigoi placed" on the card, or "Done by hand"
            service.watch.wait_idle(limit(2.0))
            assert service.watch.status.actions == ()  # at once, before any reader saw it
            posted.until("the simulated table to follow", lambda: table_in_step(service))
        for name, room in entered.items():  # the rings now glow steady where each stands
            posted.until(
                f"the {name}'s ring to glow steady", lambda room=room: glows(service, room)
            )
        posted.run(limit(3.5))  # longer than a difference takes to become an alert
        assert service.watch.status.alerts == () and service.watch.status.differences == ()
    finally:
        service.close()


def test_a_restart_mid_game_on_the_simulated_board_finds_the_table_as_it_was(
    tmp_path: Path, voice: StandIn
) -> None:
    """Issue 40, item 8: the simulated board comes back as the printed layout, empty; the
    resumed game holds Strigoi figures on their centres (and maybe turned platforms). It now
    stands as the game left it: nothing differs, nothing turns amber."""
    data = tmp_path / "data"
    posted = Posted()
    service = table_service(data, posted)
    try:
        set_up(service, posted, seed=11)
        play_until(service, posted, round_two_begins)
        service.done_by_hand()
        posted.until("the Strigoi placed", lambda: table_in_step(service))
        play_until(service, posted, lambda outcome: service.session.state.round >= 3)  # type: ignore[union-attr]
        session = service.session
        assert session is not None
        game_id, strigoi = session.game_id, dict(session.state.strigoi)
    finally:
        service.close()
    assert strigoi  # figures a fresh simulated table does not hold
    posted = Posted()
    again = table_service(data, posted)
    try:
        fresh = again.hardware.table
        assert fresh is not None
        assert all(room.figure is None for room in fresh.rooms.values())  # as it starts
        resumed = again.resume()
        assert resumed is not None and resumed.game_id == game_id
        posted.run(limit(4.0))  # longer than a difference needs to become an alert
        again.watch.wait_idle(limit(2.0))
        posted.run(0.1)
        status = again.watch.status
        assert status.differences == () and status.alerts == () and status.actions == ()
        assert [a for s in posted.statuses for a in s.alerts] == []  # never, not even briefly
        again.hardware.bridge.wait_acked(limit(2.0))
        colours = again.ring_colours()
        assert ALERT_COLOUR not in colours.values(), colours
        for name, room in strigoi.items():  # each room with a Strigoi glows in its colour
            assert colours[room] == STRIGOI_COLOUR[name]
    finally:
        again.close()


def test_a_new_game_on_the_simulated_board_starts_without_the_last_games_figures(
    tmp_path: Path, voice: StandIn
) -> None:
    """The same false alarm after a game played on the simulated board: its Strigoi figures
    stayed on their centres and the next game, with none there, called them "extra" until the
    strip and the amber rings came. Players clear the board for a new game; so do the
    simulated table's hands."""
    posted = Posted()
    service = table_service(tmp_path / "data", posted)
    try:
        set_up(service, posted, seed=11)
        play_until(service, posted, round_two_begins)
        service.done_by_hand()
        posted.until("the Strigoi placed", lambda: table_in_step(service))
        assert service.hands is not None and service.hands.idle(limit(5.0))  # one pair of hands
        table = service.hardware.table
        assert table is not None
        assert {x.figure for x in table.rooms.values()} >= {"master", "apprentice"}
        posted.statuses.clear()
        service.new_game(seed=12)
        posted.run(limit(4.0))  # longer than a difference needs to become an alert
        service.watch.wait_idle(limit(2.0))
        posted.run(0.1)
        assert [a for s in posted.statuses for a in s.alerts] == []
        assert service.watch.status.differences == ()
        assert all(x.figure is None for x in table.rooms.values())
    finally:
        service.close()
