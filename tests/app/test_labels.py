"""What players read: every command, token, space, task and engine reason in words, in the four
languages, with printed names and room names and never an internal id (a token id, a card id,
a coordinate, a ladder id, a compass abbreviation)."""

from __future__ import annotations

import random
import typing
from collections.abc import Iterator

import pytest

from companion.app.words import i18n
from companion.app.words.command_labels import command_label
from companion.app.words.names import set_ladder_owners, space_name, token_name
from companion.app.words.status import render, waiting_label
from companion.app.words.table_texts import site_label
from companion.engine.explain import reason
from companion.engine.game import commands as c
from companion.engine.game.tasks import EncounterTask, FightTask, StealthChoiceTask
from tests.support.table import Table
from tests.ui_driver.checks import INTERNAL_ID

LANGUAGES = tuple(i18n.LANGUAGES)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def sample_commands() -> list[c.Command]:
    """Commands of every kind: the legal ones of random games, and the corrections."""
    found: dict[type, c.Command] = {}
    for seed in range(12):
        t = Table(seats=[("roel", "L1"), ("matthew", "L2"), ("attila", "L3")], seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            legal = t.game.legal_commands()
            if not legal or t.state.phase == "over":
                break
            for command in legal:
                found.setdefault(type(command), command)
            t.do(rng.choice(legal))
    t = Table()
    corrections: list[c.Command] = [
        c.SetHeroPosition(hero="roel", to=t.rules.fortress.centre("NE")),
        c.SetStrigoiPosition(strigoi="master", room="SE"),
        c.SetRotation(room="NE", rotation=3),
        c.SetBlood(altar=2, inferno=1),
        c.AddWound(hero="roel", token="wound-double"),
        c.RemoveWound(hero="roel", token="wound-shock-1"),
        c.EnterDraw(hero="roel", token="grey-03"),
        c.UseLeap(hero="roel", to=t.rules.fortress.centre("NE"), source="card"),
        c.UsePack(hero="roel", to=t.rules.fortress.centre("NE"), source="token-pack-1"),
        c.Relocate(hero="roel", to=t.rules.fortress.ladders["L1"].cell),
        c.SwapRewards(hero="roel", other="matthew", give=["sword"]),
        c.DiscardForShock(hero="roel", card="roel/prayer-in-the-dark"),
        c.UseRetrieval(hero="roel", card="sword"),
        c.UseMechanics(hero="matthew", room="NE", rotation=4, source="wrench:normal"),
        c.SetCards(hero="roel", hand=["roel/prayer-in-the-dark"]),
        c.SetFightMarkers(cells=[t.rules.fortress.centre("NE")]),
        c.SetStrigoiWounds(strigoi="master", wounds=2),
        c.SetLadders(ladders=["L1"]),
        c.SetFaceUp(stack="red", token="red-02"),
    ]
    for command in corrections:
        found.setdefault(type(command), command)
    centre = t.rules.fortress.centre("NE")
    values: dict[str, object] = {
        "hero": "roel", "to": centre, "take_from": centre, "card": "roel/prayer-in-the-dark",
        "token": "grey-03", "strigoi": "master", "mode": "melee", "room": "NE", "rotation": 2,
        "other": "matthew", "sources": ["card"], "source": "card", "altar": 1, "inferno": 0,
    }  # fmt: skip
    for kind in typing.get_args(c.AnyCommand):  # the kinds no random game reached
        if kind not in found:
            fields = {f: values[f] for f in kind.__struct_fields__ if f in values}
            found[kind] = kind(**fields)
    return list(found.values())


COMMANDS = sample_commands()


def test_the_samples_cover_every_kind_of_command() -> None:
    kinds = set(typing.get_args(c.AnyCommand))
    assert kinds - {type(x) for x in COMMANDS} == set()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda x: type(x).__name__)
def test_every_command_reads_as_words_without_ids(language: str, command: c.Command) -> None:
    t = Table()
    set_ladder_owners([("roel", "L1"), ("matthew", "L2")])
    label = command_label(command, t.rules.catalog, t.rules.fortress)
    assert INTERNAL_ID.search(label) is None, label
    hero = getattr(command, "hero", None)
    assert len(label) > len(hero or "") + 4, label  # more than the bare hero: a real label


@pytest.mark.parametrize(
    "token", ["red-01", "grey-03", "master-1", "wound-double", "wound-shock-1", "token-strength-1"]
)
def test_tokens_read_as_printed(language: str, token: str) -> None:
    name = token_name(Table().rules.catalog, token)
    assert INTERNAL_ID.search(name) is None and token not in name, name


def test_spaces_are_named_by_ladder_room_stairs_or_centre(language: str) -> None:
    t = Table()
    fortress = t.rules.fortress
    set_ladder_owners([("roel", "L1")])
    board = fortress.initial_state()
    in_rooms = [x for x in fortress.spaces(board) if fortress.room_at(x) is not None]
    stairs = next(x for x in in_rooms if fortress.feature(x, board) == "stairs")
    plain = next(
        x for x in in_rooms if fortress.feature(x, board) is None and x != fortress.centre("NE")
    )
    names = {
        space_name(fortress, fortress.ladders["L1"].cell),
        space_name(fortress, fortress.centre("NE")),
        space_name(fortress, stairs),
        space_name(fortress, plain),
    }
    assert len(names) == 4 and all(INTERNAL_ID.search(n) is None for n in names), names
    assert "Roel" in space_name(fortress, fortress.ladders["L1"].cell)


def test_tasks_and_ladder_sites_name_their_tokens_and_rooms(language: str) -> None:
    catalog = Table().rules.catalog
    for task in (
        FightTask(hero="roel", stack="grey", token="grey-03"),
        StealthChoiceTask(hero="roel", stack="red", token="red-02"),
        EncounterTask(hero="roel", stack="grey"),
    ):
        text = waiting_label(task, catalog)
        assert INTERNAL_ID.search(text) is None and "grey" not in text.split()[-1:], text
    assert INTERNAL_ID.search(site_label("NE", 2)) is None


def test_engine_reasons_name_rooms_ladders_and_directions(language: str) -> None:
    set_ladder_owners([("roel", "L1")])
    reasons = [
        reason("R-TEL-2", "teleport", strigoi="apprentice", start="NW", to="NE"),
        reason("R-TEL-4", "ladder_destroyed", strigoi="master", ladder="L1"),
        reason("R-TEL-2", "book", letter="C", room="SE", direction=1),
        reason("R-COL-1", "collapse", target="SW"),
    ]
    for why in reasons:
        text = render(why)
        assert INTERNAL_ID.search(text) is None, text
    assert "Roel" in render(reasons[1])
    # the engine's own words (published events, CLI) keep the ids
    assert reasons[0].text() == "the Apprentice teleports from NW to the centre of NE"


@pytest.mark.parametrize(
    "path",
    [
        "/tmp/pytest-of-root/pytest-12/test_every_screen_in_every_l0/transcripts/game-2026.json",
        "/home/pi/.local/share/armata/transcripts/game-1.json",
        "relative/a-folder-name-longer-than-one-line-of-the-page/x.json",
        "game.json",
    ],
)
def test_a_shown_path_breaks_after_its_slashes_and_keeps_every_character(path: str) -> None:
    from ui.screens.history import PATH_LINE, path_lines

    shown = path_lines(path)
    assert shown.replace("\n", "") == path
    for line in shown.split("\n"):  # a line is over the width only when one name alone is
        assert len(line) <= PATH_LINE or "/" not in line.rstrip("/"), line
