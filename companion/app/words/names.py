"""What things are called in the players' words: items, tokens, abilities, spaces, rooms,
directions, figures, ladders and the Strigoi, as each language's rulebook names them. Hero,
card and room names stay as printed."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.words.i18n import N_, capital_first, ngettext, tr
from companion.engine.components import Catalog, EncounterToken
from companion.engine.explain import (
    ROOM_FACTS,
    Fact,
    hero_name,
    strigoi_name,
    the_strigoi,
)
from companion.engine.fortress import Fortress
from companion.engine.hexgrid import Cell

MODES = {"normal": N_("normal"), "wild": N_("wild")}


ATTACKS = {"melee": N_("melee"), "ranged": N_("ranged")}


#: the status line: the round and its phase, one message per phase (no phase word glued in)
ROUND_LINES = {
    "initiative": N_("Round {round} · choosing cards"),
    "turns": N_("Round {round} · heroes' turns"),
    "curse": N_("Round {round} · the curse"),
    "over": N_("Round {round} · game over"),
}


def round_line(round_number: int, phase: str) -> str:
    """ "Round 2 · heroes' turns", in the players' language."""
    template = ROUND_LINES.get(phase)
    if template is None:
        return tr("Round {round}").format(round=round_number)
    return tr(template).format(round=round_number)


def item_name(catalog: Catalog, item: str) -> str:
    """A card or reward token as the table knows it: a card by its printed title, a token by
    what it gives; a reward card's "id:wild"-style mode is kept. Unknown ids stay as they are."""
    source, _, mode = item.partition(":")
    reward = catalog.reward_card(source)
    if reward is not None:
        return f"{reward.title} ({tr(MODES[mode])})" if mode in MODES else reward.title
    token = catalog.reward_token(source)
    if token is not None:  # a token has no modes
        gives = [f"+{token.strength}"] if token.strength else []
        gives += [ability_name(a) for a in token.abilities]
        return tr("token {gives}").format(gives=" ".join(gives))
    if catalog.is_action_card(source):
        return catalog.card(source).title
    return item


STACK_NAMES = {
    "red": N_("red"),
    "grey": N_("grey"),
    "strigoi": N_("Strigoi action"),
    "wound": N_("wound"),
    "reward_token": N_("reward"),
    "reward_card": N_("reward card"),
}


REWARD_NAMES = {"bat": N_("a reward token"), "axe": N_("a reward card"), "blood": N_("blood")}


WOUND_NAMES = {
    "plain": N_("wound"),
    "double": N_("double wound"),
    "shock": N_("shock"),
    # no colon inside a name: it stands in sentences ("Give Roel the wound token: …")
    "movement": N_("movement -{penalty} wound"),
    "strength": N_("strength -{penalty} wound"),
    "ability": N_("wound without {ability}"),
}


ABILITY_NAMES = {
    "protection": N_("Protection"),
    "heal": N_("Heal"),
    "retrieval": N_("Retrieval"),
    "mechanics": N_("Mechanics"),
    "stealth": N_("Stealth"),
    "pack": N_("Pack"),
    "leap": N_("Leap"),
    "recovery": N_("Recovery"),
    "gates_of_hell": N_("Gates of Hell"),
    "destruction": N_("Destruction"),
    # not an ability but marked used the same way once it wounded its hero (R-WND, effects.py)
    "wound_icon": N_("wound icon"),
}


def ability_name(ability: str) -> str:
    return tr(ABILITY_NAMES[ability]) if ability in ABILITY_NAMES else ability


def ability_names(abilities: Sequence[str]) -> list[str]:
    """A card's abilities by name, an icon printed twice as "Protection ×2" (never
    "Protection, Protection"), in the card's order."""
    return [ability_name(a) + (f" ×{n}" if n > 1 else "") for a, n in Counter(abilities).items()]


#: a Strigoi token by its Strigoi, one message each: German joins them in one word
#: ("Lehrlingsmarker", never "Lehrling-Marker")
STRIGOI_TOKEN_NAMES = {
    "master": N_("Master token"),
    "apprentice": N_("Apprentice token"),
    "supreme": N_("Supreme Strigoi token"),
}


def reward_use(catalog: Catalog, item: str) -> str:
    """What a reward token does, one sentence (R-REW-2, R-ENC-1, R-HIT-2): its strength counts
    in a fight, its abilities once; "" for anything else (a reward card has its printed title)."""
    token = catalog.reward_token(item)
    if token is None:
        return ""
    abilities = ", ".join(ability_name(a) for a in token.abilities)
    if token.strength and abilities:
        text = tr("It adds {strength} to strength in a fight and gives {abilities}.")
    elif token.strength:
        text = tr("It adds {strength} to strength in a fight.")
    elif abilities:
        text = tr("It gives {abilities} once.")
    else:
        return ""
    return text.format(strength=token.strength, abilities=abilities)


