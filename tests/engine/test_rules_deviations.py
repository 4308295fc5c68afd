"""The deviations an independent reading of the rulebook found (issue 15), one test each, citing
the RULES.md item; each failed on the engine before the fix. Arranged through the public game
API, with the state set up directly where reaching it by play would take dozens of turns."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from companion.catalog import load_catalog
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions, GameRules, board_state
from companion.engine.game.game import Game
from companion.engine.game.invariants import violations
from companion.engine.game.state import Cell
from companion.engine.game.tasks import ProtectTask
from companion.engine.hexgrid import add, rotate, sub
from companion.errors import IllegalCommand
from tests.engine.test_game_strigoi import master_in_south_east, round_two
from tests.support.table import CATALOG, FORTRESS, PHYSICAL, Table

BOARD = FORTRESS.initial_state()
SCENARIOS = Path(__file__).parents[1] / "scenarios"


def icon_wound(task: object) -> bool:
    """A wound the hero's own weapon deals (R-WND-3), unprotectable."""
    return isinstance(task, ProtectTask) and task.cause == "wound_icon"


def room_space(t: Table, room: str, platform: bool, avoid: tuple[Cell, ...] = ()) -> Cell:
    """A free, plain space of `room`: on its platform (not the centre) or on the tile."""
    board = t.rules.fortress.initial_state().rotated(room, t.state.rotations.get(room, 0))
    taken = {h.at for h in t.state.heroes} | set(avoid)
    centre = FORTRESS.centre(room)
    cells = (
        FORTRESS.platforms[room].spaces[t.state.rotations[room]]
        if platform
        else [x for x in FORTRESS.tile_spaces if FORTRESS.room_at(x) == room]
    )
    return next(
        x
        for x in sorted(cells)
        if x != centre and x not in taken and not FORTRESS.feature(x, board)
    )


def aim_master(t: Table, letter: str) -> str:
    """Place the Master (the Apprentice out of the way) where `letter` sends it to another
    platform room; that room."""
    board = board_state(t.state)
    for start in sorted(FORTRESS.platforms):
        direction = FORTRESS.book_direction(start, letter, board)
        target = FORTRESS.rooms[start].neighbours[direction or 0]
        if direction is None or target not in FORTRESS.platforms:
            continue
        master = t.state.strigoi["master"]
        park = next(r for r in sorted(FORTRESS.platforms) if r not in (start, target, master))
        t.do(c.SetStrigoiPosition(strigoi="apprentice", room=park))
        if master != start:
            t.do(c.SetStrigoiPosition(strigoi="master", room=start))
        return target
    raise AssertionError(f"no room sends the Master anywhere with {letter}")


# ----- 1. Mechanics turns the figures with the platform (R-ABL Mechanics) ---------------------
def test_mechanics_turns_the_heroes_and_fight_markers_standing_on_the_platform() -> None:
    t = Table([("matthew", "L1"), ("roel", "L2")])
    t.choose(matthew="armata-strigoi", roel="nightside-of-siberia")  # Matthew: Mechanics
    room = "E"
    before = t.state.rotations[room]
    spot = room_space(t, room, platform=True)
    marker = room_space(t, room, platform=True, avoid=(spot,))
    t.place("roel", spot)
    t.state.fight_markers.append(marker)  # arrange: a fight marker on the same platform
    t.do(c.UseMechanics(hero="matthew", room=room, rotation=(before + 2) % 6))
    centre = FORTRESS.centre(room)
    turned = add(rotate(sub(spot, centre), 2), centre)
    assert t.at("roel") == turned  # kept its place on the platform
    assert FORTRESS.is_space(turned, BOARD.rotated(room, (before + 2) % 6))
    assert t.state.fight_markers == [add(rotate(sub(marker, centre), 2), centre)]
    assert violations(t.rules, t.state) == []


@pytest.mark.rule("R-ABL Mechanics")
def test_a_rotation_fix_turns_the_figures_too() -> None:  # R-ABL Mechanics: figures ride along
    t = Table([("matthew", "L1"), ("roel", "L2")])
    spot = room_space(t, "W", platform=True)
    t.place("roel", spot)
    t.do(c.SetRotation(room="W", rotation=(t.state.rotations["W"] + 1) % 6))
    centre = FORTRESS.centre("W")
    assert t.at("roel") == add(rotate(sub(spot, centre), 1), centre)


