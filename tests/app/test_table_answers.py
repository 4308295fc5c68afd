"""What the app layer does with the table: the corrections "the table is right" records, what a
tapped reward card can do, what an unknown tag may be, the Pi's controls on mock pins and on a
machine without GPIO, and the LED picture the state implies."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.app.devices.controls import open_controls
from companion.app.devices.leds import ALERT_COLOUR, GUIDE_COLOUR, Light, RingShow, table_leds
from companion.app.story.announce import STRIGOI_COLOUR
from companion.app.table.differences import Difference, Kind
from companion.app.table.play_taps import commands_with, holder_of, registration_choices
from companion.app.table.resync import missing_hero, strigoi_of_figure, table_is_right
from companion.app.table.tracking import Action, Step, TableStatus
from companion.engine.game import commands as c
from firmware_bridge.board import room_node
from firmware_bridge.tags import CENTRE_READER, RIM_READER
from tests.support.standins.hardware_helpers import wait_for
from tests.support.table import Table


def difference(kind: Kind, table: object, game: object, reader: int = RIM_READER) -> Difference:
    return Difference("NE", reader, kind, table, game)  # type: ignore[arg-type]


# ----- "the table is right" ---------------------------------------------------------------------
def test_a_turned_platform_is_recorded_as_a_rotation_correction() -> None:
    t = Table()
    assert table_is_right(t.rules, t.state, difference(Kind.ROTATION, 4, 1)) == [
        c.SetRotation(room="NE", rotation=4)
    ]


def test_a_strigoi_figure_on_another_centre_moves_the_strigoi_and_the_supreme_too() -> None:
    t = Table()
    t.game.state.strigoi = {"master": "SE", "apprentice": "NW"}
    moved = difference(Kind.EXTRA_FIGURE, "master", None, CENTRE_READER)
    assert table_is_right(t.rules, t.state, moved) == [
        c.SetStrigoiPosition(strigoi="master", room="NE")
    ]
    t.game.state.strigoi = {"supreme": "SE"}
    t.game.state.supreme = "apprentice"
    assert strigoi_of_figure(t.state, "apprentice") == "supreme"
    assert strigoi_of_figure(t.state, "master") is None
    swapped = difference(Kind.WRONG_FIGURE, "apprentice", None, CENTRE_READER)
    assert table_is_right(t.rules, t.state, swapped) == [
        c.SetStrigoiPosition(strigoi="supreme", room="NE")
    ]


def test_a_hero_on_a_centre_is_placed_there_and_a_missing_one_is_shown_by_hand() -> None:
    t = Table()
    on_centre = difference(Kind.EXTRA_FIGURE, "roel", None, CENTRE_READER)
    [command] = table_is_right(t.rules, t.state, on_centre)
    assert command == c.SetHeroPosition(hero="roel", to=t.rules.fortress.centre("NE"))
    t.do(command)  # the engine accepts what Resync records
    missing = difference(Kind.FIGURE_MISSING, None, "roel", CENTRE_READER)
    assert table_is_right(t.rules, t.state, missing) == []
    assert missing_hero(t.state, missing) == "roel"  # Fix position for Roel


@pytest.mark.parametrize(
    "kind", [Kind.NO_PLATFORM, Kind.STILL_THERE, Kind.WRONG_PLATFORM, Kind.UNKNOWN_TAG]
)
def test_platforms_cannot_be_swapped_or_brought_back_by_a_correction(kind: Kind) -> None:
    t = Table()
    assert table_is_right(t.rules, t.state, difference(kind, "p3", "p2")) == []


# ----- taps in play ------------------------------------------------------------------------------
def test_a_tapped_reward_card_offers_exactly_the_commands_that_play_it() -> None:
    commands: list[c.Command] = [
        c.Fight(hero="roel", rewards=[c.RewardPlay(item="wrench", mode="wild")]),
        c.Fight(hero="roel"),
        c.UseMechanics(hero="roel", room="NE", rotation=2, source="wrench:normal"),
        c.UseMechanics(hero="roel", room="NE", rotation=2, source="card"),
        c.Protect(hero="roel", sources=["wrench:normal", "card"]),
        c.SwapRewards(hero="roel", other="matthew", give=["wrench"]),
        c.Stay(hero="roel"),
    ]
    assert commands_with(commands, "wrench") == [commands[0], commands[2], commands[4], commands[5]]
    assert commands_with(commands, "card") == []  # the played card is no reward


def test_an_unknown_tag_may_be_a_figure_or_a_card_in_a_hand() -> None:
    t = Table()
    t.game.state.hero("roel").hand.append("wrench")
    choices = registration_choices(t.state, t.rules.catalog)
    kinds = {(x.kind, x.target) for x in choices}
    assert ("hero", "roel") in kinds and ("strigoi", "master") in kinds
    assert ("reward_card", "wrench") in kinds
    assert ("action_card", t.state.hero("matthew").hand[0]) in kinds
    assert holder_of(t.state, "wrench") == "roel" and holder_of(t.state, "nothing") is None


# ----- the Pi's controls -------------------------------------------------------------------------
def test_the_controls_on_mock_pins_press_beep_and_show_the_status() -> None:
    pressed: list[str] = []
    controls = open_controls(pressed.append, mock=True)
    try:
        assert controls.press("next") and not controls.press("launch")
        wait_for(lambda: pressed == ["next"], 2, "the press")
        controls.show_status("ready")
        assert controls.led_lit() is True
        controls.show_status("off")
        assert controls.led_lit() is False
        controls.beep(2)
        assert controls.beeps == 2
    finally:
        controls.close()
        controls.close()  # idempotent, as gpiozero's devices


def test_pins_that_cannot_be_opened_give_one_log_line_and_no_controls(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bad = tmp_path / "pins.json"
    bad.write_text('{"confirm": 99}')
    with caplog.at_level(logging.WARNING):
        controls = open_controls(lambda name: None, mock=False, pins_file=bad)
    assert controls.devices is None and "confirm" in controls.description
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    controls.show_status("busy")  # nothing to drive: no error either
    controls.beep()
    assert not controls.press("confirm")
    real = open_controls(lambda name: None, mock=False)  # this machine has no GPIO
    assert real.devices is None and real.description.startswith("Pi controls off")
    real.close()


# ----- the LED picture --------------------------------------------------------------------------
def test_the_rings_show_the_strigoi_rooms_actions_and_alerts_and_nothing_else() -> None:
    t = Table()
    t.game.state.strigoi = {"master": "SE"}
    rooms = list(t.rules.fortress.rooms)
    quiet = table_leds(rooms, t.state)
    assert quiet[room_node("SE")] == RingShow(Light(STRIGOI_COLOUR["master"], "steady", 40))
    assert all(show == RingShow() for node, show in quiet.items() if node != room_node("SE"))
    turn = Action("NE", RIM_READER, Step.TURN, "p2", 3)
    alert = difference(Kind.ROTATION, 4, 3)
    busy = table_leds(rooms, t.state, (), TableStatus((turn,), (), ()))
    assert busy[room_node("NE")].segments == ((3, Light(GUIDE_COLOUR, "chase", 255)),)
    alarmed = table_leds(rooms, t.state, (), TableStatus((), (alert,), ()))
    assert alarmed[room_node("NE")] == RingShow(Light(ALERT_COLOUR, "pulse", 255))
    t.game.state.phase = "over"
    assert all(show == RingShow() for show in table_leds(rooms, t.state).values())
