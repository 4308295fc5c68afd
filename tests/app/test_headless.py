"""The table without a screen (`python -m companion serve`, issue 17): the table service driven
by the Pi's buttons on gpiozero's mock pins and by cards tapped on the simulated card reader,
answering by voice (recorded) and printing every sentence."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest

from companion.app.headless import HeadlessTable
from companion.app.story.spoken_menu import SPACES_READ_ONE_BY_ONE
from companion.app.words.names import item_name
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from firmware_bridge.node_sim import CARD_READER
from tests.conftest import PYTHON, ROOT
from tests.support.headless_table import headless_table
from tests.support.processes import limit


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
    """R-RND-1: the cards are chosen in secret: the voice names who chooses, never a card.
    The spaces to move to are read as one sentence, then by room; Undo says what it undid."""
    headless, said = table
    service = headless.service
    press(headless, "confirm")  # no game yet: Confirm starts one
    wait("a new game", lambda: service.session is not None and len(said) >= 2)
    session = service.session
    assert session is not None and session.head == 0
    heroes = [h.hero for h in session.state.heroes]
    wait("who chooses", lambda: len(said) >= 2 + len(heroes))
    assert said[:2] == ["A new game.", "Waiting for every player to choose a card."]
    first = said[2]
    assert first.endswith("choose your card in secret: tap it on the card reader."), first
    cards = {item_name(service.catalog, x) for h in session.state.heroes for x in h.hand}
    choices = [x for x in session.legal_commands() if isinstance(x, c.ChooseCard)]
    # on the simulated board nobody can tap its reader: Next offers its tap, never a card
    heard = len(said)
    press(headless, "next")
    wait("the simulated reader offered", lambda: len(said) > heard)
    tap = f"Choice 1 of {len(heroes)}: the simulated reader plays a card for {hero_name(heroes[0])}"
    assert said[-1].startswith(tap), said[-1]
    press(headless, "confirm")
    first_card = lambda: service.session.state.hero(heroes[0]).chosen  # type: ignore[union-attr]  # noqa: E731
    wait("the first hero's card", lambda: first_card() is not None)
    for hero in heroes[1:]:  # each holder taps a card (the reader's path: test below)
        chosen = next(x for x in choices if x.hero == hero)
        headless.post(partial(headless._do, chosen))
    wait("the cards revealed", lambda: service.session.state.phase == "turns")  # type: ignore[union-attr]
    head = service.session.head  # type: ignore[union-attr]
    secret = (
        "choose your card in secret",
        "Waiting for every player to choose a card.",
        "to choose a card.",  # who still chooses, by name ("Waiting for Roel to …")
        "to choose their cards.",
        "the simulated reader plays a card",
    )
    told = lambda: [i for i, x in enumerate(said[2:], 2) if not any(s in x for s in secret)]  # noqa: E731
    wait("a sentence after the secret choices", lambda: bool(told()))  # said a moment later
    until = told()[0]
    assert until >= 2 + 2 * len(heroes) - 1  # one sentence each while choosing, no card named
    assert not any(card in line for line in said[:until] for card in cards), said[:until]
    wait("what the game waits for next", lambda: said[-1].startswith("Waiting for"))
    moves = [x for x in service.session.legal_commands() if isinstance(x, c.Move)]  # type: ignore[union-attr]
    assert len(moves) > SPACES_READ_ONE_BY_ONE  # the first hero may go far
    heard = start = len(said)
    for _ in range(len(headless.options)):  # Stay, then the spaces as one sentence
        press(headless, "next")
        wait("a choice", partial(lambda before: len(said) > before, heard))
        heard = len(said)
        if "can move to" in said[-1]:
            break
    spoken = [line for line in said[start:] if "can move to" in line]
    assert spoken and f"{len(moves)} spaces" in spoken[0], said[start:]
    press(headless, "confirm")  # opens the spaces by room
    heard = len(said)
    press(headless, "next")
    wait("a room", lambda: len(said) > heard)
    assert said[-1].startswith("Choice 1 of ") and " in the " in said[-1] and "space" in said[-1], (
        said[-1]
    )
    press(headless, "undo")
    wait("the undo", lambda: service.session.head == head - 1)  # type: ignore[union-attr]
    wait("said so", lambda: any(x.endswith(" is undone.") for x in said))
    undone = next(x for x in said if x.endswith(" is undone."))
    assert undone.endswith("'s card choice is undone."), undone  # one sentence, no "Undone: X: …"
    assert not any(card in undone for card in cards), undone


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


def test_a_hint_is_never_said_twice_in_a_row(tmp_path: Path) -> None:
    """Issue 29: Confirm pressed again where the hint "Press Next to hear the choices." was
    just said reads the first choice; over a random run of presses, nothing but a choice read
    again on request (Next on a list of one) is said twice in a row."""
    import random
    from itertools import pairwise

    rng = random.Random(3)
    with headless_table(tmp_path) as served:
        headless, said = served.table, served.said
        served.on_loop(lambda: headless.button("confirm"))  # a new game
        for _ in range(200):
            name = rng.choice(["next", "confirm", "confirm"])
            served.on_loop(lambda name=name: headless.button(name))
    hint = "Press Next to hear the choices."
    assert hint in said  # the run met lists to open
    again = [a for a, b in pairwise(said) if a == b]
    assert all(re.match(r"^Choice 1 of 1: ", x) for x in again), again


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
    assert "said: Waiting for every player to choose a card." in done.stdout
    assert (tmp_path / "companion.db").exists()