@pytest.mark.rule("R-ABL Mechanics", "R-MOV-1")
def test_the_invariants_report_a_hero_on_no_space() -> None:  # R-ABL Mechanics, R-MOV-1
    t = Table([("matthew", "L1"), ("roel", "L2")])
    centre = FORTRESS.centre("E")
    nowhere = next(
        x
        for x in sorted(FORTRESS.platforms["E"].cells)
        if not FORTRESS.is_space(x, BOARD.rotated("E", t.state.rotations["E"]))
    )
    assert centre != nowhere
    t.state.hero("roel").at = nowhere
    assert any("not on a space" in x for x in violations(t.rules, t.state))


# ----- 2. Abilities after the fight, until the Strigoi token (R-ABL "When") ------------------
def test_heal_and_mechanics_after_a_monster_fight_before_the_token() -> None:
    t = Table([("falk_maria", "L1"), ("matthew", "L2")])
    round_two(t, falk_maria="amen-and-attack", matthew="nightside-of-siberia")
    t.do(c.AddWound(hero="falk_maria", token="wound-1"))
    t.walk_onto("falk_maria", t.red()[0])
    t.do(c.EnterDraw(hero="falk_maria", token="red-05"))
    t.do(c.Fight(hero="falk_maria", rewards=[]))
    assert t.task() == "strigoi"
    heal = c.UseHeal(hero="falk_maria", tokens={"falk_maria": "wound-1"})
    assert heal in t.game.legal_commands()
    t.do(heal)
    assert t.state.hero("falk_maria").wounds == [] and t.task() == "strigoi"
    with pytest.raises(IllegalCommand, match="falk_maria's turn"):
        t.do(c.UseLeap(hero="matthew", to=t.at("matthew") or (0, 0)))


def test_with_no_token_to_draw_the_hero_may_still_use_abilities_then_proceeds() -> None:
    t = Table([("matthew", "L1"), ("roel", "L2")])
    t.choose(matthew="armata-strigoi", roel="nightside-of-siberia")  # round 1: no Strigoi
    t.do(c.Stay(hero="matthew"))
    assert t.task() == "abilities"  # Mechanics unused: the turn does not end by itself
    assert c.Proceed(hero="matthew") in t.game.legal_commands()
    t.do(c.UseMechanics(hero="matthew", room="NE", rotation=(t.state.rotations["NE"] + 1) % 6))
    assert t.task() == "move" and t.state.active_hero == "roel"  # nothing left: turn ended


# ----- 3. Stealth from any source; never across encounters (R-MOV-2, R-MOV-4, R-ENC-6) --------
@pytest.mark.rule("R-MOV-4")
def test_stealth_from_a_discarded_action_card_passes_a_strigoi() -> None:  # R-MOV-4
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    centre = FORTRESS.centre(t.state.strigoi["master"])
    t.place("roel", t.neighbour_into(centre))
    sneaky = [x for x in t.game.legal_commands() if isinstance(x, c.Move) and x.stealth]
    assert sneaky and {x.source for x in sneaky} == {"roel/son-of-the-wolf"}
    t.do(sneaky[0])
    roel = t.state.hero("roel")
    assert "roel/son-of-the-wolf" in roel.played and "roel/son-of-the-wolf" not in roel.hand


@pytest.mark.rule("R-ENC-6")
def test_stealth_from_a_reward_token_at_an_encounter() -> None:  # R-ENC-6
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.state.stacks["reward_token"].draw.remove("token-shadow")
    t.state.hero("roel").reward_tokens.append("token-shadow")  # arrange: Stealth on a token
    t.walk_onto("roel", t.red()[0])
    assert c.EnterDraw(hero="roel", token="red-13", stealth="token-shadow") in (
        t.game.legal_commands()
    )
    t.do(c.EnterDraw(hero="roel", token="red-13", stealth="token-shadow"))
    assert t.task() == "stealth_choice" and "token-shadow" not in t.state.hero("roel").reward_tokens
    t.do(c.LeaveMonster(hero="roel"))  # too strong: left face up, no wound
    assert t.state.stacks["red"].face_up == "red-13" and t.state.hero("roel").wounds == []


