"""The worked examples in docs/ are true: parsed from the pages and checked."""

from __future__ import annotations

import json
import re

from companion.engine.board_build import load_board
from companion.engine.movement import reachable
from companion.engine.situation import Situation
from tests.conftest import ROOT


def _json_blocks(page: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", (ROOT / "docs" / page).read_text(), re.DOTALL)


def test_board_format_worked_example_behaves_as_described() -> None:
    fortress = load_board(json.loads(_json_blocks("board-format.md")[0]))
    state = fortress.initial_state()
    assert fortress.centre("E") == (3, 0)
    assert fortress.is_open((1, 0), 0, state)  # the door C-E, listed by both rooms
    assert fortress.is_open((3, 0), 3, state) and not fortress.is_open((3, 0), 0, state)
    assert fortress.feature((4, 0), state) == "red" and fortress.is_space((4, 0), state)
    walk = Situation(board=state)
    ends = reachable(fortress, walk, (0, 0), 9, False)
    assert (3, 0) in ends and (4, 0) not in ends
    turned = state.rotated("E", 1)
    assert (3, 0) not in reachable(fortress, Situation(board=turned), (0, 0), 9, False)
    assert fortress.book_direction("E", "A", state) == 0
    assert fortress.book_direction("E", "B", turned) == 2


def test_scenario_page_example_matches_the_shipped_scenario() -> None:
    shown = json.loads(_json_blocks("scenarios.md")[0])
    shipped = json.loads(
        (ROOT / "tests" / "scenarios" / "rulebook-examples" / "moon-shines-red-E.json").read_text()
    )
    for key in ("name", "state", "action", "expect"):
        assert shown[key] == shipped[key], key


def test_catalog_page_example_is_the_shipped_card() -> None:
    from companion.catalog import load_catalog

    shown = json.loads(_json_blocks("catalog.md")[0])
    card = load_catalog().card(shown["id"])
    for key, value in shown.items():
        assert getattr(card, key) == value, key