def token_meaning(catalog: Catalog, token: str) -> str:
    """What a Strigoi action token does, one sentence (R-TEL-1, R-LOS-2): which Strigoi moves,
    and the wounds its bonus adds to an attack ("+1": one wound more); "" for other tokens."""
    found = next((t for t in catalog.strigoi_tokens if t.id == token), None)
    if found is None:
        return ""
    strigoi = strigoi_subject(found.strigoi)
    if not found.bonus:
        return capital_first(tr("{strigoi} moves, with no extra wound.").format(strigoi=strigoi))
    return ngettext(
        "+{count}: {strigoi} moves and its attack deals {count} extra wound.",
        "+{count}: {strigoi} moves and its attack deals {count} extra wounds.",
        found.bonus,
    ).format(strigoi=strigoi, count=found.bonus)


def token_name(catalog: Catalog, token: str | None) -> str:
    """A drawn token as printed: a monster by colour, strength and rewards, a monk, a Strigoi
    token by its Strigoi and bonus, a wound by its effect, a reward by what it gives."""
    if token is None:
        return "?"
    for colour in ("red", "grey"):
        for found in getattr(catalog.encounter_tokens, colour):
            if found.id == token:
                if found.kind == "monk":
                    return tr("{colour} monk").format(colour=tr(STACK_NAMES[colour]))
                text = tr("{colour} monster, strength {strength}").format(
                    colour=tr(STACK_NAMES[colour]), strength=found.strength
                )
                if found.rewards:
                    text += " (" + ", ".join(tr(REWARD_NAMES[r]) for r in found.rewards) + ")"
                return text
    for strigoi_token in catalog.strigoi_tokens:
        if strigoi_token.id == token:
            name = STRIGOI_TOKEN_NAMES.get(strigoi_token.strigoi)
            text = (
                tr(name)
                if name
                else tr("{strigoi} token").format(strigoi=strigoi_label(strigoi_token.strigoi))
            )
            return text + (f" +{strigoi_token.bonus}" if strigoi_token.bonus else "")
    for wound in catalog.wound_tokens:
        if wound.id == token:
            return tr(WOUND_NAMES[wound.effect]).format(
                penalty=wound.penalty, ability=ability_name(wound.ability or "")
            )
    return item_name(catalog, token)


#: a monster token as a sentence names it, with its indefinite article, one message per colour
#: (the adjective agrees: "ein rotes Monster der Stärke 2", "un monstre gris de force 4")
MONSTER_PHRASES = {
    "red": N_("a red monster of strength {strength}"),
    "grey": N_("a grey monster of strength {strength}"),
}


#: a monk token as a sentence names it (the subject of "The drawn token is …")
MONK_PHRASES = {"red": N_("a red monk"), "grey": N_("a grey monk")}


def _encounter_token(catalog: Catalog, token: str) -> tuple[str, EncounterToken] | None:
    for colour in ("red", "grey"):
        for found in getattr(catalog.encounter_tokens, colour):
            if found.id == token:
                return colour, found
    return None


def token_phrase(catalog: Catalog, token: str | None) -> str:
    """A drawn token as a sentence names it: an encounter token with its article, colour and
    strength ("a red monster of strength 2"; its rewards are `monster_gives`), any other token
    by its printed name (`token_name`)."""
    found = _encounter_token(catalog, token) if token is not None else None
    if found is None:
        return token_name(catalog, token)
    colour, encounter = found
    if encounter.kind == "monk":
        return tr(MONK_PHRASES[colour])
    return tr(MONSTER_PHRASES[colour]).format(strength=encounter.strength)


def monster_gives(catalog: Catalog, token: str | None) -> str:
    """What a monster token's printed icons give when it is beaten, one sentence ("Beaten, it
    gives a reward card and blood."), or "" when it gives nothing."""
    found = _encounter_token(catalog, token) if token is not None else None
    if found is None or not found[1].rewards:
        return ""
    names = [tr(REWARD_NAMES[r]) for r in found[1].rewards]
    if len(names) > 1:
        names = [tr("{heroes} and {last}").format(heroes=", ".join(names[:-1]), last=names[-1])]
    return tr("Beaten, it gives {rewards}.").format(rewards=names[0])


def space_name(fortress: Fortress | None, cell: Cell | list[int] | None) -> str:
    """A space as players point at it: a ladder by its hero, stairs or a platform centre by
    their room, any other space by its room."""
    if cell is None:
        return tr("off the board")
    where = (int(cell[0]), int(cell[1]))
    if fortress is None:
        return tr("a space")
    ladder = fortress.ladder_by_cell.get(where)
    if ladder is not None:
        owner = LADDER_OWNERS.get(ladder)
        if owner is None:
            return tr("a ladder (space)")
        return tr("the ladder of {hero}").format(hero=hero_name(owner))
    room = fortress.room_at(where)
    if room is None:
        return tr("a space")
    if where == fortress.centre(room):
        return tr("the centre of the {room}").format(room=room_name(room))
    if fortress.tile_features.get(where) == "stairs":
        return tr("the stairs in the {room}").format(room=room_name(room))
    return tr("a space in the {room}").format(room=room_name(room))