@pytest.mark.rule("R-MOV-2")
def test_stealth_never_walks_across_an_encounter_space() -> None:  # R-MOV-2 Decision
    """On the scenario board whose corridor runs through a red space (the default fortress has
    its encounters on side branches): with Stealth the move still stops there."""
    from companion.engine.board_build import build_fortress
    from companion.engine.board_schema import parse_board_spec

    data = json.loads((SCENARIOS / "movement" / "stealth.json").read_text("utf-8"))["board"]
    data["tiles"]["hall"]["corridors"][0].insert(0, [-4, 0])  # a door west, for a second ladder
    data["layout"]["ladders"].append({"id": "L2", "room": "C", "side": 3})
    rules = GameRules(build_fortress(parse_board_spec(data)), CATALOG, GameOptions())
    game = Game.new(rules, 1, [("roel", "L1"), ("matthew", "L2")])
    for hero, card in (("roel", "son-of-the-wolf"), ("matthew", "nightside-of-siberia")):
        game.execute(c.ChooseCard(hero=hero, card=f"{hero}/{card}"))
    game.execute(c.SetHeroPosition(hero="roel", to=(0, 0)))
    moves = [x for x in game.legal_commands() if isinstance(x, c.Move)]
    ends = {tuple(x.to) for x in moves}
    assert (2, 0) in ends and (3, 0) not in ends  # the red space ends the move
    assert not [x for x in moves if x.stealth]  # no Strigoi to pass: Stealth adds nothing


# ----- 4. Protection against a Shock (R-ABL Protection, R-WND-1) -------------------------------
def test_protection_blocks_a_shock() -> None:
    t = Table([("roel", "L1"), ("matthew", "L2")], physical=PHYSICAL | {"wound"})
    t.choose(roel="prayer-in-the-dark", matthew="nightside-of-siberia")  # two Protection icons
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-13"))  # strength 5 against 2: lost
    t.do(c.Fight(hero="roel", rewards=[]))
    t.do(c.Protect(hero="roel", sources=[]))  # takes the wound
    t.do(c.EnterDraw(hero="roel", token="wound-shock-1"))
    assert t.task() == "shock"
    assert c.Protect(hero="roel", sources=["card"]) in t.game.legal_commands()
    hand = list(t.state.hero("roel").hand)
    t.do(c.Protect(hero="roel", sources=["card"]))
    assert t.state.hero("roel").hand == hand and t.task() != "shock"


# ----- 5. Relocation: ladders and stairs, never off the board (R-TEL-4, R-LOS-4) ---------------
def _ladder_step(t: Table, ladder: str, letter: str) -> None:
    """Put the Master in the ladder's room and turn its platform so `letter` points at it."""
    spec = FORTRESS.ladders[ladder]
    other = next(r for r in FORTRESS.platforms if r not in (spec.room, t.state.strigoi["master"]))
    t.do(c.SetStrigoiPosition(strigoi="apprentice", room=other))
    t.do(c.SetStrigoiPosition(strigoi="master", room=spec.room))
    for rotation in range(6):
        if FORTRESS.book_direction(spec.room, letter, BOARD.rotated(spec.room, rotation)) == (
            spec.side
        ):
            t.do(c.SetRotation(room=spec.room, rotation=rotation))
            return
    raise AssertionError("no rotation points the letter at the ladder")


@pytest.mark.rule("R-TEL-4")
def test_a_destroyed_ladders_hero_chooses_among_ladders_and_stairs() -> None:  # R-TEL-4
    t = Table([("roel", "L1"), ("matthew", "L2"), ("attila", "L3")])
    round_two(
        t, roel="when-the-moon-shines-red", matthew="armata-strigoi", attila="son-of-the-wolf"
    )
    first = t.state.turn_order[0]
    assert first == "attila"  # initiative 2
    _ladder_step(t, "L2", "B")  # Son of the Wolf shows B; Matthew still stands on L2
    t.place("attila", room_space(t, "C", platform=False))
    t.do(c.Stay(hero="attila"))
    t.do(c.EnterDraw(hero="attila", token="master-1"))
    assert "L2" not in t.state.ladders and t.task() == "relocate"
    cells = {tuple(x.to) for x in t.game.legal_commands() if isinstance(x, c.Relocate)}
    stairs = set(FORTRESS.stairs(BOARD)) - {FORTRESS.ladders[x].cell for x in FORTRESS.ladders}
    assert cells & stairs, "stairs are offered too"


