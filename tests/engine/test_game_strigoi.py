"""The Strigoi phase and fights against Strigoi (R-TEL-1, R-LOS-2..5, R-CUR, R-HIT, R-COL,
R-BLD, R-ADV-2)."""

from __future__ import annotations

import pytest

from companion.engine.game import commands as c
from companion.errors import IllegalCommand
from tests.support.table import FORTRESS, Table, kinds


def round_two(t: Table, **cards: str) -> None:
    """Play round 1 (everybody stays), then choose the round-2 cards."""
    first = {
        h.hero: next(x for x in h.hand if x.split("/")[1] not in cards.values())
        for h in t.state.heroes
    }
    for hero, card in first.items():
        t.do(c.ChooseCard(hero=hero, card=card))
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    assert t.state.round == 2 and t.state.strigoi
    t.choose(**cards)


def master_in_south_east(t: Table) -> None:
    """The Master on SE, the Apprentice on NW (by Fix, through the centre room's free centre)."""
    if t.state.strigoi["master"] != "SE":
        t.do(c.SetStrigoiPosition(strigoi="master", room="C"))
        t.do(c.SetStrigoiPosition(strigoi="apprentice", room="NW"))
        t.do(c.SetStrigoiPosition(strigoi="master", room="SE"))


def rulebook_table() -> Table:
    """The rulebook's E example: Master on SE, Roel (E card) first, Matthew in sight of SW."""
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="armata-strigoi")
    master_in_south_east(t)
    t.place("roel", (-5, 7))
    t.place("matthew", (-2, 2))
    t.do(c.Stay(hero="roel"))
    assert t.task() == "strigoi"
    return t


@pytest.mark.rule("R-TEL-1", "R-LOS-2", "R-LOS-3")
def test_the_token_names_the_strigoi_and_adds_damage() -> None:  # R-TEL-1, R-LOS-2, R-LOS-3
    t = rulebook_table()
    with pytest.raises(IllegalCommand, match="cannot come from the strigoi stack"):
        t.do(c.EnterDraw(hero="roel", token="werewolf-9"))
    events = t.do(c.EnterDraw(hero="roel", token="master-4"))  # Master, +1 damage
    assert "strigoi_attacked" in kinds(events)
    assert t.state.strigoi["master"] == "SW" and t.state.attack_marker
    task = t.game.waiting_for
    assert (task.kind, task.hero, task.wounds, task.protectable) == ("protect", "matthew", 3, True)


@pytest.mark.rule("R-WND-1", "R-ADV-2")
def test_wounds_from_a_strigoi_and_all_you_can_bleed() -> None:  # R-WND-1, R-ADV-2
    t = rulebook_table()
    t.do(c.EnterDraw(hero="roel", token="master-1"))  # no bonus: 2 wounds
    sources = t.protection("matthew")
    t.do(c.Protect(hero="matthew", sources=sources[:1]))  # one blocked, one taken
    matthew = t.state.hero("matthew")
    assert len(matthew.wounds) == 1 or matthew.defeated  # a Double Wound may defeat at once
    assert "all-you-can-bleed" in matthew.hand + matthew.discard + matthew.played


@pytest.mark.rule("R-LOS-5", "R-BLD-2")
def test_counterattack_is_offered_with_enough_blood() -> None:  # R-LOS-5, R-BLD-2
    t = rulebook_table()
    t.do(c.SetBlood(altar=2, inferno=0))  # two players need 2
    t.do(c.EnterDraw(hero="roel", token="master-1"))
    t.do(c.Protect(hero="matthew", sources=[]))
    while t.task() == "shock":
        t.do(c.DiscardForShock(hero="matthew", card=t.state.hero("matthew").hand[0]))
    assert t.task() == "counterattack"
    with pytest.raises(IllegalCommand, match="cannot attack master in melee"):
        t.do(c.AttackStrigoi(hero="matthew", strigoi="master", mode="melee"))
    t.do(c.AttackStrigoi(hero="matthew", strigoi="master", mode="ranged"))  # 2 < 7: no wound
    assert t.state.strigoi_wounds.get("master", 0) == 0


@pytest.mark.rule("R-LOS-5")
def test_no_counterattack_without_blood() -> None:  # R-LOS-5
    t = rulebook_table()
    t.do(c.EnterDraw(hero="roel", token="master-1"))
    t.do(c.Protect(hero="matthew", sources=[]))
    assert t.task() in ("move", "shock")  # straight on: nothing to decide


@pytest.mark.rule("R-RND-4", "R-LOS-3")
def test_attack_marker_skips_phase_three_and_is_removed() -> None:  # R-RND-4, R-LOS-3
    t = rulebook_table()
    t.do(c.EnterDraw(hero="roel", token="master-1"))
    assert t.state.attack_marker
    for _ in range(5):
        if t.state.round == 3:
            break
        t.finish_turn("matthew")
    assert t.state.round == 3 and not t.state.attack_marker
    assert "curse_cast" not in kinds(t.game.events)