def where_hero_stands(fortress: Fortress | None, hero: str, cell: Cell | list[int] | None) -> str:
    """Where a hero (by name) stands, a sentence per kind of space (German wants "auf einem
    Feld", not space_name's "ein Feld"): the ladder by its hero, the centre, stairs, a space."""
    where = None if cell is None else (int(cell[0]), int(cell[1]))
    if where is None or fortress is None:
        return tr("{hero} is off the board.").format(hero=hero)
    ladder = fortress.ladder_by_cell.get(where)
    if ladder is not None:
        owner = LADDER_OWNERS.get(ladder)
        if owner is None:
            return tr("{hero} stands on a ladder.").format(hero=hero)
        if hero_name(owner) == hero:  # never "Roel stands on the ladder of Roel"
            return tr("{hero} stands on their own ladder.").format(hero=hero)
        return tr("{hero} stands on the ladder of {owner}.").format(
            hero=hero, owner=hero_name(owner)
        )
    room = fortress.room_at(where)
    if room is None:
        return tr("{hero} is off the board.").format(hero=hero)
    if where == fortress.centre(room):
        message = N_("{hero} stands on the centre of the {room}.")
    elif fortress.tile_features.get(where) == "stairs":
        message = N_("{hero} stands on the stairs in the {room}.")
    else:
        message = N_("{hero} stands on a space in the {room}.")
    return tr(message).format(hero=hero, room=room_name(room))


def source_name(catalog: Catalog, source: str) -> str:
    """Where an ability comes from: the played card's icon, a card or a reward."""
    return tr("the played card") if source == "card" else item_name(catalog, source)


def full_stop(text: str) -> str:
    """The text ended as a sentence (a full stop unless it ends in one already)."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def strigoi_label(strigoi: str) -> str:
    """Master, Apprentice or Supreme Strigoi in the players' language (a title, a label)."""
    return strigoi_name(strigoi, tr)


def strigoi_subject(strigoi: str) -> str:
    """The Strigoi as a sentence names it, with its article ("der Lehrling", "l'Apprendista")."""
    return the_strigoi(strigoi, tr)


#: ladder id -> the hero who placed it (the game's seats): ladders are named by their hero
LADDER_OWNERS: dict[str, str] = {}


def set_ladder_owners(seats: Sequence[Sequence[str]]) -> None:
    """The game's seats (hero, ladder id): from now on ladders are named by their hero."""
    LADDER_OWNERS.clear()
    LADDER_OWNERS.update({ladder: hero for hero, ladder in seats})


def ladder_name(ladder: str) -> str:
    owner = LADDER_OWNERS.get(ladder)
    if owner is None:
        return tr("a ladder")
    return tr("{hero}'s ladder").format(hero=hero_name(owner))


def table_name(key: str, value: Fact) -> Fact:
    """How the table names an engine fact: rooms by their names, ladders by their heroes,
    directions in words, in the players' language (explain.Namer)."""
    if key in ROOM_FACTS and isinstance(value, str):
        return room_name(value)
    if key == "ladder" and isinstance(value, str):
        return ladder_name(value)
    if key == "direction" and isinstance(value, int) and not isinstance(value, bool):
        return direction_name(value)
    return value


# ----- the table: rooms, directions, figures, what to do, what differs --------------------------
#: Rooms by their compass position (the default fortress's ids); other ids stay as they are.
ROOM_NAMES = {
    "C": N_("centre room"),
    "N": N_("north room"),
    "NE": N_("north-east room"),
    "E": N_("east room"),
    "SE": N_("south-east room"),
    "S": N_("south room"),
    "SW": N_("south-west room"),
    "W": N_("west room"),
    "NW": N_("north-west room"),
}


#: The six directions of BOARD-FORMAT.md (0 = east, counter-clockwise).
DIRECTION_NAMES = (
    N_("east"),
    N_("north-east"),
    N_("north-west"),
    N_("west"),
    N_("south-west"),
    N_("south-east"),
)


def room_name(room: str) -> str:
    return tr(ROOM_NAMES[room]) if room in ROOM_NAMES else room


def direction_name(direction: int) -> str:
    return tr(DIRECTION_NAMES[direction % 6])


def figure_label(figure: str | None) -> str:
    """A figure on the table: a hero by name, a Strigoi figure as the rulebook names it."""
    if figure is None:
        return tr("nobody")
    return (
        strigoi_label(figure)
        if figure in ("master", "apprentice", "supreme")
        else hero_name(figure)
    )


def first_book(fortress: Fortress, room: str) -> str:
    """The letter of the room's platform's first book (books[0]): the mark a turn is told by."""
    platform = fortress.platforms.get(room)
    return platform.books[0] if platform is not None else "?"


def platform_home(fortress: Fortress, platform: str | None) -> str:
    """A platform named by the room it lies in at setup ("the platform of the north-east
    room"), never by its id."""
    room = next((r.id for r in fortress.rooms.values() if r.platform == platform), None)
    return room_name(room) if room is not None else tr("an unknown platform")