@pytest.mark.rule("R-LOS-4")
def test_with_every_ladder_taken_a_landed_on_hero_goes_to_stairs() -> None:  # R-LOS-4
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="son-of-the-wolf")
    target = aim_master(t, "B")  # Matthew (B, first) sends the Master onto Roel
    t.place("roel", FORTRESS.centre(target))
    t.place("matthew", FORTRESS.ladders["L1"].cell)
    t.state.ladders.remove("L2")  # arrange: the only other ladder is gone
    t.do(c.Stay(hero="matthew"))
    t.do(c.EnterDraw(hero="matthew", token="master-1"))
    assert t.state.strigoi["master"] == target
    t.finish_turn("matthew")  # Roel takes the wounds; then he must be placed again
    assert t.task() == "relocate" and t.game.waiting_for.hero == "roel"
    t.do(next(x for x in t.game.legal_commands() if isinstance(x, c.Relocate)))
    assert t.at("roel") is not None and violations(t.rules, t.state) == []


# ----- 6. Heal: ladders are in no room; the player picks the token (R-ABL Heal) ----------------
def test_a_healer_on_a_ladder_heals_only_himself() -> None:
    t = Table([("falk_maria", "L1"), ("roel", "L2")])
    t.choose(falk_maria="amen-and-attack", roel="nightside-of-siberia")
    for hero in ("falk_maria", "roel"):
        t.do(c.AddWound(hero=hero, token=f"wound-{1 if hero == 'roel' else 2}"))
    t.do(c.UseHeal(hero="falk_maria"))
    assert t.state.hero("falk_maria").wounds == [] and t.state.hero("roel").wounds == ["wound-1"]


def test_the_healed_player_chooses_which_wound_token_goes() -> None:
    t = Table([("falk_maria", "L1"), ("roel", "L2")])
    t.choose(falk_maria="amen-and-attack", roel="nightside-of-siberia")
    t.do(c.AddWound(hero="falk_maria", token="wound-1"))
    t.do(c.AddWound(hero="falk_maria", token="wound-shock-1"))
    offered = [x for x in t.game.legal_commands() if isinstance(x, c.UseHeal)]
    assert {x.tokens["falk_maria"] for x in offered} == {"wound-1", "wound-shock-1"}
    t.do(c.UseHeal(hero="falk_maria", tokens={"falk_maria": "wound-shock-1"}))
    assert t.state.hero("falk_maria").wounds == ["wound-1"]


@pytest.mark.rule("R-ABL Heal")
def test_heal_is_not_offered_when_nobody_in_the_room_is_wounded() -> None:  # R-ABL Heal
    t = Table([("falk_maria", "L1"), ("roel", "L2")])
    t.choose(falk_maria="amen-and-attack", roel="nightside-of-siberia")
    assert not [x for x in t.game.legal_commands() if isinstance(x, c.UseHeal)]
    t.do(c.AddWound(hero="roel", token="wound-1"))  # Roel stands on his ladder: in no room
    assert not [x for x in t.game.legal_commands() if isinstance(x, c.UseHeal)]
    t.do(c.AddWound(hero="falk_maria", token="wound-2"))
    offered = [x for x in t.game.legal_commands() if isinstance(x, c.UseHeal)]
    assert offered and all(x.tokens == {"falk_maria": "wound-2"} for x in offered)


# ----- 7. The Supreme moved to the centre room never lands on a hero (R-COL-3 Decision) -------
def supreme_table() -> Table:
    """Charles (Demons Are a Girl's Best Friend, B) next to the Supreme, enough blood and
    rewards to wound it; the Apprentice already destroyed."""
    t = Table([("charles", "L1"), ("matthew", "L2")])
    round_two(t, charles="demons-best-friend", matthew="nightside-of-siberia")
    s = t.state
    s.strigoi.pop("apprentice")
    s.destroyed, s.supreme = ["apprentice"], "master"
    s.strigoi["supreme"] = s.strigoi.pop("master")
    s.strigoi_wounds = {"supreme": 0}
    for card in ("bell", "blunderbuss"):  # wild 6 + 7 with the card's 5: beats 9
        s.stacks["reward_card"].draw.remove(card)
        s.hero("charles").hand.append(card)
    t.do(c.SetBlood(altar=3, inferno=0))
    return t


