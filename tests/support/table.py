"""Test helper: a game on the default fortress, driven command by command."""

from __future__ import annotations

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.context import GameOptions, GameRules
from companion.engine.game.game import Game
from companion.engine.game.queries import protection_sources
from companion.engine.game.state import Cell

FORTRESS = load_board_file()
CATALOG = load_catalog()
PHYSICAL = frozenset({"red", "grey", "strigoi"})


def rules(physical: frozenset[str] = PHYSICAL) -> GameRules:
    return GameRules(FORTRESS, CATALOG, GameOptions(physical=physical))


class Table:
    def __init__(
        self,
        seats: list[tuple[str, str]] | None = None,
        seed: int = 1,
        physical: frozenset[str] = PHYSICAL,
    ) -> None:
        self.rules = rules(physical)
        self.game = Game.new(self.rules, seed, seats or [("roel", "L1"), ("matthew", "L2")])

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return self.game.state

    def do(self, command: c.Command) -> list[e.Event]:
        return self.game.execute(command)

    def task(self) -> str:
        return self.game.waiting_for.kind if self.game.waiting_for else "none"

    def choose(self, **cards: str) -> None:
        for hero, card in cards.items():
            self.do(c.ChooseCard(hero=hero, card=f"{hero}/{card}"))

    def at(self, hero: str) -> Cell | None:
        return self.state.hero(hero).at

    def place(self, hero: str, cell: Cell) -> None:
        self.do(c.SetHeroPosition(hero=hero, to=cell))

    def neighbour_into(self, target: Cell) -> Cell:
        """A free space with an open edge into `target`."""
        board = self.rules.fortress.initial_state()
        taken = {h.at for h in self.state.heroes}
        for cell, around in self.rules.fortress.adjacency(board).items():
            if (
                target in around
                and cell not in taken
                and not self.rules.fortress.feature(cell, board)
            ):
                return cell
        raise AssertionError(f"nothing leads into {target}")

    def walk_onto(self, hero: str, target: Cell) -> list[e.Event]:
        self.place(hero, self.neighbour_into(target))
        return self.do(c.Move(hero=hero, to=target))

    def finish_turn(self, hero: str) -> None:
        """Resolve whatever the hero still owes this turn with the plainest answer."""
        for _ in range(20):
            task = self.game.waiting_for
            if task is None or (task.kind in ("choose", "move") and task.hero != hero):
                return
            if task.hero not in (None, hero) and task.kind != "strigoi":
                return
            kind = task.kind
            if kind == "move":
                self.do(c.Stay(hero=hero))
            elif kind in ("fight_choice", "counterattack"):
                self.do(c.SkipFight(hero=hero))
            elif kind == "protect":
                self.do(c.Protect(hero=task.hero or hero, sources=[]))
            elif kind == "strigoi":
                token = next(t for t in self.state.stacks["strigoi"].draw)
                self.do(c.EnterDraw(hero=self.state.active_hero or hero, token=token))
            elif kind == "abilities":
                self.do(c.Proceed(hero=hero))  # no token: abilities were still possible
            else:
                return

    def red(self) -> list[Cell]:
        board = self.rules.fortress.initial_state()
        return sorted(
            x
            for x in self.rules.fortress.spaces(board)
            if self.rules.fortress.feature(x, board) == "red"
        )

    def protection(self, hero: str) -> list[str]:
        return protection_sources(self.rules, self.state.hero(hero))


def kinds(events: list[e.Event]) -> list[str]:
    return [type(x).__struct_config__.tag for x in events]  # type: ignore[attr-defined]


#: five neighbouring spaces at the top of the north-west room, under its name and beside the
#: north-east room's: the crowd of issue 29 (the touchscreen's board, the phone's board)
CROWD: dict[str, Cell] = {
    "roel": (0, -10),
    "matthew": (1, -10),
    "attila": (0, -9),
    "charles": (1, -9),
    "falk_maria": (2, -9),
}
CROWD_HEROES = list(CROWD)
