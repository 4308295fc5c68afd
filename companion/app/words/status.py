"""The status texts: why a command is refused (the engine's reasons), what the game waits for,
who is still choosing, and why and how a game ended."""
from __future__ import annotations

from collections.abc import Sequence

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.words.i18n import N_, capital_first, ngettext, ntr, tr
from companion.app.words.names import (
    LADDER_OWNERS,
    STACK_NAMES,
    strigoi_subject,
    table_name,
    token_phrase,
)
from companion.app.words.wording import waiting_sentence
from companion.engine.components import Catalog
from companion.engine.explain import (
    Reason,
    hero_name,
)
from companion.engine.game.kinds import TaskKind
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task

#: engine reasons naming a hero and a ladder, when the ladder is that hero's own (R-TEL-4)
OWN_LADDER: dict[str, str] = {
    "ladder_occupied": N_(
        "{hero} was on their own ladder: the pack loses 1 blood point and {hero} goes "
        "to another ladder or stairs of the player's choice"
    ),
    "ladder_guarded": N_(
        "{hero} stands between {strigoi} and their own ladder and is attacked instead"
    ),
}


def render(reason: Reason) -> str:
    """An engine reason in the players' language, with rooms and ladders as the table names
    them."""
    facts = reason.facts
    hero = facts.get("hero")
    own = OWN_LADDER.get(reason.code)
    if own and isinstance(hero, str) and LADDER_OWNERS.get(str(facts.get("ladder"))) == hero:
        # R-TEL-4 on the hero's own ladder: a possessive, never "Roel was on Roel's ladder"
        def translate_own(message: str) -> str:
            return tr(own) if "{ladder}" in message else tr(message)

        return reason.text(translate_own, table_name, ngettext)
    return reason.text(tr, table_name, ngettext)


#: why a game ended, as the game-over screen and the voice say it: the engine's reason (an
#: English phrase kept in the log) to a whole sentence per language
GAME_OVER_SENTENCES = {
    "the Inferno is full": N_("The Inferno is full."),
    "the Supreme Strigoi is destroyed": N_("The Supreme Strigoi is destroyed."),
}


def game_over_reason(reason: str) -> str:
    """The engine's game-over reason as a sentence in the players' language."""
    sentence = GAME_OVER_SENTENCES.get(reason)
    if sentence is not None:
        return tr(sentence)
    return capital_first(tr(reason))


def defeated_times(count: int) -> str:
    """How often a hero was defeated, with a wording for never (no "0 times")."""
    if count == 0:
        return tr("never defeated")
    return ntr("defeated {count} time", "defeated {count} times", count).format(count=count)


def game_over_summary(
    rounds: int,
    altar: int,
    inferno: int,
    heroes: Sequence[tuple[str, int, int, int]],
    strigoi: Sequence[tuple[str, int, bool]],
) -> list[str]:
    """The game-over screen's summary, a line of whole sentences each: the rounds and blood
    points, then each hero (wounds, defeats, rewards) and each Strigoi (`heroes`: hero id,
    wounds, defeats, rewards; `strigoi`: id, wounds, destroyed). Never "Matthew: 0 wounds, une
    défaite, 0 rewards" (a "défaite" read as the player's own defeat)."""
    lines = [
        " ".join(
            [
                ngettext(
                    "The game lasted {count} round.", "The game lasted {count} rounds.", rounds
                ).format(count=rounds),
                ngettext(
                    "The Altar holds {count} blood point.",
                    "The Altar holds {count} blood points.",
                    altar,
                ).format(count=altar),
                ngettext(
                    "The Inferno holds {count} blood point.",
                    "The Inferno holds {count} blood points.",
                    inferno,
                ).format(count=inferno),
            ]
        )
    ]
    for hero, wounds, defeated, rewards in heroes:
        name = hero_name(hero)
        said = [
            ngettext("{hero} has {count} wound.", "{hero} has {count} wounds.", wounds).format(
                hero=name, count=wounds
            )
            if wounds
            else tr("{hero} has no wounds.").format(hero=name),
            ngettext(
                "{hero} was defeated once.", "{hero} was defeated {count} times.", defeated
            ).format(hero=name, count=defeated)
            if defeated
            else tr("{hero} was never defeated.").format(hero=name),
            ngettext("{hero} won {count} reward.", "{hero} won {count} rewards.", rewards).format(
                hero=name, count=rewards
            )
            if rewards
            else tr("{hero} won no rewards.").format(hero=name),
        ]
        lines.append(" ".join(said))
    for name, wounds, destroyed in strigoi:
        subject = strigoi_subject(name)
        said = [
            capital_first(
                ngettext(
                    "{strigoi} has {count} wound.", "{strigoi} has {count} wounds.", wounds
                ).format(strigoi=subject, count=wounds)
                if wounds
                else tr("{strigoi} has no wounds.").format(strigoi=subject)
            )
        ]
        if destroyed:
            said.append(capital_first(tr("{strigoi} is destroyed.").format(strigoi=subject)))
        lines.append(" ".join(said))
    return lines


def still_choosing(state: GameState) -> str:
    """R-RND-1 once some have chosen: who still chooses, by name ("Waiting for Roel to choose
    a card.", "Waiting for Roel and Matthew to choose their cards."); "" while nobody has."""
    still = [hero_name(x.hero) for x in state.heroes if x.chosen is None]
    if not still or len(still) == len(state.heroes):
        return ""
    heroes = still[0]
    if len(still) > 1:
        heroes = tr("{heroes} and {last}").format(heroes=", ".join(still[:-1]), last=still[-1])
    return ntr(
        "Waiting for {heroes} to choose a card.",
        "Waiting for {heroes} to choose their cards.",
        len(still),
    ).format(heroes=heroes)


def waiting_label(
    task: Task | None, catalog: Catalog | None = None, state: GameState | None = None
) -> str:
    """What the game waits for, as one whole sentence in the players' language ("Waiting for
    Roel to move."), tokens and stacks by their names: a monster as a sentence names it
    ("Waiting for Roel to fight a red monster of strength 3."); with the `state`, the heroes
    who still choose a card by name."""
    if task is not None and task.kind == TaskKind.CHOOSE and state is not None:
        named = still_choosing(state)
        if named:
            return named
    if catalog is None:
        return waiting_sentence(task, tr, plural=ngettext)
    return waiting_sentence(
        task,
        tr,
        token=lambda token: token_phrase(catalog, token),
        stack=lambda stack: tr(STACK_NAMES.get(stack, stack)),
        plural=ngettext,
    )
