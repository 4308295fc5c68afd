"""A new game being set up (R-SET): players and heroes in seat order, the room layout, each
player's ladder, and which stacks the table draws physically.

The wizard edits a `SetupPlan`; every layout change goes through the board loader, so an edit
the board format refuses is refused here with the loader's message and the plan stays as it was.
Ladder sites come with the reasons a rule gives against them, so the screen can show why a side
is not allowed instead of hiding it.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.app.words.i18n import tr
from companion.app.words.table_texts import site_label, site_refusal
from companion.engine.board_build import load_board
from companion.engine.board_schema import board_spec_to_data
from companion.engine.explain import N_, hero_name
from companion.engine.fortress import Fortress
from companion.engine.game.context import PHYSICAL_STACKS
from companion.engine.hexgrid import DIRECTIONS, Cell, add, scale
from companion.engine.situation import HEROES
from companion.errors import SetupError

MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Absolute side names; the default fortress names its rooms the same way.
SIDE_NAMES = ("E", "NE", "NW", "W", "SW", "SE")


# R-SET-2; the rule codes stay in the code, the players read the reasons
NO_DOOR = N_("no corridor reaches this side")
MARKED = N_("the room's platform has the Strigoi mark")
TAKEN = N_("{hero}'s ladder stands here")
NO_LADDER = N_("{hero} has no ladder yet")
PLAYER_COUNT = N_("A game needs two to five players.")  # R-SET
TOO_MANY = N_("At most five players can play.")
TOO_FEW = N_("At least two players must play.")
CENTRE_STAYS = N_("The centre room stays in the middle; swap two outer rooms.")


@dataclass(frozen=True)
class LadderSite:
    room: str
    side: int
    #: why a ladder may not stand here, as a template (NO_DOOR, MARKED, TAKEN); empty when it may
    reason: str = ""
    holder: str = ""  # the hero whose ladder stands here (TAKEN)

    @property
    def refusal(self) -> str:
        return self.refusal_in()

    def refusal_in(self, translate: Callable[[str], str] = str) -> str:
        """Why no ladder may stand here, in the players' language, the holder by name."""
        return translate(self.reason).format(hero=hero_name(self.holder))

    @property
    def name(self) -> str:
        return f"{self.room} {SIDE_NAMES[self.side]}"

    @property
    def allowed(self) -> bool:
        return not self.refusal


@dataclass(frozen=True)
class RoomParts:
    """A room's printed parts: its tile's encounter spaces and stairs (kind -> how many), its
    platform's books read round the rim from A, whether the platform has the Strigoi mark, and
    the platform's first book with the direction it faces (None: the centre room)."""

    room: str
    tile_spaces: dict[str, int]
    books: str
    marked: bool
    book_facing: tuple[str, int] | None


@dataclass
class Seat:
    hero: str
    site: tuple[str, int] | None = None


def site_cell(fortress: Fortress, room: str, side: int) -> Cell:
    """Where a ladder on that side stands: one step beyond the room's spoke (BOARD-FORMAT)."""
    return add(fortress.centre(room), scale(DIRECTIONS[side], fortress.room_radius + 1))


def ladder_sites(fortress: Fortress) -> list[LadderSite]:
    """Every outer side of every room, allowed or with the reason it is not (R-SET-2)."""
    sites = []
    for room in fortress.rooms.values():
        for side in range(6):
            if room.neighbours[side] is not None:
                continue  # an inner side: no ladder can stand there at all
            reason = ""
            if side not in room.doors:
                reason = NO_DOOR
            elif room.strigoi_start:
                reason = MARKED
            sites.append(LadderSite(room.id, side, reason))
    return sites