@pytest.mark.rule("R-COL-3")
def test_the_supreme_moved_to_the_centre_room_sends_the_hero_there_to_a_ladder() -> None:
    t = supreme_table()
    target = FORTRESS.rooms["C"].neighbours[FORTRESS.book_direction("C", "B", BOARD) or 0]
    assert target is not None
    t.do(c.SetStrigoiPosition(strigoi="supreme", room=target))  # on the collapsing platform
    t.place("matthew", FORTRESS.centre("C"))
    t.place("charles", t.neighbour_into(FORTRESS.centre(target)))
    t.do(c.Stay(hero="charles"))
    wild = [c.RewardPlay(item=x, mode="wild") for x in ("bell", "blunderbuss")]
    t.do(c.AttackStrigoi(hero="charles", strigoi="supreme", mode="melee", rewards=wild))
    assert target in t.state.collapsed and t.state.strigoi["supreme"] == "C"
    assert t.at("matthew") != FORTRESS.centre("C")
    assert t.task() == "relocate" and t.game.waiting_for.hero == "matthew"
    assert violations(t.rules, t.state) == []
    assert t.state.altar == 3  # no blood lost for stepping off (R-COL-3 Decision)


# ----- 8. Smaller ones -----------------------------------------------------------------------
def _catalog_with_wound_icon(card: str, tmp_path: Path) -> GameRules:
    data = msgspec.json.decode(msgspec.json.encode(CATALOG))
    for reward in data["reward_cards"]:
        if reward["id"] == card:
            reward["wound_icon"] = True
    path = tmp_path / "catalog.json"
    path.write_bytes(msgspec.json.encode(data))
    return GameRules(FORTRESS, load_catalog(path), GameOptions(physical=PHYSICAL))


@pytest.mark.rule("R-WND-3")
def test_a_reward_card_can_carry_a_wound_icon_that_wounds_in_a_fight(tmp_path: Path) -> None:
    rules = _catalog_with_wound_icon("sword", tmp_path)  # R-WND-3
    assert rules.catalog.reward_card("sword").wound_icon  # type: ignore[union-attr]
    t = Table([("roel", "L1"), ("matthew", "L2")])
    t.game = Game.new(rules, 1, [("roel", "L1"), ("matthew", "L2")])
    t.rules = rules
    t.choose(roel="werewolves-of-armenia", matthew="nightside-of-siberia")
    t.state.stacks["reward_card"].draw.remove("sword")
    t.state.hero("roel").hand.append("sword")
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-05"))
    events = t.do(c.Fight(hero="roel", rewards=[c.RewardPlay(item="sword", mode="normal")]))
    assert t.state.stacks["red"].discard == ["red-05"]  # won (strength 3 + 2 against 2) ...
    own = [x for x in events if isinstance(x, e.TasksQueued) and icon_wound(x.tasks[0])]
    assert own and not own[0].tasks[0].protectable  # ... and wounded by the sword's icon
    assert len(t.state.hero("roel").wounds) == 1


def _attacked_table(card: str) -> Table:
    """Round 2: the Master attacks Roel (who plays `card`) in Matthew's turn, blood on the
    Altar for a counterattack."""
    t = Table([("matthew", "L1"), ("roel", "L2")])
    round_two(t, matthew="son-of-the-wolf", roel=card)
    target = aim_master(t, "B")
    t.place("roel", t.neighbour_into(FORTRESS.centre(target)))
    t.do(c.SetBlood(altar=2, inferno=0))
    t.do(c.Stay(hero="matthew"))
    t.do(c.EnterDraw(hero="matthew", token="master-1"))
    return t


@pytest.mark.rule("R-WND-3")
def test_the_wound_icon_applies_to_a_counterattack() -> None:  # R-WND-3 Decision
    t = _attacked_table("murder-at-midnight")  # strength 4, wound icon
    if t.task() == "protect":
        t.do(c.Protect(hero="roel", sources=[]))
    assert t.task() == "counterattack"
    before = len(t.state.hero("roel").wounds)
    events = t.do(c.AttackStrigoi(hero="roel", strigoi="master", mode="melee"))
    own = [x for x in events if isinstance(x, e.TasksQueued) and icon_wound(x.tasks[0])]
    assert own, "the card's wound icon wounds the counterattacking hero"
    assert len(t.state.hero("roel").wounds) == before + 1 or t.state.hero("roel").defeated


