"""Properties that must hold on every situation, not only on the examples (Hypothesis)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.boardfile import dump_board
from companion.engine.board_build import load_board
from companion.engine.board_schema import board_spec_to_data
from companion.engine.collapse import collapse
from companion.engine.fortress import Fortress
from companion.engine.movement import reachable
from companion.engine.options import Options
from companion.engine.sight import line_of_sight
from companion.engine.situation import Situation
from companion.engine.strigoi import curse, strigoi_step, teleport
from companion.engine.threat import drawable_strigoi, threat_map, threat_map_brute
from tests.conftest import ROOT
from tests.support.strategies import rot, rotate_board_data, rotate_situation, situations

FIXED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LETTERS = st.sampled_from("ABCDEFX")


def _default_data(fortress: Fortress) -> dict:
    return board_spec_to_data(fortress.spec)


@FIXED
@given(
    data=st.data(),
    k=st.integers(1, 5),
    letter=LETTERS,
    bonus=st.integers(0, 2),
    centre=st.booleans(),
)
def test_rotating_the_whole_layout_rotates_every_result(
    fortress: Fortress,
    damage: dict[str, int],
    data: st.DataObject,
    k: int,
    letter: str,
    bonus: int,
    centre: bool,
) -> None:
    options = Options(centre_room_is_destination=centre)
    situation = data.draw(situations(fortress))
    turned_fortress = load_board(rotate_board_data(_default_data(fortress), k))
    turned = rotate_situation(situation, k)
    for name in situation.strigoi:
        a = strigoi_step(fortress, situation, name, letter, bonus, damage, options)
        b = strigoi_step(turned_fortress, turned, name, letter, bonus, damage, options)
        assert (a.teleport.moved, a.teleport.to, a.teleport.bounced) == (
            b.teleport.moved,
            b.teleport.to,
            b.teleport.bounced,
        )
        assert (a.ladder_destroyed, a.blood_lost, a.relocate) == (
            b.ladder_destroyed,
            b.blood_lost,
            b.relocate,
        )
        assert (a.attack is None) == (b.attack is None)
        if a.attack and b.attack:
            assert (a.attack.hero, a.attack.distance, a.attack.wounds, a.attack.protectable) == (
                b.attack.hero,
                b.attack.distance,
                b.attack.wounds,
                b.attack.protectable,
            )
            if a.attack.direction is not None:
                assert b.attack.direction == (a.attack.direction + k) % 6
    if "master" in situation.strigoi or "supreme" in situation.strigoi:
        c1 = curse(fortress, situation, letter, options)
        c2 = curse(turned_fortress, turned, letter, options)
        assert (c1.teleport.to, c1.cursed, c1.blood_lost, c1.relocate, c1.ladder_destroyed) == (
            c2.teleport.to,
            c2.cursed,
            c2.blood_lost,
            c2.relocate,
            c2.ladder_destroyed,
        )
    f1 = collapse(fortress, situation, letter)
    f2 = collapse(turned_fortress, turned, letter)
    assert (f1.room, f1.relocate, f1.leapt, f1.strigoi_moved_to) == (
        f2.room,
        f2.relocate,
        f2.leapt,
        f2.strigoi_moved_to,
    )
    for hero in situation.heroes[:2]:
        occupants = situation.occupants(fortress)
        del occupants[hero.at]
        seen = line_of_sight(fortress, situation.board, occupants, hero.at)
        turned_occupants = turned.occupants(turned_fortress)
        del turned_occupants[rot(hero.at, k)]
        seen_turned = line_of_sight(
            turned_fortress, turned.board, turned_occupants, rot(hero.at, k)
        )
        assert sorted(
            (s.figure, rot(s.at, k), s.distance, (s.direction + k) % 6) for s in seen
        ) == sorted((s.figure, s.at, s.distance, s.direction) for s in seen_turned)
        ends = reachable(fortress, situation, hero.at, 4, False)
        ends_turned = reachable(turned_fortress, turned, rot(hero.at, k), 4, False)
        assert sorted(rot(c, k) for c in ends) == ends_turned


@FIXED
@given(data=st.data())
def test_line_of_sight_is_symmetric(fortress: Fortress, data: st.DataObject) -> None:
    situation = data.draw(situations(fortress))
    occupants = situation.occupants(fortress)
    for cell, figure in occupants.items():
        others = {c: f for c, f in occupants.items() if c != cell}
        for seen in line_of_sight(fortress, situation.board, others, cell):
            back = {c: f for c, f in occupants.items() if c != seen.at}
            reverse = line_of_sight(fortress, situation.board, back, seen.at)
            assert any(
                s.at == cell and s.figure == figure and s.distance == seen.distance for s in reverse
            ), (figure, seen)


@FIXED
@given(data=st.data(), letter=LETTERS, centre=st.booleans())
def test_a_teleport_ends_on_a_platform_centre_or_where_it_started(
    fortress: Fortress, data: st.DataObject, letter: str, centre: bool
) -> None:
    situation = data.draw(situations(fortress))
    options = Options(centre_room_is_destination=centre)
    for name in situation.strigoi:
        jump = teleport(fortress, situation, name, letter, options)
        if not jump.moved:
            assert jump.to == situation.strigoi[name]
            continue
        assert jump.to != situation.strigoi[name]
        assert jump.to not in situation.board.collapsed
        assert jump.to in fortress.platforms or (centre and jump.to == fortress.centre_room)
        assert jump.to not in {r for s, r in situation.strigoi.items() if s != name}


@FIXED
@given(data=st.data(), steps=st.integers(0, 9), stealth=st.booleans())
def test_a_hero_never_ends_a_move_on_an_occupied_space(
    fortress: Fortress, data: st.DataObject, steps: int, stealth: bool
) -> None:
    situation = data.draw(situations(fortress))
    if not situation.heroes:
        return
    mover = data.draw(st.sampled_from(situation.heroes))
    occupied = set(situation.occupants(fortress))
    ends = reachable(fortress, situation, mover.at, steps, stealth)
    assert not (set(ends) & occupied)
    assert all(fortress.is_space(c, situation.board) for c in ends)
    assert ends == sorted(set(ends))
    if steps:
        assert set(reachable(fortress, situation, mover.at, steps - 1, stealth)) <= set(ends)


@FIXED
@given(data=st.data(), letter=st.one_of(st.none(), LETTERS))
def test_fast_threat_map_equals_the_brute_force_reference(
    fortress: Fortress, damage: dict[str, int], data: st.DataObject, letter: str | None
) -> None:
    situation: Situation = data.draw(situations(fortress, max_heroes=4))
    if not situation.heroes or not drawable_strigoi(situation):
        return
    hero = data.draw(st.sampled_from(situation.heroes)).hero
    options = Options(centre_room_is_destination=data.draw(st.booleans()))
    fast = threat_map(fortress, situation, hero, letter, damage, options)
    slow = threat_map_brute(fortress, situation, hero, letter, damage, options)
    assert fast.cells == slow.cells


def _geometry(fortress: Fortress) -> tuple[object, ...]:
    state = fortress.initial_state()
    spaces = fortress.spaces(state)
    return (
        spaces,
        [fortress.open_mask(c, state) for c in spaces],
        [fortress.feature(c, state) for c in spaces],
        {r: [fortress.book_direction(r, x, state) for x in "ABCDEF"] for r in fortress.rooms},
        sorted((lad.id, lad.cell) for lad in fortress.ladders.values()),
    )


@pytest.mark.slow
@FIXED
@given(k=st.integers(0, 5), data=st.data())
def test_loading_then_saving_a_board_round_trips(
    fortress: Fortress, k: int, data: st.DataObject
) -> None:
    source = rotate_board_data(_default_data(fortress), k)
    for room in source["layout"]["rooms"]:
        if room.get("platform"):
            room["rotation"] = data.draw(st.integers(0, 5))
    loaded = load_board(source)
    saved = board_spec_to_data(loaded.spec)
    assert board_spec_to_data(load_board(saved).spec) == saved
    assert json.loads(dump_board(load_board(saved))) == saved
    assert _geometry(load_board(saved)) == _geometry(loaded)


def test_the_shipped_default_fortress_is_in_canonical_form(fortress: Fortress) -> None:
    shipped = (ROOT / "companion" / "data" / "default-fortress.json").read_text()
    assert dump_board(fortress) + "\n" == shipped
