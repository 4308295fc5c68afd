"""What a seat's phone says its player must do now (issue 41, item 4): the phase and the step in
one sentence ("Round 2: choose your card now.", "Your turn: move.", "Waiting for Roel and
Charles to choose their cards."), whether it is this player's turn (the page buzzes), the turn
order with the figure on the move marked, and the private decisions (blocking wounds with one's
own Protection, a discard for Shock) as options carrying the engine's own legal commands.

Pure functions of the session and the table's language (`companion.app.words.i18n`), built on the
service's thread like every other view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from companion.app.session.game import GameSession
from companion.app.web.tracker_view import TRACKER_WORDS, tracker_view
from companion.app.words.command_labels import command_label
from companion.app.words.i18n import N_, ngettext, tr
from companion.app.words.names import STACK_NAMES, token_phrase
from companion.app.words.status import waiting_label
from companion.app.words.wording import describe
from companion.engine.components import Catalog
from companion.engine.explain import Np_
from companion.engine.game import commands as c
from companion.engine.game.kinds import Phase, TaskKind
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task

JSON = dict[str, Any]

#: decisions that show one's hand or tokens: made on the player's own phone when it follows the
#: seat (the touchscreen then only says that the player decides)
PRIVATE_TASKS = frozenset({TaskKind.PROTECT, TaskKind.SHOCK})

#: the step as its own player reads it (same placeholders as wording.WAITING_TEXTS)
YOUR_TEXTS = {
    TaskKind.MOVE: N_("Your turn: move."),
    TaskKind.ENCOUNTER: N_("Your turn: draw a {stack} encounter token."),
    TaskKind.STEALTH_CHOICE: N_("Your turn: fight or leave {token}."),
    TaskKind.MONK: N_("Your turn: free or attack the monk."),
    TaskKind.FIGHT: N_("Your turn: fight {token}."),
    TaskKind.FIGHT_CHOICE: N_("Your turn: attack a Strigoi or skip the fight."),
    TaskKind.ABILITIES: N_("Your turn: use an ability or go on."),
    TaskKind.WOUND_DRAW: N_("Draw a wound token and enter it on the touchscreen."),
    TaskKind.SHOCK: N_("Shock: discard a card from your hand, or block it with Protection."),
    TaskKind.COUNTERATTACK: N_("Counterattack {strigoi} or not: decide on the touchscreen."),
    TaskKind.RELOCATE: N_("Move your hero to a ladder or stairs."),
    TaskKind.MARKER: N_("Take a fight marker from the board."),
    TaskKind.ESCAPE: N_("Leap or fall with the platform."),
    TaskKind.REWARD_DRAW: N_("Draw a {stack} and enter it on the touchscreen."),
}
YOUR_COUNTED = {
    TaskKind.PROTECT: Np_(
        "You take {wounds} wound: choose what blocks it, or take it.",
        "You take {wounds} wounds: choose what blocks them, or take them.",
    ),
    TaskKind.WOUNDS: Np_(
        "You draw {wounds} wound token.",
        "You draw {wounds} wound tokens.",
    ),
}
GUIDE_WORDS = {
    "choose_now": N_("Round {round}: choose your card now."),
    "chosen": N_("You chose {card}."),
    "may_change": N_("You may choose another until everyone has chosen."),
    "change": N_("Choose this one instead"),
    "chosen_mark": N_("Chosen for this round"),
    "decide": N_("Your decision"),
}


#: the messages only this seat's player reads, on their own phone: they address one player
#: ("du", "tu"), where the touchscreen's address the group
ONE_PLAYER: frozenset[str] = frozenset(
    [
        *YOUR_TEXTS.values(),
        *(text for pair in YOUR_COUNTED.values() for text in pair),
        *GUIDE_WORDS.values(),
    ]
)


def guide_word(key: str) -> str:
    return tr(GUIDE_WORDS[key])


@dataclass(frozen=True)
class Option:
    """One private decision's choice: its words and the command it sends, as an opaque key
    (the command's JSON: the server plays it only while it is still legal for this seat)."""

    key: str
    label: str


def option_key(command: c.Command) -> str:
    return msgspec.json.encode(command).decode()


def private_options(session: GameSession, hero: str) -> list[Option]:
    """`hero`'s private decision now (Protection, Shock), as options; [] when the game waits
    for something else."""
    task = session.waiting_for
    if task is None or task.kind not in PRIVATE_TASKS or task.hero != hero:
        return []
    catalog = session.rules.catalog
    fortress = session.rules.fortress
    return [
        Option(option_key(x), command_label(x, catalog, fortress))
        for x in session.legal_commands()
        if getattr(x, "hero", None) == hero
    ]


def legal_option(session: GameSession, hero: str, key: str) -> c.Command | None:
    """The legal command behind `key` for `hero`'s seat now: a private decision's, or a card
    choice; None when it is not (or no longer) legal."""
    for command in session.legal_commands():
        if getattr(command, "hero", None) != hero:
            continue
        private = isinstance(command, c.ChooseCard) or (
            session.waiting_for is not None and session.waiting_for.kind in PRIVATE_TASKS
        )
        if private and option_key(command) == key:
            return command
    return None


def prompt(session: GameSession, hero: str) -> tuple[str, str, bool]:
    """What this player must do now: a headline, a quieter line below it (or ""), and whether
    it is theirs to do. Who else still chooses stands in the turn order."""
    state: GameState = session.state
    catalog = session.rules.catalog
    task = session.waiting_for
    if state.phase == Phase.OVER or task is None:
        return waiting_label(None), "", False
    if task.kind == TaskKind.CHOOSE:
        mine = state.hero(hero)
        if mine.chosen is None:
            return guide_word("choose_now").format(round=state.round), "", True
        chosen = guide_word("chosen").format(card=catalog.card(mine.chosen).title)
        return chosen, guide_word("may_change"), False
    if task.hero == hero and task.kind in YOUR_TEXTS.keys() | YOUR_COUNTED.keys():
        return your_sentence(task, catalog), "", True
    return waiting_label(task, catalog, state), "", False


def your_sentence(task: Task, catalog: Catalog) -> str:
    return describe(
        task,
        tr,
        token=lambda token: token_phrase(catalog, token),
        stack=lambda stack: tr(STACK_NAMES.get(stack, stack)),
        templates=YOUR_TEXTS,
        plural=ngettext,
        counted_templates=YOUR_COUNTED,
    )


def turn_order(session: GameSession, hero: str) -> list[JSON]:
    """The turn tracker's rows (`tracker_view`: the heroes in turn order, seat order before the
    reveal, then the Strigoi), this seat's own row marked `me`."""
    rows = tracker_view(session)["rows"]
    return [
        {**row, "active": row["marked"], "me": row["id"] == hero}
        for row in rows
        if row["id"] != "strigoi"  # the Strigoi's turn shows in the tracker strip above
    ]


def guide_view(session: GameSession, hero: str) -> JSON:
    """The seat page's guide: the prompt, whether it is this player's turn, the turn order, the
    private decision's options, and the page's words for them."""
    said, detail, yours = prompt(session, hero)
    return {
        "prompt": said,
        "detail": detail,
        "your_turn": yours,
        "order": turn_order(session, hero),
        "decision": [{"key": o.key, "label": o.label} for o in private_options(session, hero)],
        "guide_words": {
            key: tr(text) for key, text in (GUIDE_WORDS | TRACKER_WORDS).items()
        },
    }


__all__ = [
    "GUIDE_WORDS",
    "ONE_PLAYER",
    "PRIVATE_TASKS",
    "Option",
    "guide_view",
    "legal_option",
    "option_key",
    "private_options",
    "prompt",
    "turn_order",
]
