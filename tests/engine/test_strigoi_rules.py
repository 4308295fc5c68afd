"""Engine results beyond the scenario keys: explanations, the situation afterwards, threats."""

from __future__ import annotations

import json

import pytest

from companion.engine.board_build import load_board
from companion.engine.explain import known_codes
from companion.engine.options import Options
from companion.engine.situation import HeroFigure, Situation
from companion.engine.strigoi import curse, strigoi_step, teleport
from companion.engine.threat import threat_map
from companion.errors import IllegalCommand
from tests.conftest import SCENARIOS

M7 = load_board(json.loads((SCENARIOS / "teleport" / "basic.json").read_text())["board"])
DAMAGE = {"master": 2, "apprentice": 1, "supreme": 3}


def situation(**kw: object) -> Situation:
    return Situation(board=M7.initial_state(), **kw)  # type: ignore[arg-type]


def test_step_explains_book_teleport_sight_and_wounds() -> None:
    s = situation(strigoi={"master": "W"}, heroes=(HeroFigure("roel", (2, -3), 1),))
    step = strigoi_step(M7, s, "master", "B", 1, DAMAGE, Options())
    codes = [r.code for r in step.why]
    assert codes[:2] == ["book", "teleport"]
    assert codes[-2:] == ["target", "wounds"]
    assert "Master attacks Roel, the nearest visible hero (distance 2)" in step.why[-2].text()
    assert step.why[-1].text() == "3 wounds: card damage 2 + token bonus 1"
    assert step.after.strigoi == {"master": "NW"} and s.strigoi == {"master": "W"}
    assert step.attack is not None and step.attack.direction == 0


def test_bounce_is_explained_with_its_reason() -> None:
    s = situation(strigoi={"master": "NW"})
    jump = teleport(M7, s, "master", "D", Options())
    assert [r.code for r in jump.why] == ["book", "no_room", "bounce", "teleport"]
    assert jump.why[1].text() == "no room lies W of NW"


@pytest.mark.parametrize("letter", ["C", "F"])  # the centre first, or the bounce
def test_a_failed_bounce_says_when_the_centre_room_counts_as_no_platform(letter: str) -> None:
    """R-TEL-3: the centre room counts as "no platform". A play-tester saw "neither north-west
    nor south-east leads to a platform" beside a centre room drawn with its books and
    suspected a bug: the failed bounce says so when one way leads to the centre."""
    jump = teleport(M7, situation(strigoi={"master": "NW"}), "master", letter, Options())
    assert jump.why[-1].code == "bounce_failed_centre" and jump.to == "NW"
    assert "the centre room has none" in jump.why[-1].text()
    bounced = teleport(M7, situation(strigoi={"master": "NW"}), "master", "D", Options())
    assert all(not r.code.startswith("bounce_failed") for r in bounced.why)  # it landed


def test_every_reason_renders_and_serialises() -> None:
    s = situation(strigoi={"master": "E"}, heroes=(HeroFigure("charles", (5, 0), 1),))
    step = strigoi_step(M7, s, "master", "A", 0, DAMAGE, Options())
    for r in step.why:
        data = r.as_data()
        assert data["text"] and data["rule"].startswith("R-") and data["code"] in known_codes()
    assert step.after.board.ladders == M7.initial_state().ladders - {"L1"}


def test_curse_needs_master_or_supreme() -> None:
    with pytest.raises(IllegalCommand, match="neither the Master nor the Supreme"):
        curse(M7, situation(strigoi={"apprentice": "W"}), "A", Options())


def test_bad_letter_and_unknown_damage_are_refused() -> None:
    s = situation(strigoi={"master": "W"})
    with pytest.raises(IllegalCommand, match="A-F or X, got 'b'"):
        teleport(M7, s, "master", "b", Options())
    with pytest.raises(IllegalCommand, match="no damage value"):
        strigoi_step(M7, s, "master", "B", 0, {}, Options())


def test_threat_map_on_a_hand_checked_line() -> None:
    # Master on W, card letter B: it jumps to NW and looks along NW's six lines. Roel stands two
    # steps east of NW's centre with the lower initiative, so Matthew is attacked where he is
    # nearer than Roel (one step east) or on another line at distance <= 2, where he wins the
    # tie by initiative. Beyond Roel on the east line he is hidden.
    s = situation(
        strigoi={"master": "W"},
        heroes=(HeroFigure("roel", (2, -3), 1), HeroFigure("matthew", (0, 0), 5)),
    )
    threats = threat_map(M7, s, "matthew", "B", DAMAGE, Options())
    hit = {c for c, t in threats.cells.items() if t}
    assert (1, -3) in hit  # east line, distance 1
    assert (0, -3) in hit and threats.level((0, -3)) == "deadly"  # landing centre
    assert (-1, -2) in hit and (-2, -1) in hit  # south-west line, distances 1 and 2
    assert (-3, 0) not in hit  # distance 3 > Roel's 2
    assert (3, -3) not in hit  # behind Roel
    assert (0, -2) in hit and (0, -1) in hit and (0, 0) not in hit  # south-east line
    assert threats.level((3, 3)) == "safe"
    assert all(t.wounds == 2 and t.letter == "B" for c in hit for t in threats.cells[c])


def test_collapse_with_letter_x_collapses_nothing() -> None:
    from companion.engine.collapse import collapse

    s = situation(strigoi={"supreme": "E"}, heroes=(HeroFigure("matthew", (3, 0), 1),))
    fall = collapse(M7, s, "X")
    assert fall.room is None and fall.relocate == () and fall.strigoi_moved_to is None
    assert fall.after is s and [r.code for r in fall.why] == ["collapse_letter_x"]
    assert collapse(M7, s, "A").room == "E"
