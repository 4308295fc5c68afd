"""What Undo and Redo take back or bring again, one sentence per kind of command (a card
chosen in secret is never named, R-RND-1)."""
from __future__ import annotations

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.words.i18n import N_, capital_first, tr
from companion.app.words.names import item_name, room_name, space_name, strigoi_subject, token_name
from companion.engine.components import Catalog
from companion.engine.explain import (
    hero_name,
)
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c

#: Undo and Redo say what they take back or bring again, one sentence per kind of command
#: (issue 29: never "Undo: Attila: move: …"): (undo, redo, what the voice says once undone);
#: placeholders {hero}, {space},
#: {card}, {token}, {other}, {strigoi} (with its article), {room}. A card chosen in secret is
#: never named (R-RND-1). Corrections share one pair: the step is the correction itself.
UNDO_TEXTS: dict[str, tuple[str, str, str]] = {
    "choose_card": (
        N_("Undo {hero}'s card choice"),
        N_("Redo {hero}'s card choice"),
        N_("{hero}'s card choice is undone."),
    ),
    "move": (
        N_("Undo {hero}'s move to {space}"),
        N_("Redo {hero}'s move to {space}"),
        N_("{hero}'s move to {space} is undone."),
    ),
    "stay": (
        N_("Undo {hero}'s choice to stay"),
        N_("Redo {hero}'s choice to stay"),
        N_("{hero}'s choice to stay is undone."),
    ),
    "draw": (
        N_("Undo {hero}'s token draw"),
        N_("Redo {hero}'s token draw"),
        N_("{hero}'s token draw is undone."),
    ),
    "enter_draw": (
        N_("Undo the {token} that {hero} drew"),
        N_("Redo the {token} that {hero} drew"),
        N_("The {token} that {hero} drew is undone."),
    ),
    "fight": (
        N_("Undo {hero}'s fight"),
        N_("Redo {hero}'s fight"),
        N_("{hero}'s fight is undone."),
    ),
    "proceed": (
        N_("Undo {hero}'s choice to go on"),
        N_("Redo {hero}'s choice to go on"),
        N_("{hero}'s choice to go on is undone."),
    ),
    "leave_monster": (
        N_("Undo {hero}'s choice to leave the monster"),
        N_("Redo {hero}'s choice to leave the monster"),
        N_("{hero}'s choice to leave the monster is undone."),
    ),
    "free_monk": (
        N_("Undo {hero}'s freeing of the monk"),
        N_("Redo {hero}'s freeing of the monk"),
        N_("{hero}'s freeing of the monk is undone."),
    ),
    "attack_monk": (
        N_("Undo {hero}'s attack on the monk"),
        N_("Redo {hero}'s attack on the monk"),
        N_("{hero}'s attack on the monk is undone."),
    ),
    "attack_strigoi": (
        N_("Undo {hero}'s attack on {strigoi}"),
        N_("Redo {hero}'s attack on {strigoi}"),
        N_("{hero}'s attack on {strigoi} is undone."),
    ),
    "skip_fight": (
        N_("Undo {hero}'s choice not to fight"),
        N_("Redo {hero}'s choice not to fight"),
        N_("{hero}'s choice not to fight is undone."),
    ),
    "protect": (
        N_("Undo {hero}'s protection"),
        N_("Redo {hero}'s protection"),
        N_("{hero}'s protection is undone."),
    ),
    "take_wounds": (
        N_("Undo the wounds {hero} took"),
        N_("Redo the wounds {hero} took"),
        N_("The wounds {hero} took are undone."),
    ),
    "discard_for_shock": (
        N_("Undo {hero}'s discard of {card}"),
        N_("Redo {hero}'s discard of {card}"),
        N_("{hero}'s discard of {card} is undone."),
    ),
    "relocate": (
        N_("Undo {hero}'s move to {space}"),
        N_("Redo {hero}'s move to {space}"),
        N_("{hero}'s move to {space} is undone."),
    ),
    "place_fight_marker": (
        N_("Undo {hero}'s fight marker move"),
        N_("Redo {hero}'s fight marker move"),
        N_("{hero}'s fight marker move is undone."),
    ),
    "leap": (
        N_("Undo {hero}'s Leap to {space}"),
        N_("Redo {hero}'s Leap to {space}"),
        N_("{hero}'s Leap to {space} is undone."),
    ),
    "fall": (
        N_("Undo {hero}'s fall with the platform"),
        N_("Redo {hero}'s fall with the platform"),
        N_("{hero}'s fall with the platform is undone."),
    ),
    "use_mechanics": (
        N_("Undo {hero}'s turn of the platform in the {room}"),
        N_("Redo {hero}'s turn of the platform in the {room}"),
        N_("{hero}'s turn of the platform in the {room} is undone."),
    ),
    "use_heal": (
        N_("Undo {hero}'s Heal"),
        N_("Redo {hero}'s Heal"),
        N_("{hero}'s Heal is undone."),
    ),
    "use_recovery": (
        N_("Undo {hero}'s Recovery"),
        N_("Redo {hero}'s Recovery"),
        N_("{hero}'s Recovery is undone."),
    ),
    "use_gates_of_hell": (
        N_("Undo {hero}'s Gates of Hell"),
        N_("Redo {hero}'s Gates of Hell"),
        N_("{hero}'s Gates of Hell are undone."),
    ),
    "use_retrieval": (
        N_("Undo {hero}'s Retrieval of {card}"),
        N_("Redo {hero}'s Retrieval of {card}"),
        N_("{hero}'s Retrieval of {card} is undone."),
    ),
    "use_pack": (
        N_("Undo {hero}'s Pack jump to {space}"),
        N_("Redo {hero}'s Pack jump to {space}"),
        N_("{hero}'s Pack jump to {space} is undone."),
    ),
    "swap_rewards": (
        N_("Undo {hero}'s swap with {other}"),
        N_("Redo {hero}'s swap with {other}"),
        N_("{hero}'s swap with {other} is undone."),
    ),
    "rebel_draw": (
        N_("Undo {hero}'s Nighttime Rebel draw"),
        N_("Redo {hero}'s Nighttime Rebel draw"),
        N_("{hero}'s Nighttime Rebel draw is undone."),
    ),
    "correction": (
        N_("Undo the correction"),
        N_("Redo the correction"),
        N_("The correction is undone."),
    ),
}