@pytest.mark.rule("R-CUR-1")
def test_curse_when_nobody_was_attacked() -> None:  # R-CUR-1
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="armata-strigoi")
    master_in_south_east(t)
    t.place("roel", (11, 0))
    sw_space = next(
        cell
        for cell in sorted(t.rules.fortress.tile_spaces)
        if t.rules.fortress.room_at(cell) == "SW"
        and not t.rules.fortress.feature(cell, t.rules.fortress.initial_state())
    )
    t.place("matthew", sw_space)
    for hero in ("roel", "matthew"):
        t.do(c.Stay(hero=hero))
        t.do(c.EnterDraw(hero=hero, token=f"apprentice-{1 if hero == 'roel' else 2}"))
        t.finish_turn(hero)
    # nobody attacked: the Master uses Roel's E (first player) and curses SW
    curse = [x for x in t.game.events if type(x).__name__ == "CurseCast"]
    if not curse:
        pytest.skip("the Apprentice happened to attack")
    assert curse[-1].room == "SW" and curse[-1].heroes == ["matthew"]
    phase = max(i for i, x in enumerate(t.game.events) if getattr(x, "phase", None) == "curse")
    asked = next(
        task
        for x in t.game.events[phase:]
        if type(x).__name__ == "TasksQueued"
        for task in x.tasks
        if task.kind == "protect"
    )
    assert (asked.kind, asked.hero, asked.wounds, asked.protectable) == (
        "protect",
        "matthew",
        1,
        True,
    )


@pytest.mark.rule("R-HIT-1", "R-HIT-2", "R-BLD-2", "R-WND-3")
def test_fighting_a_strigoi_needs_blood_and_contact() -> None:  # R-HIT-1, R-HIT-2, R-BLD-2
    t = Table([("charles", "L1"), ("roel", "L2")])
    round_two(t, charles="demons-best-friend", roel="nightside-of-siberia")
    room = t.state.strigoi["apprentice"]
    centre = t.rules.fortress.centre(room)
    t.place("charles", t.neighbour_into(centre))
    t.do(c.Stay(hero="charles"))
    assert t.task() != "fight_choice"  # no blood on the Altar: no Strigoi fight offered
    t2 = Table([("charles", "L1"), ("roel", "L2")])
    round_two(t2, charles="demons-best-friend", roel="nightside-of-siberia")
    t2.do(c.SetBlood(altar=2, inferno=0))
    room = t2.state.strigoi["apprentice"]
    t2.place("charles", t2.neighbour_into(t2.rules.fortress.centre(room)))
    t2.do(c.Stay(hero="charles"))
    assert t2.task() == "fight_choice"
    t2.do(c.AttackStrigoi(hero="charles", strigoi="apprentice", mode="melee"))  # 5 >= 5
    assert t2.state.strigoi_wounds["apprentice"] == 1
    assert len(t2.state.hero("charles").wounds) == 1  # R-WND-3: the card's own wound icon


@pytest.mark.rule("R-HIT-3", "R-TEL-1", "R-ADV-2")
def test_destroying_one_strigoi_raises_the_supreme() -> None:  # R-HIT-3, R-TEL-1, R-ADV-2
    t = Table([("charles", "L1"), ("roel", "L2")])
    round_two(t, charles="demons-best-friend", roel="nightside-of-siberia")
    t.do(c.SetBlood(altar=2, inferno=0))
    room = t.state.strigoi["apprentice"]
    t.state.strigoi_wounds["apprentice"] = 1  # arrange: already wounded once
    t.state.strigoi_wounds["master"] = 2
    t.place("charles", t.neighbour_into(t.rules.fortress.centre(room)))
    t.do(c.Stay(hero="charles"))
    events = t.do(c.AttackStrigoi(hero="charles", strigoi="apprentice", mode="melee"))
    assert "strigoi_destroyed" in kinds(events)
    s = t.state
    assert s.destroyed == ["apprentice"] and s.supreme == "master"
    assert set(s.strigoi) == {"supreme"} and s.strigoi_wounds["supreme"] == 2  # keeps wounds
    assert "vampires-dont-die" in s.hero("charles").hand
    assert t.task() in ("move", "relocate", "protect")  # the Supreme moved without a token


