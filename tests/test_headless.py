"""The table without a screen (`python -m companion serve`, issue 17): the table service driven
by the Pi's buttons on gpiozero's mock pins and by cards tapped on the simulated card reader,
answering by voice (recorded) and printing every sentence."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.app.headless import HeadlessTable
from firmware_bridge.node_sim import CARD_READER
from tests.conftest import PYTHON, ROOT
from tests.headless_table import headless_table
from tests.processes import limit


def wait(what: str, done: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + limit(seconds)
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[HeadlessTable, list[str]]]:
    """A headless table serving on its own thread, which owns the service (and its SQLite
    connection): the test reads the game in memory and posts what touches the log."""
    with headless_table(tmp_path) as served:
        yield served.table, served.said


def press(table: HeadlessTable, button: str) -> None:
    """A press of the Pi's button: its mock pin goes low (gpiozero calls from its thread)."""
    assert table.service.controls.press(button)
    time.sleep(0.15)  # held, then released


def test_buttons_alone_start_a_game_read_the_choices_play_and_undo(table) -> None:  # type: ignore[no-untyped-def]
    headless, said = table
    service = headless.service
    press(headless, "confirm")  # no game yet: Confirm starts one
    wait("a new game", lambda: service.session is not None and len(said) >= 2)
    assert said[:2] == ["A new game.", "Waiting for: every player to choose a card"]
    session = service.session
    assert session is not None and session.head == 0
    press(headless, "next")
    press(headless, "next")
    wait("two choices read out", lambda: len(said) >= 4)
    count = len(session.legal_commands())
    assert said[2].startswith(f"1/{count}: ") and said[3].startswith(f"2/{count}: ")
    press(headless, "confirm")  # the second choice
    wait("the command", lambda: service.session.head == 1)  # type: ignore[union-attr]
    assert service.session.state.heroes[0].chosen is not None or any(  # type: ignore[union-attr]
        h.chosen
        for h in service.session.state.heroes  # type: ignore[union-attr]
    )
    wait("what the game waits for next", lambda: said[-1].startswith("Waiting for:"))
    press(headless, "undo")
    wait("the undo", lambda: service.session.head == 0)  # type: ignore[union-attr]
    wait("said so", lambda: "Undone." in said)
    assert all(h.chosen is None for h in service.session.state.heroes)  # type: ignore[union-attr]


def test_a_card_tapped_on_the_reader_is_chosen_by_its_holder(table) -> None:  # type: ignore[no-untyped-def]
    headless, _said = table
    service = headless.service
    headless.post(lambda: headless.start_or_resume(7))
    wait("a game", lambda: service.session is not None)
    session = service.session
    assert session is not None
    card = next(x for x in session.state.heroes[0].hand if service.catalog.is_action_card(x))
    headless.post(lambda: service.registry.bind("04aabbccddeeff", "action_card", card))
    headless.post(service.tags.refresh)
    board = service.hardware.simulated
    assert board is not None
    board.nodes[CARD_READER].place_tag("04aabbccddeeff")
    wait("the card chosen", lambda: session.head == 1 or service.session.head == 1)  # type: ignore[union-attr]
    chosen = {h.hero: h.chosen for h in service.session.state.heroes}  # type: ignore[union-attr]
    assert chosen[service.session.state.heroes[0].hero] == card  # type: ignore[union-attr]


@pytest.mark.slow
def test_serve_runs_as_a_command(tmp_path: Path) -> None:
    serve = ["serve", "--data", str(tmp_path), "--play", "--seed", "7", "--seconds", "3"]
    done = subprocess.run(
        [PYTHON, "-m", "companion", *serve, "--silent"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
    )
    assert done.returncode == 0, done.stderr
    assert "said: A new game." in done.stdout
    assert "said: Waiting for: every player to choose a card" in done.stdout
    assert (tmp_path / "companion.db").exists()