def _undo_text(command: c.Command, catalog: Catalog, fortress: Fortress | None, form: int) -> str:
    """The command's UNDO_TEXTS sentence of `form` (0 undo, 1 redo, 2 undone), filled in. A card
    choice's sentence names no card in any form (R-RND-1)."""
    tag = type(command).__struct_config__.tag
    kind = str(tag) if isinstance(tag, str) else ""
    if kind == "use_leap":
        kind = "leap"
    elif kind == "protect" and not getattr(command, "sources", None):
        kind = "take_wounds"
    elif kind.startswith(("set_", "add_", "remove_")):
        kind = "correction"
    forms = UNDO_TEXTS.get(kind, UNDO_TEXTS["correction"])
    hero = getattr(command, "hero", "") or ""
    cell = getattr(command, "to", None)
    token = getattr(command, "token", None)
    card = getattr(command, "card", None)
    strigoi = getattr(command, "strigoi", None)
    other = getattr(command, "other", None)
    room = getattr(command, "room", None)
    return capital_first(
        tr(forms[form]).format(
            hero=hero_name(hero),
            space=space_name(fortress, cell) if isinstance(cell, tuple | list) else "",
            token=token_name(catalog, token) if isinstance(token, str) else "",
            card=item_name(catalog, card) if isinstance(card, str) else "",
            strigoi=strigoi_subject(strigoi) if isinstance(strigoi, str) else "",
            other=hero_name(other) if isinstance(other, str) else "",
            room=room_name(room) if isinstance(room, str) else "",
        )
    )


def undo_label(
    command: c.Command, catalog: Catalog, fortress: Fortress | None, redo: bool = False
) -> str:
    """What Undo (or Redo) says it takes back (or brings again), one sentence: "Undo Attila's
    move to the stairs in the north room"; a card chosen is never named (R-RND-1)."""
    return _undo_text(command, catalog, fortress, 1 if redo else 0)


def undone_sentence(command: c.Command, catalog: Catalog, fortress: Fortress | None) -> str:
    """What the voice says once Undo took `command` back: "Attila's move to … is undone."."""
    return _undo_text(command, catalog, fortress, 2)