@dataclass
class SetupPlan:
    """What the wizard has chosen so far; `seats()` gives the engine's (hero, ladder) list."""

    default_board: dict[str, Any]
    board: dict[str, Any] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)
    physical: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.board:
            self.board = copy.deepcopy(self.default_board)
        self.board["layout"]["ladders"] = []
        self.fortress = load_board(self.board)

    @classmethod
    def from_fortress(cls, fortress: Fortress, heroes: list[str] | None = None) -> SetupPlan:
        plan = cls(board_spec_to_data(fortress.spec))
        for hero in heroes or []:
            plan.add_player(hero)
        return plan

    @classmethod
    def from_game(
        cls,
        fortress: Fortress,
        board: dict[str, Any],
        seats: Sequence[Sequence[str]],
        physical: Iterable[str] = (),
    ) -> SetupPlan:
        """The group of a stored game: its layout, its heroes in seat order, each on the
        ladder it had, and the stacks it drew by hand (`fortress`: the default layout)."""
        sites = {
            ladder["id"]: (ladder["room"], ladder["side"])
            for ladder in board.get("layout", {}).get("ladders", [])
        }
        plan = cls(board_spec_to_data(fortress.spec), copy.deepcopy(board))
        for hero, ladder in seats:
            plan.add_player(hero)
            site = sites.get(ladder)
            if site is not None:
                plan.place_ladder(len(plan.seats) - 1, *site)
        for stack in physical:
            plan.set_physical(stack, True)
        return plan

    # ----- players ----------------------------------------------------------------------------
    def can_add_player(self) -> bool:
        """R-SET: at most five players (the screen disables "Add player" and says why)."""
        return len(self.seats) < MAX_PLAYERS

    def can_remove_player(self) -> bool:
        """R-SET: at least two players."""
        return len(self.seats) > MIN_PLAYERS

    def free_heroes(self) -> list[str]:
        taken = {s.hero for s in self.seats}
        return [h for h in HEROES if h not in taken]

    def add_player(self, hero: str | None = None) -> Seat:
        if not self.can_add_player():
            raise SetupError(TOO_MANY)
        free = self.free_heroes()
        hero = hero or free[0]
        if hero not in free:
            raise SetupError(f"{hero!r} is already playing or unknown (one of {', '.join(HEROES)})")
        seat = Seat(hero)
        self.seats.append(seat)
        return seat

    def remove_player(self, index: int) -> None:
        if not self.can_remove_player():
            raise SetupError(TOO_FEW)
        del self.seats[index]

    def next_hero(self, index: int) -> None:
        """Give the seat the next hero nobody else plays (the hero button cycles)."""
        seat = self.seats[index]
        order = list(HEROES)
        taken = {s.hero for s in self.seats if s is not seat}
        for step in range(1, len(order) + 1):
            candidate = order[(order.index(seat.hero) + step) % len(order)]
            if candidate not in taken:
                seat.hero = candidate
                return

    def move_seat(self, index: int, delta: int) -> None:
        """Seat order breaks initiative ties (R-RND-2)."""
        target = index + delta
        if 0 <= target < len(self.seats):
            self.seats[index], self.seats[target] = self.seats[target], self.seats[index]

    # ----- layout -----------------------------------------------------------------------------
    def _apply(self, board: dict[str, Any]) -> None:
        """Take a changed board only when the loader accepts it; seats keep their ladders only
        where a ladder may still stand."""
        board["layout"]["ladders"] = []
        self.fortress = load_board(board)  # BoardFormatError names the path and field
        self.board = board
        allowed = {(s.room, s.side) for s in ladder_sites(self.fortress) if s.allowed}
        for seat in self.seats:
            if seat.site not in allowed:
                seat.site = None

    def use_default_layout(self) -> None:
        self._apply(copy.deepcopy(self.default_board))

    def randomise_layout(self, rng: random.Random) -> None:
        """Platforms shuffled over the platform rooms and turned at random; the two marked
        platforms are kept apart, as R-SET-1 advises for first games."""
        board = copy.deepcopy(self.board)
        rooms = [r for r in board["layout"]["rooms"] if r.get("platform")]
        marked = {p for p, spec in board["platforms"].items() if spec.get("strigoi_start")}
        positions = {r["id"]: tuple(r["at"]) for r in rooms}
        for _ in range(200):
            platforms = [r["platform"] for r in rooms]
            rng.shuffle(platforms)
            marked_at = [
                positions[r["id"]] for r, p in zip(rooms, platforms, strict=True) if p in marked
            ]
            if not _adjacent_macro(marked_at):
                break
        for room, platform in zip(rooms, platforms, strict=True):
            room["platform"] = platform
            room["rotation"] = rng.randrange(6)
        self._apply(board)

    def turn_platform(self, room_id: str) -> None:
        board = copy.deepcopy(self.board)
        room = _find(board, room_id)
        if not room.get("platform"):
            raise SetupError(f"room {room_id!r} has no platform to turn")
        room["rotation"] = (room.get("rotation", 0) + 1) % 6
        self._apply(board)

    def turn_tile(self, room_id: str) -> None:
        board = copy.deepcopy(self.board)
        room = _find(board, room_id)
        room["orientation"] = (room.get("orientation", 0) + 1) % 6
        self._apply(board)

    def swap_rooms(self, first: str, second: str) -> None:
        """Exchange two platform rooms' tiles and platforms (a room dragged onto another); the
        centre room stays in the middle (R-SET-1)."""
        if first == second:
            return
        board = copy.deepcopy(self.board)
        a, b = _find(board, first), _find(board, second)
        for room in (a, b):
            if not room.get("platform"):
                raise SetupError(CENTRE_STAYS)  # R-SET-1
        for key in ("tile", "orientation", "platform", "rotation"):
            a[key], b[key] = b.get(key, 0), a.get(key, 0)
        self._apply(board)

    # ----- ladders and stacks -----------------------------------------------------------------
    def sites(self) -> list[LadderSite]:
        """Ladder sites for the board as laid out, with a seat's claim as a refusal too."""
        taken = {s.site: s.hero for s in self.seats if s.site is not None}
        out = []
        for site in ladder_sites(self.fortress):
            holder = taken.get((site.room, site.side))
            if site.allowed and holder is not None:
                site = LadderSite(site.room, site.side, TAKEN, holder)
            out.append(site)
        return out

    def refused_sites(self, seat: Seat) -> list[str]:
        """Why `seat`'s ladder may not stand on the other sites, each sentence once: a room with
        a Strigoi-marked platform refuses all its sides in the same words (issue 29 playtest:
        the wizard's "Not allowed" list repeated them)."""
        said = [
            site_refusal(site.room, site.side, site.reason, site.holder)
            for site in self.sites()
            if not site.allowed and (site.room, site.side) != seat.site
        ]
        return list(dict.fromkeys(said))

    def place_ladder(self, index: int, room: str, side: int) -> None:
        seat = self.seats[index]
        for site in self.sites():
            if (site.room, site.side) == (room, side):
                if site.allowed or seat.site == (room, side):
                    seat.site = (room, side)
                    return
                raise SetupError(site_refusal(room, side, site.reason, site.holder))
        raise SetupError(
            tr("{site} is not an outer side of the fortress").format(site=site_label(room, side))
        )

    def set_physical(self, stack: str, physical: bool) -> None:
        if stack not in PHYSICAL_STACKS:
            raise SetupError(f"unknown stack {stack!r} (one of {', '.join(PHYSICAL_STACKS)})")
        (self.physical.add if physical else self.physical.discard)(stack)

    # ----- the result -------------------------------------------------------------------------
    def problems(self, translate: Callable[[str], str] = str) -> list[str]:
        """What still stops the game from starting, in words for the players (`translate` maps
        each template to the players' language)."""
        found = []
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            found.append(translate(PLAYER_COUNT))
        found += [
            translate(NO_LADDER).format(hero=hero_name(s.hero))
            for s in self.seats
            if s.site is None
        ]
        return found

    def game_board(self) -> dict[str, Any]:
        """The board file of the game: the layout with one ladder per seat, L1.. in seat order."""
        if self.problems():
            raise SetupError("; ".join(self.problems()))
        board = copy.deepcopy(self.board)
        board["layout"]["ladders"] = [
            {"id": f"L{i + 1}", "room": s.site[0], "side": s.site[1]}
            for i, s in enumerate(self.seats)
            if s.site is not None
        ]
        return board

    def preview(self) -> tuple[Fortress, dict[str, str]]:
        """The layout with every ladder chosen so far (for the board: each in its hero's
        colour), and which hero each of its ladders belongs to."""
        placed = [(i, s) for i, s in enumerate(self.seats) if s.site is not None]
        if not placed:
            return self.fortress, {}
        board = copy.deepcopy(self.board)
        board["layout"]["ladders"] = [
            {"id": f"L{i + 1}", "room": s.site[0], "side": s.site[1]}
            for i, s in placed
            if s.site is not None
        ]
        return load_board(board), {f"L{i + 1}": s.hero for i, s in placed}

    def room_parts(self, room_id: str) -> RoomParts:
        """What is printed on a room's tile and platform, for players to find them on the
        table: the tile's encounter spaces and stairs, the platform's books and mark."""
        room = _find(self.board, room_id)
        tile = self.board["tiles"][room["tile"]]
        own = tile.get("spaces", {})
        counts = {kind: len(own.get(kind, [])) for kind in ("red", "grey", "stairs")}
        platform = room.get("platform")
        if not platform:
            return RoomParts(room_id, counts, books="", marked=False, book_facing=None)
        spec = self.board["platforms"][platform]
        books = str(spec["books"])
        start = books.index("A") if "A" in books else 0
        ring = books[start:] + books[:start]  # read round the rim from A, counter-clockwise
        rotation = int(room.get("rotation", 0))
        return RoomParts(
            room_id,
            counts,
            books=ring,
            marked=bool(spec.get("strigoi_start")),
            book_facing=(books[0], rotation % 6),  # BOARD-FORMAT: books[i] at i + rotation
        )

    def game_seats(self) -> list[tuple[str, str]]:
        return [(s.hero, f"L{i + 1}") for i, s in enumerate(self.seats)]


def _find(board: dict[str, Any], room_id: str) -> dict[str, Any]:
    for room in board["layout"]["rooms"]:
        if room["id"] == room_id:
            return room  # type: ignore[no-any-return]
    raise SetupError(f"no room {room_id!r} in the layout")


def _adjacent_macro(positions: list[tuple[int, ...]]) -> bool:
    steps = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    return any(
        (b[0] - a[0], b[1] - a[1]) in steps for i, a in enumerate(positions) for b in positions[i:]
    )
