"""What a command button says. Whole sentences are translated as templates; hero, card and room
names stay as printed; the Strigoi are named as each language's rulebook names them."""

from __future__ import annotations

import msgspec

from companion.engine.components import Catalog
from companion.engine.explain import Reason, hero_name, strigoi_name
from companion.engine.game import commands as c
from companion.engine.game.flow import describe
from companion.engine.game.state import Task
from ui.i18n import N_, tr

MODES = {"normal": N_("normal"), "wild": N_("wild")}
ATTACKS = {"melee": N_("melee"), "ranged": N_("ranged")}
PHASES = {
    "initiative": N_("initiative"),
    "turns": N_("turns"),
    "curse": N_("curse"),
    "over": N_("game over"),
}


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
        gives += [a.replace("_", " ").capitalize() for a in token.abilities]
        return tr("token {gives}").format(gives=" ".join(gives))
    if catalog.is_action_card(source):
        return catalog.card(source).title
    return item


def command_label(command: c.Command, catalog: Catalog) -> str:
    """The button's text, cards and tokens by name (the catalog's) instead of id."""
    data = msgspec.to_builtins(command)
    kind = data.pop("do")
    hero = hero_name(data.pop("hero", ""))

    def named(items: list[str]) -> str:
        return ", ".join(item_name(catalog, x) for x in items)

    match command:
        case c.ChooseCard(card=card):
            return tr("{hero}: play {card}").format(hero=hero, card=item_name(catalog, card))
        case c.Stay():
            return tr("{hero}: stay").format(hero=hero)
        case c.Move(to=to, stealth=True):
            return tr("{hero}: move to {cell} with Stealth").format(hero=hero, cell=list(to))
        case c.Move(to=to):
            return tr("{hero}: move to {cell}").format(hero=hero, cell=list(to))
        case c.Draw():
            return tr("{hero}: draw a token").format(hero=hero)
        case c.SkipFight():
            return tr("{hero}: no fight").format(hero=hero)
        case c.Protect(sources=[]):
            return tr("{hero}: take the wounds").format(hero=hero)
        case c.Protect(sources=sources):
            return tr("{hero}: block with {sources}").format(hero=hero, sources=named(sources))
        case c.UseMechanics(room=room, rotation=rotation):
            return tr("{hero}: turn {room} to position {rotation}").format(
                hero=hero, room=room, rotation=rotation
            )
        case c.Fight(rewards=[]):
            return tr("{hero}: fight").format(hero=hero)
        case c.Fight(rewards=rewards):
            plays = named([f"{r.item}:{r.mode}" for r in rewards])
            return tr("{hero}: fight with {rewards}").format(hero=hero, rewards=plays)
        case c.AttackStrigoi(strigoi=strigoi, mode=mode, rewards=rewards):
            text = tr("{hero}: attack {strigoi} ({mode})").format(
                hero=hero, strigoi=strigoi_label(strigoi), mode=tr(ATTACKS.get(mode, mode))
            )
            if rewards:
                plays = named([f"{r.item}:{r.mode}" for r in rewards])
                text += " " + tr("with {rewards}").format(rewards=plays)
            return text
    details = ", ".join(f"{k} {v}" for k, v in data.items() if v not in (None, [], False))
    return f"{hero}: {kind.replace('_', ' ')}" + (f" ({details})" if details else "")


def group_label(key: tuple[str, ...]) -> str:
    """The button that opens a group of commands (ui/option_groups.py)."""
    if key[0] == "choose":
        return tr("{hero}: pick a card (only you look)").format(hero=hero_name(key[1]))
    if key[0] == "mechanics":
        return tr("{hero}: Mechanics, turn the platform of {room}").format(
            hero=hero_name(key[1]), room=key[2]
        )
    if key[0] == "leap":
        return tr("{hero}: Leap to a space of this room").format(hero=hero_name(key[1]))
    if key[0] == "pack":
        return tr("{hero}: Pack, jump to a comrade's room").format(hero=hero_name(key[1]))
    return " ".join(key)


def strigoi_label(strigoi: str) -> str:
    """Master, Apprentice or Supreme Strigoi in the players' language."""
    return strigoi_name(strigoi, tr)


def render(reason: Reason) -> str:
    """An engine reason in the players' language."""
    return reason.text(tr)


def waiting_label(task: Task | None) -> str:
    if task is None:
        return tr("nothing (game over)")
    return describe(task, tr)