@pytest.mark.rule("R-ADV-2")
def test_the_evil_made_me_do_it_is_earned_from_a_curse() -> None:  # R-ADV-2 Decision
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="armata-strigoi")
    master_in_south_east(t)
    t.place("roel", (11, 0))
    t.place("matthew", room_space(t, "SW", platform=False))
    for token in ("wound-1", "wound-2"):
        t.do(c.AddWound(hero="matthew", token=token))
    for hero, token in (("roel", "apprentice-1"), ("matthew", "apprentice-2")):
        t.do(c.Stay(hero=hero))
        t.do(c.EnterDraw(hero=hero, token=token))
        t.finish_turn(hero)
    curses = [x for x in t.game.events if type(x).__name__ == "CurseCast"]
    assert curses and curses[-1].heroes == ["matthew"]
    # Matthew's third wound came from the curse, which used Roel's card (Roel went first)
    assert "the-evil-made-me-do-it" in t.state.hero("roel").advanced


@pytest.mark.rule("R-CUR-1")
def test_a_landed_on_hero_in_the_curse_cannot_protect() -> None:  # R-CUR-1 Decision
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="nightside-of-siberia")
    t.state.stacks["reward_token"].draw.remove("token-shield-1")
    t.state.hero("matthew").reward_tokens.append("token-shield-1")  # Protection to hand
    target = aim_master(t, "E")  # Roel goes first: his E steers the curse
    t.state.strigoi.pop("apprentice")  # arrange: only the Master on the board, no attack
    t.place("roel", (11, 0))
    t.place("matthew", FORTRESS.centre(target))
    for hero, token in (("roel", "apprentice-1"), ("matthew", "apprentice-2")):
        t.do(c.Stay(hero=hero))
        t.do(c.EnterDraw(hero=hero, token=token))
        t.finish_turn(hero)
    curses = [x for x in t.game.events if type(x).__name__ == "CurseCast"]
    if not curses:
        pytest.skip("the Apprentice happened to attack")
    asked = [
        task
        for x in t.game.events
        if type(x).__name__ == "TasksQueued"
        for task in x.tasks
        if task.kind == "protect"
    ]
    assert [(x.hero, x.protectable) for x in asked] == [("matthew", False)]
    matthew = t.state.hero("matthew")  # the shield was not offered: still there
    assert matthew.reward_tokens == ["token-shield-1"] and len(matthew.wounds) == 1


@pytest.mark.rule("R-LOS-4")
def test_a_landed_on_hero_may_counterattack_from_the_new_space() -> None:  # R-LOS-4 Decision
    t = Table([("matthew", "L1"), ("roel", "L2")])
    round_two(t, matthew="son-of-the-wolf", roel="murder-at-midnight")
    target = aim_master(t, "B")
    t.place("roel", FORTRESS.centre(target))
    t.do(c.SetBlood(altar=2, inferno=0))
    t.do(c.Stay(hero="matthew"))
    t.do(c.EnterDraw(hero="matthew", token="master-1"))
    queued = next(
        [task.kind for task in x.tasks]
        for x in t.game.events
        if type(x).__name__ == "TasksQueued" and any(k.kind == "relocate" for k in x.tasks)
    )
    # placed first, so the counterattack is judged from the new space (not skipped off-board)
    assert queued.index("relocate") < queued.index("counterattack")


# ----- issue 31: recovering the discard pile, advanced cards earned in the curse ---------------
ROEL_OLD = [
    "roel/son-of-the-wolf",
    "roel/murder-at-midnight",
    "roel/nightside-of-siberia",
    "roel/when-the-moon-shines-red",
]


def _last_card_table() -> Table:
    """Round 1, Roel holding two cards (Prayer in the Dark, Werewolves of Armenia; the other four
    in his discard pile from earlier rounds), about to lose to a red monster with Prayer played."""
    t = Table([("roel", "L1"), ("matthew", "L2")], physical=PHYSICAL | {"wound"})
    roel = t.state.hero("roel")
    roel.hand = ["roel/prayer-in-the-dark", "roel/werewolves-of-armenia"]
    roel.discard = list(ROEL_OLD)
    t.choose(roel="prayer-in-the-dark", matthew="nightside-of-siberia")
    t.walk_onto("roel", t.red()[0])
    t.do(c.EnterDraw(hero="roel", token="red-13"))  # strength 5 against 2: lost
    t.do(c.Fight(hero="roel", rewards=[]))
    return t


