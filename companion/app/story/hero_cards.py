"""The heroes' cards: a fight and what it gains, a monk, wounds and their effects, what a
hero holds, a reward."""

from __future__ import annotations

from collections.abc import Sequence

from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import Card, Figure, as_int, as_list, may_protect, sentence
from companion.app.words.i18n import N_, ngettext, tr
from companion.app.words.names import (
    ability_name,
    item_name,
    monster_gives,
    reward_use,
    token_phrase,
)
from companion.engine.components import Catalog
from companion.engine.explain import hero_name
from companion.engine.fortress import Fortress


def _gains(catalog: Catalog, fortress: Fortress | None, facts: dict[str, object]) -> list[str]:
    """What the table changes after a fight or a monk: blood, rewards, the fight marker."""
    hero = hero_name(str(facts.get("hero", "")))
    todo: list[str] = []
    blood = as_int(facts.get("blood"))
    if blood:
        todo.append(
            ngettext(
                "Move {count} blood point to the Altar.",
                "Move {count} blood points to the Altar.",
                blood,
            ).format(count=blood)
        )
    for item in as_list(facts.get("rewards")):
        took = tr("{hero} takes {item}.").format(hero=hero, item=item_name(catalog, str(item)))
        todo.append(f"{took} {reward_use(catalog, str(item))}".strip())  # what "+1" does
    for stack in as_list(facts.get("to_draw")):
        draws = (
            tr("{hero} draws a reward card: the app asks which.")
            if stack == "reward_card"
            else tr("{hero} draws a reward token: the app asks which.")
        )
        todo.append(draws.format(hero=hero))
    for card in as_list(facts.get("advanced")):
        todo.append(
            tr("{hero} earns {card} (joins the hand at the end of the turn).").format(
                hero=hero, card=item_name(catalog, str(card))
            )
        )
    if facts.get("hand_back"):
        todo.append(tr("{hero} takes the discard pile back into the hand.").format(hero=hero))
    marker = facts.get("marker")
    if isinstance(marker, list) and len(marker) == 2:
        # R-ENC-4: on the space the hero fought on, ringed on the board (story/card scene)
        todo.append(
            tr(
                "Put a fight marker on {hero}'s space: no encounter there until it is taken."
            ).format(hero=hero)
        )
    elif facts.get("marker_to_choose"):
        todo.append(tr("All six fight markers are out: the app asks which one moves."))
    icon = as_int(facts.get("icon_wounds"))
    if icon:
        todo.append(
            ngettext(
                "The wound icon: {hero} takes {count} wound, no protection.",
                "The wound icon: {hero} takes {count} wounds, no protection.",
                icon,
            ).format(hero=hero, count=icon)
        )
    return todo