@pytest.mark.rule("R-COL-1", "R-COL-2", "R-COL-3")
def test_wounding_the_supreme_collapses_a_platform() -> None:  # R-COL-1, R-COL-2, R-COL-3
    t = Table([("charles", "L1"), ("matthew", "L2")])
    round_two(t, charles="demons-best-friend", matthew="nightside-of-siberia")
    t.do(c.SetBlood(altar=2, inferno=0))
    t.state.strigoi_wounds["apprentice"] = 1
    room = t.state.strigoi["apprentice"]
    t.place("charles", t.neighbour_into(t.rules.fortress.centre(room)))
    t.do(c.Stay(hero="charles"))
    t.do(c.AttackStrigoi(hero="charles", strigoi="apprentice", mode="melee"))  # Supreme rises
    t.finish_turn("charles")
    s = t.state
    supreme_room = s.strigoi["supreme"]
    # Demons Are a Girl's Best Friend shows B: book B of the centre room points NE
    target = t.rules.fortress.rooms["C"].neighbours[
        t.rules.fortress.book_direction("C", "B", t.rules.fortress.initial_state())
    ]
    cell = next(iter(sorted(t.rules.fortress.platforms[target].spaces[s.rotations[target]])))
    t.place("matthew", cell)
    assert t.state.hero("charles").chosen == "charles/demons-best-friend"
    if supreme_room == target:
        pytest.skip("the Supreme stands on the collapsing platform")
    from companion.engine.game.effects import collapse_under
    from companion.engine.game.emitter import Emitter

    em = Emitter(t.state)
    collapse_under(t.rules, em, "charles")
    assert target in t.state.collapsed
    escapes = [x for x in t.state.tasks if x.kind == "escape"]
    assert [x.hero for x in escapes] == ["matthew"]


@pytest.mark.rule("R-BLD-4")
def test_heroes_win_when_the_supreme_falls() -> None:  # R-BLD-4
    t = Table([("charles", "L1"), ("roel", "L2")])
    round_two(t, charles="demons-best-friend", roel="nightside-of-siberia")
    t.do(c.SetBlood(altar=2, inferno=0))
    t.state.strigoi_wounds["apprentice"] = 1
    t.state.strigoi_wounds["master"] = 3
    room = t.state.strigoi["apprentice"]
    t.place("charles", t.neighbour_into(t.rules.fortress.centre(room)))
    t.do(c.Stay(hero="charles"))
    t.do(c.AttackStrigoi(hero="charles", strigoi="apprentice", mode="melee"))
    s = t.state
    assert s.strigoi_wounds["supreme"] == 3 and s.phase != "over"
    s.strigoi_wounds["supreme"] = 3
    s.destroyed.append("supreme")  # what a fourth wound does (existence 4)
    t.do(c.SetBlood(altar=s.altar, inferno=s.inferno))  # any command checks for a winner
    assert t.state.phase == "over" and t.state.winner == "heroes"


@pytest.mark.rule("R-BLD-3")
def test_strigoi_win_when_the_inferno_fills() -> None:  # R-BLD-3
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.do(c.SetBlood(altar=0, inferno=2))  # two players: 3 in the Inferno lose
    t.do(c.AddWound(hero="roel"))
    t.do(c.AddWound(hero="roel"))
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-13"))
    t.do(c.Fight(hero="roel", rewards=[]))
    t.do(c.Protect(hero="roel", sources=[]))
    assert t.state.phase == "over" and t.state.winner == "strigoi"
    with pytest.raises(IllegalCommand, match="the game is over"):
        t.do(c.Stay(hero="matthew"))


@pytest.mark.rule("R-COL-2", "R-ABL Leap")
def test_leap_off_a_collapsing_platform_or_fall() -> None:  # R-COL-2, R-ABL Leap
    from companion.engine.game.tasks import EscapeTask

    t = Table([("matthew", "L1"), ("roel", "L2")])
    t.choose(matthew="nightside-of-siberia", roel="prayer-in-the-dark")  # Nightside has Leap
    target = "NE"
    cells = sorted(t.rules.fortress.platforms[target].spaces[t.state.rotations[target]])
    t.place("matthew", cells[0])
    t.place("roel", cells[1])
    t.do(c.SetBlood(altar=2, inferno=0))
    t.state.collapsed.append(target)  # arrange: the platform has just collapsed
    t.state.tasks[:0] = [
        EscapeTask(hero="matthew", room=target),
        EscapeTask(hero="roel", room=target),
    ]
    options = [x for x in t.game.legal_commands() if isinstance(x, c.Leap)]
    assert options and all(t.rules.fortress.room_at(tuple(x.to)) == target for x in options)
    t.do(options[0])
    assert t.at("matthew") == tuple(options[0].to) and "leap" in t.state.hero("matthew").used
    roel_leaps = {x.source for x in t.game.legal_commands() if isinstance(x, c.Leap)}
    assert roel_leaps == {"roel/nightside-of-siberia"}  # no icon left on the card, one in hand
    t.do(c.Fall(hero="roel"))  # he keeps the card and falls
    assert (t.state.altar, t.state.inferno) == (1, 1)  # the pack loses a blood point
    refuges = {x.cell for x in FORTRESS.ladders.values()}
    refuges |= set(FORTRESS.stairs(FORTRESS.initial_state()))
    assert t.at("roel") is None or t.at("roel") in refuges
