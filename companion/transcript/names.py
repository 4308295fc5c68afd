"""The table's English vocabulary for transcripts: heroes, cards, tokens, rooms, spaces and
platform turns by the names players read on the components and on the touchscreen, and back.

Every `*_id` lookup raises `TranscriptError` naming what exists when a name is unknown. Names
compare without regard to case or repeated spaces. Identical components (three "token +1",
five "wound") share a name; the lookup takes one the situation allows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from companion.engine.components import Catalog
from companion.engine.explain import HERO_NAMES, STRIGOI_NAMES, Fact
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import DIRECTIONS, Cell
from companion.errors import TranscriptError

ROOM_NAMES: Mapping[str, str] = {
    "C": "centre room",
    "N": "north room",
    "NE": "north-east room",
    "E": "east room",
    "SE": "south-east room",
    "S": "south room",
    "SW": "south-west room",
    "W": "west room",
    "NW": "north-west room",
}
#: BOARD-FORMAT.md's six directions, 0 = east, counter-clockwise
DIRECTION_NAMES = ("east", "north-east", "north-west", "west", "south-west", "south-east")
MONSTER_REWARDS = {"bat": "a reward token", "axe": "a reward card", "blood": "blood"}
WOUND_NAMES = {
    "plain": "wound",
    "double": "double wound",
    "shock": "shock",
    "movement": "wound: movement -{penalty}",
    "strength": "wound: strength -{penalty}",
    "ability": "wound: no {ability}",
}
ABILITY_NAMES = {
    "protection": "Protection",
    "heal": "Heal",
    "retrieval": "Retrieval",
    "mechanics": "Mechanics",
    "stealth": "Stealth",
    "pack": "Pack",
    "leap": "Leap",
    "recovery": "Recovery",
    "gates_of_hell": "Gates of Hell",
    "destruction": "Destruction",
}
PLAYED_CARD = "played card"
OFF_BOARD = "off the board"


def key(name: str) -> str:
    """How names compare: case and runs of spaces do not matter."""
    return re.sub(r"\s+", " ", name.strip()).casefold()


def _pick(kind: str, name: object, table: Mapping[str, str]) -> str:
    """The id whose printed name (a key of `table`) is `name`, or an error listing the names."""
    if not isinstance(name, str):
        raise TranscriptError(f"a {kind} is named by a string, got {name!r}")
    keyed = {key(printed): found for printed, found in table.items()}
    found = keyed.get(key(name))
    if found is None:
        known = "; ".join(sorted(table)) or "none here"
        raise TranscriptError(f"unknown {kind} {name!r} (known: {known})")
    return found


class Names:
    """Names of one game's components: the fortress, the catalog and who sits on which ladder."""

    def __init__(self, fortress: Fortress, catalog: Catalog, seats: Iterable[tuple[str, str]]):
        self.fortress = fortress
        self.catalog = catalog
        self.owners = {ladder: hero for hero, ladder in seats}

    # ----- figures ---------------------------------------------------------------------------
    def hero(self, hero: str) -> str:
        return HERO_NAMES.get(hero, hero)

    def hero_id(self, name: object) -> str:
        return _pick("hero", name, {v: k for k, v in HERO_NAMES.items()})

    def strigoi(self, strigoi: str) -> str:
        return STRIGOI_NAMES.get(strigoi, strigoi)

    def strigoi_id(self, name: object) -> str:
        return _pick("Strigoi", name, {v: k for k, v in STRIGOI_NAMES.items()})

    # ----- rooms, directions, platform turns --------------------------------------------------
    def room(self, room: str) -> str:
        return ROOM_NAMES.get(room, f"room {room}")

    def room_id(self, name: object) -> str:
        return _pick("room", name, {self.room(r): r for r in self.fortress.rooms})

    def direction_id(self, name: object) -> int:
        return int(_pick("direction", name, {d: str(i) for i, d in enumerate(DIRECTION_NAMES)}))

    def turn(self, room: str, rotation: int) -> str:
        """A platform's rotation as the table sets it: which way its first book faces."""
        books = self.fortress.platforms[room].books
        return f"book {books[0]} faces {DIRECTION_NAMES[rotation % 6]}"

    def rotation_id(self, room: str, text: object) -> int:
        """The rotation of "book <letter> faces <direction>" in `room`."""
        match = re.fullmatch(r"book\s+(\w)\s+faces\s+(.+)", key(str(text)))
        if room not in self.fortress.platforms:
            raise TranscriptError(f"{self.room(room)} has no platform to turn")
        books = self.fortress.platforms[room].books
        if match is None or match.group(1).upper() not in books:
            raise TranscriptError(
                f"a platform turn reads 'book <letter> faces <direction>' with a letter of "
                f"{books} (got {text!r})"
            )
        direction = self.direction_id(match.group(2))
        return (direction - books.index(match.group(1).upper())) % 6

    # ----- spaces ----------------------------------------------------------------------------
    def ladder(self, ladder: str) -> str:
        owner = self.owners.get(ladder)
        return f"{self.hero(owner)}'s ladder" if owner else f"ladder {ladder}"

    def ladder_id(self, name: object) -> str:
        return _pick("ladder", name, {self.ladder(x): x for x in self.fortress.ladders})

    def space(self, cell: Cell | None) -> str:
        """A space: a ladder by its hero, a room's centre, or steps from the centre: "east room,
        2 north-east 1 north-west" (walk 2 north-east, then 1 north-west)."""
        if cell is None:
            return OFF_BOARD
        cell = (cell[0], cell[1])
        ladder = self.fortress.ladder_by_cell.get(cell)
        if ladder is not None:
            return self.ladder(ladder)
        room = self.fortress.room_at(cell)
        if room is None:
            raise TranscriptError(f"{list(cell)} lies in no room")
        centre = self.fortress.centre(room)
        if cell == centre:
            return f"centre of the {self.room(room)}"
        return f"{self.room(room)}, {_steps(cell[0] - centre[0], cell[1] - centre[1])}"

    def space_id(self, name: object) -> Cell | None:
        if not isinstance(name, str):
            raise TranscriptError(f"a space is named by a string, got {name!r}")
        text = key(name)
        if text == OFF_BOARD:
            return None
        if text.endswith("ladder") or text.startswith("ladder "):
            return self.fortress.ladders[self.ladder_id(name)].cell
        if text.startswith("centre of the "):
            return self.fortress.centre(self.room_id(text.removeprefix("centre of the ")))
        room_part, _, steps = text.partition(",")
        if not steps:
            raise TranscriptError(
                f"unknown space {name!r}: a space is '<hero>'s ladder', 'centre of the <room>' "
                "or '<room>, <n> <direction> [<m> <direction>]' (steps from the room's centre)"
            )
        room = self.room_id(room_part)
        centre = self.fortress.centre(room)
        q, r = centre
        words = steps.split()
        if len(words) % 2 or not words:
            raise TranscriptError(f"unreadable steps in space {name!r}")
        for count, direction in zip(words[::2], words[1::2], strict=True):
            if not count.isdigit():
                raise TranscriptError(f"unreadable steps in space {name!r}")
            dq, dr = DIRECTIONS[self.direction_id(direction)]
            q, r = q + dq * int(count), r + dr * int(count)
        if self.fortress.room_at((q, r)) != room:
            raise TranscriptError(f"space {name!r} lies outside the {self.room(room)}")
        return (q, r)

    # ----- cards, rewards, tokens ------------------------------------------------------------
    def card(self, item: str) -> str:
        """An action, advanced or reward card by its printed title; a reward token by what it
        gives ("token +1", "token Protection"); a reward card's mode in brackets."""
        source, _, mode = item.partition(":")
        reward = self.catalog.reward_card(source)
        if reward is not None:
            return f"{reward.title} ({mode})" if mode else reward.title
        token = self.catalog.reward_token(source)
        if token is not None:
            gives = [f"+{token.strength}"] if token.strength else []
            gives += [ABILITY_NAMES.get(a, a) for a in token.abilities]
            return "token " + " ".join(gives)
        if self.catalog.is_action_card(source):
            return self.catalog.card(source).title
        return item

    def card_id(self, name: object, among: Iterable[str], what: str = "card") -> str:
        """The component among `among` (ids, possibly "id:mode") that `name` names."""
        choices: dict[str, str] = {}
        for item in among:
            choices.setdefault(self.card(item), item)
        return _pick(what, name, choices)

    def source(self, source: str) -> str:
        """Where an ability comes from: the played card's icon, or a card or reward."""
        return PLAYED_CARD if source == "card" else self.card(source)

    def token(self, token: str) -> str:
        """A drawn token as printed: a monster by colour, strength and rewards, a monk, a
        Strigoi token by its Strigoi and bonus, a wound by its effect."""
        catalog = self.catalog
        for colour in ("red", "grey"):
            for found in getattr(catalog.encounter_tokens, colour):
                if found.id == token:
                    if found.kind == "monk":
                        return f"{colour} monk"
                    text = f"{colour} monster, strength {found.strength}"
                    if found.rewards:
                        text += " (" + ", ".join(MONSTER_REWARDS[r] for r in found.rewards) + ")"
                    return text
        for strigoi_token in catalog.strigoi_tokens:
            if strigoi_token.id == token:
                text = f"{self.strigoi(strigoi_token.strigoi)} token"
                return text + (f" +{strigoi_token.bonus}" if strigoi_token.bonus else "")
        for wound in catalog.wound_tokens:
            if wound.id == token:
                return WOUND_NAMES[wound.effect].format(
                    penalty=wound.penalty, ability=ABILITY_NAMES.get(wound.ability or "", "")
                )
        return self.card(token)

    def token_id(self, name: object, among: Iterable[str], what: str = "token") -> str:
        choices: dict[str, str] = {}
        for token in sorted(among):
            choices.setdefault(self.token(token), token)
        return _pick(what, name, choices)

    # ----- the engine's own words, with the table's names -----------------------------------
    def fact(self, name: str, value: Fact) -> Fact:
        """An `explain.Namer`: rooms, ladders and directions in an engine reason named as the
        table names them."""
        if name in ("room", "start", "to", "target") and isinstance(value, str):
            return self.room(value) if value in self.fortress.rooms else value
        if name == "ladder" and isinstance(value, str):
            return self.ladder(value)
        if name == "direction" and isinstance(value, int) and not isinstance(value, bool):
            return DIRECTION_NAMES[value % 6]
        if name in ("hero",) and isinstance(value, str):
            return self.hero(value)
        if name in ("strigoi",) and isinstance(value, str):
            return self.strigoi(value)
        return value


def _steps(dq: int, dr: int) -> str:
    """An offset from a centre as "<a> <direction> [<b> <next direction>]" (a > 0, b >= 0)."""
    for d in range(6):
        aq, ar = DIRECTIONS[d]
        bq, br = DIRECTIONS[(d + 1) % 6]
        det = aq * br - ar * bq
        a = (dq * br - dr * bq) // det
        b = (aq * dr - ar * dq) // det
        if a > 0 and b >= 0 and (a * aq + b * bq, a * ar + b * br) == (dq, dr):
            text = f"{a} {DIRECTION_NAMES[d]}"
            return text + (f" {b} {DIRECTION_NAMES[(d + 1) % 6]}" if b else "")
    raise TranscriptError(f"no steps for the offset {[dq, dr]}")