def fight_card(catalog: Catalog, fortress: Fortress | None, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    token = str(facts.get("token", ""))
    monster = token_phrase(catalog, token)  # "a red monster of strength 2", with its article
    won = bool(facts.get("won"))
    strength, against = facts.get("strength"), facts.get("monster")
    headline = sentence(
        (tr("{hero} wins the fight") if won else tr("{hero} loses the fight")).format(hero=hero)
    )
    figures: list[Figure] = []
    if isinstance(strength, int):
        figures.append(
            Figure(
                tr("{hero} has strength {strength}; the monster has {monster}.").format(
                    hero=hero, strength=strength, monster=against
                )
            )
        )
    else:
        figures.append(Figure(tr("The monster has strength {monster}.").format(monster=against)))
    todo: list[str] = []
    if won:
        words = tr("{hero} wins the fight against {monster}.").format(hero=hero, monster=monster)
    else:
        asked = str(facts.get("hero", "")) in as_list(facts.get("asked"))
        # asked first, then drawn (R-ENC-2): "takes" only when nothing can block the wound
        figures.append(Figure(tr("The monster deals 1 wound, unless blocked.") if asked
                              else _takes(hero, 1)))  # fmt: skip
        words = tr("{hero} loses the fight against {monster}, which deals 1 wound.").format(
            hero=hero, monster=monster
        )
    todo += _gains(catalog, fortress, facts)
    if not won and str(facts.get("hero", "")) in as_list(facts.get("asked")):
        todo.append(may_protect(str(facts.get("hero", ""))))
    return Card(
        tr("Fight"),
        headline,
        tuple(figures),
        " ".join(
            x
            for x in (
                tr("The drawn token is {monster}.").format(monster=monster),
                monster_gives(catalog, token),
            )
            if x
        ),
        tuple(todo),
        (
            tr(
                "The hero wins when the strength is at least the monster's; "
                "a monster deals 1 wound."
            ),
        ),
        ("R-ENC-1", "R-ENC-2", "R-ENC-4"),
        tr("Done"),
        sentence(words),
    )


def monk_card(catalog: Catalog, fortress: Fortress | None, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    if facts.get("freed"):
        headline = tr("{hero} frees the monk").format(hero=hero)
        todo = _gains(catalog, fortress, {**facts, "hand_back": True})
        why = tr("A freed monk gives the whole discard pile back into the hand.")
    else:
        headline = tr("{hero} attacks the monk").format(hero=hero)
        todo = [tr("Flip the top grey monster: {hero} fights it.").format(hero=hero)]
        why = tr("An attacked monk turns into the top grey monster.")
    headline = sentence(headline)
    return Card(
        tr("Monk"), headline, (), "", tuple(todo), (why,), ("R-ENC-3",), tr("Done"), headline
    )


#: what the table does with a drawn wound token, one sentence per effect: the token named once
#: by what it does ("Give Attila a plain wound token."), never "the wound token: wound"
WOUND_GIVES = {
    "plain": N_("Give {hero} a plain wound token."),
    "double": N_("Give {hero} a double wound token."),
    "shock": N_("Give {hero} the shock token."),
    "movement": N_("Give {hero} the wound token that lowers movement by {penalty}."),
    "strength": N_("Give {hero} the wound token that lowers strength by {penalty}."),
    "ability": N_("Give {hero} the wound token that blocks the ability {ability}."),
}


def _give_wound(catalog: Catalog, hero: str, token: str) -> str:
    wound = catalog.wound(token)
    return tr(WOUND_GIVES[wound.effect]).format(
        hero=hero, penalty=wound.penalty, ability=ability_name(wound.ability or "")
    )


def wound_card(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    tokens = [str(t) for t in as_list(facts.get("tokens"))]
    count = len(tokens)
    headline = _takes(hero, count)
    if facts.get("defeated") and as_int(facts.get("due")) > count:  # R-WND-2: capped at 3
        headline = ngettext(
            "{hero} takes {count} wound: a hero holds at most 3.",
            "{hero} takes {count} wounds: a hero holds at most 3.",
            count,
        ).format(hero=hero, count=count)
    todo = [_give_wound(catalog, hero, t) for t in tokens]
    words = " ".join([headline, *wound_effects(catalog, hero, tokens)])
    if facts.get("defeated"):
        todo.append(
            tr(
                "{hero} has 3 wounds: move 1 blood point to the Inferno and put all of "
                "{hero}'s wound tokens back."
            ).format(hero=hero)
        )
        words += " " + tr("{hero} has 3 wounds: the pack loses 1 blood point.").format(hero=hero)
    return Card(
        tr("Wounds"),
        headline,
        (),
        "",
        tuple(todo),
        (
            tr(
                "Each wound is a wound token with its effect; "
                "at 3 wounds the pack loses 1 blood point."
            ),
        ),
        ("R-WND-1", "R-WND-2"),
        tr("Done"),
        words,
    )


def _takes(hero: str, count: int) -> str:
    return ngettext("{hero} takes {count} wound.", "{hero} takes {count} wounds.", count).format(
        hero=hero, count=count
    )


def wound_effects(
    catalog: Catalog, hero: str, tokens: Sequence[str], drawn: bool = True
) -> list[str]:
    """What the wound tokens do, a whole sentence per effect (R-WND-1), counted with real
    plurals; a plain wound does nothing more. Tokens of one effect are said together, once.
    `drawn`: the tokens were just drawn (Shock's discard is said); else the hero holds them
    and only what lasts until healed is said."""
    wounds = [catalog.wound(t) for t in tokens]
    said: list[str] = []
    if any(w.effect == "double" for w in wounds):
        # "takes 1 wound" counts tokens: say which token weighs 2, or a table hears 1 and 2
        # for the same hit (play-test: "takes 1 wound. The double wound counts as 2 wounds.")
        if not drawn:
            said.append(tr("The double wound counts as 2 wounds."))
        elif len(wounds) == 1:
            said.append(tr("It is the double wound: it counts as 2 wounds."))
        else:
            said.append(tr("One of them is the double wound: it counts as 2 wounds."))
    shocks = sum(1 for w in wounds if w.effect == "shock") if drawn else 0
    if shocks:
        said.append(
            ngettext(
                "Shock: {hero} discards {count} card from the hand to the played cards.",
                "Shock: {hero} discards {count} cards from the hand to the played cards.",
                shocks,
            ).format(hero=hero, count=shocks)
        )
    slower = sum(w.penalty for w in wounds if w.effect == "movement")
    if slower:
        said.append(
            ngettext(
                "Until healed, {hero} moves {count} space less.",
                "Until healed, {hero} moves {count} spaces less.",
                slower,
            ).format(hero=hero, count=slower)
        )
    weaker = sum(w.penalty for w in wounds if w.effect == "strength")
    if weaker:
        said.append(
            ngettext(
                "Until healed, {hero} has {count} point less strength.",
                "Until healed, {hero} has {count} points less strength.",
                weaker,
            ).format(hero=hero, count=weaker)
        )
    for ability in dict.fromkeys(w.ability for w in wounds if w.effect == "ability"):
        said.append(
            tr("Until healed, {hero} cannot use {ability}.").format(
                hero=hero, ability=ability_name(ability or "")
            )
        )
    return said


def held_wounds(catalog: Catalog, hero: str, tokens: Sequence[str]) -> str:
    """A hero's wounds as players say them (the phones' hero list): how many, with a real
    plural (a double wound counts 2), then what lasts until healed, a sentence each ("Roel has
    2 wounds. Until healed, Roel cannot use Stealth."); never the tokens' names in a list."""
    name = hero_name(hero)
    count = sum(catalog.wound(t).value for t in tokens)
    if not count:
        return tr("{hero} has no wounds.").format(hero=name)
    said = [
        ngettext("{hero} has {count} wound.", "{hero} has {count} wounds.", count).format(
            hero=name, count=count
        )
    ]
    return " ".join(said + wound_effects(catalog, name, tokens, drawn=False))


def held_rewards(catalog: Catalog, hero: str, cards: Sequence[str], tokens: Sequence[str]) -> str:
    """A hero's reward cards and tokens as players say them (the phones' hero list), a
    sentence each with a real plural ("Roel has no reward token."), never a form's "Reward
    tokens: none" (French would have to agree "aucun" with a label it cannot see)."""
    name = hero_name(hero)
    if cards:
        said = [
            ngettext(
                "{hero} has {count} reward card: {cards}.",
                "{hero} has {count} reward cards: {cards}.",
                len(cards),
            ).format(
                hero=name, count=len(cards), cards=", ".join(item_name(catalog, x) for x in cards)
            )
        ]
    else:
        said = [tr("{hero} has no reward card.").format(hero=name)]
    if tokens:
        said.append(
            ngettext(
                "{hero} has {count} reward token: {tokens}.",
                "{hero} has {count} reward tokens: {tokens}.",
                len(tokens),
            ).format(
                hero=name,
                count=len(tokens),
                tokens=", ".join(item_name(catalog, x) for x in tokens),
            )
        )
    else:
        said.append(tr("{hero} has no reward token.").format(hero=name))
    return " ".join(said)


def reward_card(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    taken = [str(x) for x in as_list(facts.get("rewards"))]
    items = [item_name(catalog, x) for x in taken]
    headline = sentence(tr("{hero} takes {item}").format(hero=hero, item=", ".join(items)))
    return Card(
        tr("Reward"),
        headline,
        (),
        "",
        tuple(
            " ".join(
                [tr("{hero} takes {item}.").format(hero=hero, item=name), reward_use(catalog, x)]
            ).strip()
            for x, name in zip(taken, items, strict=True)
        ),
        (),
        ("R-REW-1",),
        tr("Done"),
        headline,
    )


__all__ = [
    "WOUND_GIVES",
    "fight_card",
    "held_rewards",
    "held_wounds",
    "monk_card",
    "reward_card",
    "wound_card",
    "wound_effects",
]
