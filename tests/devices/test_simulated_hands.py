"""The embedded default plays its part (issue 27): on the simulated board nobody moves the
figures, so when the players confirm a step ("Done", "Done by hand") or say the app is right,
the simulated table's hands set the figures and platforms as the game says. Ten Strigoi steps
raise no alert, and no difference outlives a confirmed step."""

from __future__ import annotations

import contextlib
import queue
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.devices.voice import Silent
from companion.app.service import TableService
from companion.app.table.tracking import TableStatus
from tests.support.processes import limit

pytestmark = pytest.mark.slow  # the simulated board's nodes on pseudo-terminals, debounce waits


class Watched:
    """Every table status the service tells, on the test's thread (the service's `post`)."""

    def __init__(self) -> None:
        self.statuses: list[TableStatus] = []
        self.calls: queue.Queue[Callable[[], None]] = queue.Queue()

    def run_posted(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                self.calls.get(timeout=0.02)()

    def until(self, what: str, done: Callable[[], bool], seconds: float) -> None:
        deadline = time.monotonic() + limit(seconds)
        while not done():
            assert time.monotonic() < deadline, f"waited in vain for {what}"
            self.run_posted(0.05)

    def table_changed(self, status: TableStatus) -> None:
        self.statuses.append(status)

    def __getattr__(self, name: str) -> object:
        return lambda *args: None  # the other listener calls


def test_ten_strigoi_steps_on_the_simulated_board_raise_no_alert(tmp_path: Path) -> None:
    watched = Watched()
    service = TableService(tmp_path, watched.calls.put, speaker=Silent())
    try:
        service.start(watched)  # type: ignore[arg-type]
        table = service.hardware.table
        assert table is not None
        table.step_s = 0.02  # quick hands (the readers' debounce stays)
        service.new_game(seed=11)
        service.simulated_hands()  # the players set the table up as the wizard says
        service.watch.wait_idle(limit(2.0))
        steps = 0
        chooser = random.Random(5)
        for _ in range(600):
            session = service.session
            assert session is not None
            if steps >= 10 or session.state.phase == "over":
                break
            options = session.legal_commands()
            outcome = service.execute(chooser.choice(options))
            assert outcome.refused is None, outcome.refused
            if any(a.kind == "strigoi_step" for a in outcome.announced):
                steps += 1
            service.watch.wait_idle(limit(2.0))
            watched.run_posted(0.05)
            if service.table_status.actions:
                service.done_by_hand()  # "Done — figures moved"
                watched.until(
                    "the simulated table to show the game",
                    lambda: (
                        not service.table_status.differences and not service.table_status.actions
                    ),
                    10,
                )
        assert steps == 10
        watched.run_posted(3.5)  # longer than a difference needs to become an alert
        assert not service.table_status.differences
        raised = [a for status in watched.statuses for a in status.alerts]
        assert raised == []
    finally:
        service.close()


@pytest.mark.parametrize("answer", ["app", "table"])
def test_each_resync_answer_ends_a_bumped_platforms_difference(tmp_path: Path, answer: str) -> None:
    watched = Watched()
    service = TableService(tmp_path, watched.calls.put, speaker=Silent())
    try:
        service.start(watched)  # type: ignore[arg-type]
        table = service.hardware.table
        assert table is not None
        table.step_s = 0.02
        service.new_game(seed=3)
        service.simulated_hands()
        service.watch.wait_idle(limit(2.0))
        watched.run_posted(0.1)
        watched.statuses.clear()
        watched.until(
            "the table set up",
            lambda: (
                bool(watched.statuses)  # the status told since the new game
                and not service.table_status.differences
                and not service.table_status.actions
            ),
            10,
        )
        room = next(r for r, x in table.rooms.items() if x.platform is not None)
        table.bump(room)  # an elbow
        watched.until("the alert", lambda: bool(service.table_status.alerts), 10)
        alert = service.table_status.alerts[0]
        if answer == "app":
            service.app_is_right(alert)  # guided back: the simulated hands turn it back
        else:
            assert service.table_is_right(alert) is None  # a correction, undoable
        watched.until(
            "the difference to end",
            lambda: not service.table_status.differences and not service.table_status.actions,
            10,
        )
        watched.run_posted(3.5)
        assert not service.table_status.alerts and not service.table_status.differences
    finally:
        service.close()
