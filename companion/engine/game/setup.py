"""A new game (R-SET): heroes on their ladders, shuffled stacks from one seed, Strigoi off board."""

from __future__ import annotations

from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.kinds import StackName
from companion.engine.game.seeded import setup_generator
from companion.engine.game.state import GameState, HeroState, Stack
from companion.engine.game.tasks import ChooseTask
from companion.engine.situation import HEROES
from companion.errors import IllegalCommand


def _stacks(rules: GameRules, seed: int) -> dict[StackName, Stack]:
    pools = rules.catalog.stack_ids()
    stacks: dict[StackName, Stack] = {}
    for name, ids in pools.items():
        order = sorted(ids)
        setup_generator(seed, name).shuffle(order)
        stacks[name] = Stack(draw=order, physical=name in rules.options.physical)
    return stacks


def check_ladder(rules: GameRules, ladder: str) -> None:
    """R-SET-2: a ladder on an outer side with a door (the board format ensures that), not
    touching a room whose platform carries the Strigoi mark."""
    if ladder not in rules.fortress.ladders:
        raise IllegalCommand(
            f"unknown ladder {ladder!r} (the layout has {sorted(rules.fortress.ladders)})"
        )
    room = rules.fortress.ladders[ladder].room
    if rules.fortress.rooms[room].strigoi_start:
        raise IllegalCommand(
            f"ladder {ladder!r} touches {room!r}, a Strigoi starting room (R-SET-2)"
        )


def new_game(rules: GameRules, seed: int, seats: list[tuple[str, str]]) -> e.GameStarted:
    """The first event of a game. `seats`: (hero, ladder id) in seat order (R-RND-2)."""
    if not 2 <= len(seats) <= 5:
        raise IllegalCommand(f"2-5 players, got {len(seats)}")
    heroes = [hero for hero, _ in seats]
    ladders = [ladder for _, ladder in seats]
    for hero in heroes:
        if hero not in HEROES:
            raise IllegalCommand(f"unknown hero {hero!r} (one of {', '.join(HEROES)})")
    if len(set(heroes)) != len(heroes):
        raise IllegalCommand("each hero plays once")
    if len(set(ladders)) != len(ladders):
        raise IllegalCommand("each player places their own ladder")
    for ladder in ladders:
        check_ladder(rules, ladder)
    board = rules.fortress.initial_state()
    state = GameState(
        seed=seed,
        players=len(seats),
        heroes=[
            HeroState(
                hero=hero,
                seat=i,
                at=rules.fortress.ladders[ladder].cell,
                hand=sorted(rules.catalog.hero_cards(hero)),
            )
            for i, (hero, ladder) in enumerate(seats)
        ],
        rotations=dict(board.rotations),
        ladders=sorted(ladders),
        stacks=_stacks(rules, seed),
        advanced_left=[c.id for c in rules.catalog.advanced_cards],
        tasks=[ChooseTask()],
    )
    return e.GameStarted(state=state)


__all__ = ["check_ladder", "new_game"]