@pytest.mark.rule("R-RND-4")
@pytest.mark.parametrize("how", ["protection", "shock"])
def test_cards_played_or_discarded_this_round_are_never_recovered(how: str) -> None:  # R-RND-4
    t = _last_card_table()
    if how == "protection":  # the last card in hand blocks the wound
        t.do(c.Protect(hero="roel", sources=["roel/werewolves-of-armenia"]))
    else:  # the wound is a Shock: the last card in hand is discarded to it
        t.do(c.Protect(hero="roel", sources=[]))
        t.do(c.EnterDraw(hero="roel", token="wound-shock-1"))
        t.do(c.DiscardForShock(hero="roel", card="roel/werewolves-of-armenia"))
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    assert t.state.round == 2
    roel = t.state.hero("roel")
    # the empty hand takes back the pile of earlier rounds only; this round's two cards form
    # the new discard pile
    assert sorted(roel.hand) == sorted(ROEL_OLD)
    assert sorted(roel.discard) == ["roel/prayer-in-the-dark", "roel/werewolves-of-armenia"]


@pytest.mark.rule("R-RND-4")
def test_the_last_card_played_is_not_recovered_in_its_round() -> None:  # R-RND-4
    t = Table([("roel", "L1"), ("matthew", "L2")])
    roel = t.state.hero("roel")
    roel.hand = ["roel/prayer-in-the-dark"]
    roel.discard = list(ROEL_OLD)
    t.choose(roel="prayer-in-the-dark", matthew="nightside-of-siberia")
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    assert t.state.round == 2
    roel = t.state.hero("roel")
    assert sorted(roel.hand) == sorted(ROEL_OLD)
    assert roel.discard == ["roel/prayer-in-the-dark"]
    with pytest.raises(IllegalCommand, match="not an action card"):
        t.do(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))


@pytest.mark.rule("R-ADV-2")
def test_an_advanced_card_earned_in_the_curse_joins_when_the_curse_ends() -> None:  # R-ADV
    t = Table([("roel", "L1"), ("matthew", "L2")])
    round_two(t, roel="when-the-moon-shines-red", matthew="armata-strigoi")
    master_in_south_east(t)
    t.place("roel", (11, 0))
    t.place("matthew", room_space(t, "SW", platform=False))
    for hero, token in (("roel", "apprentice-1"), ("matthew", "apprentice-2")):
        t.do(c.Stay(hero=hero))
        t.do(c.EnterDraw(hero=hero, token=token))
        t.finish_turn(hero)
    curses = [x for x in t.game.events if isinstance(x, e.CurseCast)]
    assert curses and curses[-1].heroes == ["matthew"]
    matthew = t.state.hero("matthew")
    assert "all-you-can-bleed" in matthew.advanced  # the curse's wound: from a Strigoi
    assert t.state.round == 3 and t.task() == "choose"
    # joined at the end of that Strigoi turn, so it can be chosen in the next round
    assert matthew.pending == [] and "all-you-can-bleed" in matthew.hand
    t.do(c.ChooseCard(hero="matthew", card="all-you-can-bleed"))
    assert t.state.hero("matthew").chosen == "all-you-can-bleed"


@pytest.mark.rule("R-RND-4")
def test_with_no_earlier_pile_this_rounds_cards_come_back() -> None:  # R-RND-4 Decision
    t = Table([("roel", "L1"), ("matthew", "L2")])
    roel = t.state.hero("roel")
    t.state.removed.extend(x for x in roel.hand if x != "roel/prayer-in-the-dark")
    roel.hand = ["roel/prayer-in-the-dark"]  # the others out of the game: no earlier pile
    t.choose(roel="prayer-in-the-dark", matthew="nightside-of-siberia")
    for hero in list(t.state.turn_order):
        t.finish_turn(hero)
    assert t.state.hero("roel").hand == ["roel/prayer-in-the-dark"]  # he can choose again
    assert t.state.hero("roel").discard == []
