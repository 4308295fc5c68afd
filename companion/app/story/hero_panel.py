"""A hero's panel as a value: what the table sees when a hero's chip is tapped on the round
screen or the hero's figure on the card reader — the hand with each card's printed facts (kept
back during the secret choice until its player asks, R-RND-1), the card played this round, the
reward cards and tokens with what they do (R-REW), the wounds with their effects (R-WND), and
the abilities the engine allows now (R-ABL), each carrying the very legal command the round
screen's options send.

`hero_panel` is a pure function of the game (rules with its catalog, state, the legal commands)
and the table's language (its words from `companion.app.words.i18n`): the Kivy screen renders it,
and so can any other view (a phone)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.app.words import i18n
from companion.app.words.command_labels import command_label
from companion.app.words.i18n import N_, ngettext, ntr, tr
from companion.app.words.names import (
    ability_name,
    ability_names,
    item_name,
    source_name,
    token_name,
    where_hero_stands,
)
from companion.engine.components import PlayableCard, RewardUse
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.context import WOUNDS_TO_DEFEAT, GameRules, played_card
from companion.engine.game.queries import penalty
from companion.engine.game.state import GameState, HeroState


@dataclass(frozen=True)
class CardFacts:
    """An action or advanced card as printed: its facts in the table's words, one per line."""

    card: str  # the catalog id (for the command; never shown)
    title: str
    figures: tuple[str, ...]  # initiative, movement, strength, book letter: one line to read
    lines: tuple[str, ...]  # abilities, the wound icon, the icons used this round
    initiative: int
    choose: c.ChooseCard | None = None  # legal now: play it for this round's initiative
    note: str = ""  # "chosen for this round", "earned: joins the hand at the end of the turn"
    instead: bool = False  # `choose` swaps the card chosen before the reveal (R-RND-1)


@dataclass(frozen=True)
class Line:
    """One thing the hero holds or suffers (`name`) and what it does (`does`)."""

    name: str
    does: str = ""


@dataclass(frozen=True)
class Section:
    heading: str
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class PanelAction:
    """An ability to use now: one command is sent as it is; several (Leap and Pack go to a
    space, Mechanics to a room and a turn) are chosen on the board or from a list."""

    label: str
    commands: tuple[c.Command, ...]


@dataclass(frozen=True)
class HeroPanel:
    hero: str
    name: str  # as printed
    summary: str  # wounds, where the hero stands, defeats
    language: str
    hand_secret: bool  # the secret choice: the hand waits for its player (`show_hand_label`)
    hand_question: str  # asked before the hand opens: "Only Matthew looks — show?"
    show_hand_label: str
    hand_heading: str
    hand: tuple[CardFacts, ...]  # by initiative, earned cards last; empty while secret
    played: CardFacts | None  # the card played this round, once revealed
    sections: tuple[Section, ...]  # reward cards, reward tokens, wounds, discard pile
    actions: tuple[PanelAction, ...]

    def lines(self) -> list[str]:
        """The whole panel as plain lines (a text view, a test, a bug report)."""
        out = [self.name, self.summary]
        if self.played is not None:
            played = self.played
            out += [tr("Played this round:"), played.title, " · ".join(played.figures)]
            out += played.lines
        out.append(self.hand_heading)
        if self.hand_secret:
            out += [self.hand_question, self.show_hand_label]
        for card in self.hand:
            out += [card.title, " · ".join(card.figures), *card.lines]
            out += [card.note] if card.note else []
        for section in self.sections:
            out.append(section.heading)
            out += [f"{x.name}: {x.does}" if x.does else x.name for x in section.lines]
        out += [a.label for a in self.actions]
        return out


#: ability commands a hero may use from the panel, in the order offered
ABILITY_COMMANDS = (
    c.UseHeal,
    c.UseRecovery,
    c.UseRetrieval,
    c.UseGatesOfHell,
    c.UseMechanics,
    c.UseLeap,
    c.UsePack,
    c.RebelDraw,
)
#: abilities whose commands are many (a room and a turn, a space): one action per source
GATHERED = {
    c.UseMechanics: N_("{hero}: Mechanics, turn a platform"),
    c.UseLeap: N_("{hero}: Leap to a space of this room"),
    c.UsePack: N_("{hero}: Pack, jump to a comrade's room"),
}
#: the same with a named source (a reward card or token), one message each
GATHERED_WITH = {
    c.UseMechanics: N_("{hero}: Mechanics with {source}, turn a platform"),
    c.UseLeap: N_("{hero}: Leap with {source} to a space of this room"),
    c.UsePack: N_("{hero}: Pack with {source}, jump to a comrade's room"),
}


def hero_panel(
    rules: GameRules,
    state: GameState,
    hero: str,
    legal: Sequence[c.Command],
    *,
    show_hand: bool = False,
) -> HeroPanel:
    """The panel of `hero` in this state. During the secret choice (phase 1) the hand stays
    hidden unless `show_hand` (its player asked); `legal` is the engine's `legal_commands()`."""
    h = state.hero(hero)
    name = hero_name(hero)
    secret = state.phase == "initiative" and not show_hand
    chooses = {
        x.card: x for x in legal if isinstance(x, c.ChooseCard) and x.hero == hero and not secret
    }
    hand: tuple[CardFacts, ...] = ()
    if not secret:
        held = [card for card in h.hand if rules.is_action(card)]
        held.sort(key=lambda card: rules.card(card).initiative)  # as a player sorts for the choice
        hand = tuple(card_facts(rules, card, chooses.get(card), _note(h, card)) for card in held)
        if h.chosen is not None:  # changeable until all have chosen
            hand = tuple(replace(x, instead=x.choose is not None) for x in hand)
        hand += tuple(card_facts(rules, card, None, _note(h, card)) for card in h.pending)
    shown = played_card(rules, h)
    played = None
    if shown is not None:
        played = card_facts(rules, shown.id, None, "", hero=h, rules_card=shown)
    return HeroPanel(
        hero=hero,
        name=name,
        summary=summary(rules, state, h),
        language=i18n.current_language(),
        hand_secret=secret,
        hand_question=tr("Only {hero} looks — show?").format(hero=name),
        show_hand_label=tr("Show"),
        hand_heading=tr("Hand"),
        hand=hand,
        played=played,
        sections=tuple(s for s in _sections(rules, h) if s.lines),
        actions=abilities_now(rules, hero, legal),
    )


def summary(rules: GameRules, state: GameState, h: HeroState) -> str:
    """The panel's header as whole sentences ("Roel has no wounds. Roel stands on a space in
    the east room."), never fragments joined by a dot ("0 wounds of 3 · a space in …")."""
    name = hero_name(h.hero)
    value = sum(rules.catalog.wound(w).value for w in h.wounds)
    if value:
        said = [
            ngettext(
                "{hero} has {count} wound of {most}.", "{hero} has {count} wounds of {most}.", value
            ).format(hero=name, count=value, most=WOUNDS_TO_DEFEAT)
        ]
    else:
        said = [tr("{hero} has no wounds.").format(hero=name)]
    said.append(where_hero_stands(rules.fortress, name, h.at))
    if h.defeated:
        said.append(
            ngettext(
                "{hero} was defeated once.", "{hero} was defeated {count} times.", h.defeated
            ).format(hero=name, count=h.defeated)
        )
    return " ".join(said)


def _note(h: HeroState, card: str) -> str:
    if card in h.pending:
        return tr("Earned: joins the hand at the end of the turn.")
    if card == h.chosen:
        return tr("Chosen for this round.")
    return ""


def card_facts(
    rules: GameRules,
    card: str,
    choose: c.ChooseCard | None,
    note: str,
    *,
    hero: HeroState | None = None,
    rules_card: PlayableCard | None = None,
) -> CardFacts:
    """A card's facts as printed; with `hero`, the movement and strength left after its wounds
    (R-WND-1) beside the printed ones, and the icons already used this round."""
    printed = rules_card or rules.card(card)
    movement = tr("movement {movement}").format(movement=printed.movement)
    strength = tr("strength {strength}").format(strength=printed.strength)
    if hero is not None:
        slower, weaker = penalty(rules, hero, "movement"), penalty(rules, hero, "strength")
        if slower:
            movement += " " + tr("({left} with the wounds)").format(
                left=max(0, printed.movement - slower)
            )
        if weaker:
            strength += " " + tr("({left} with the wounds)").format(
                left=max(0, printed.strength - weaker)
            )
    figures = (
        tr("initiative {initiative}").format(initiative=printed.initiative),
        movement,
        strength,
        tr("book {letter}").format(letter=printed.letter),
    )
    lines = [", ".join(ability_names(printed.abilities)) or tr("no abilities")]
    if printed.wound_icon:
        lines.append(tr("Wound icon: wounds its hero in a fight."))
    if hero is not None and hero.used:
        used = ", ".join(ability_name(a) for a in hero.used)
        lines.append(tr("Used this round: {abilities}").format(abilities=used))
    return CardFacts(card, printed.title, figures, tuple(lines), printed.initiative, choose, note)


def _gives(use: RewardUse) -> str:
    parts = [tr("strength +{strength}").format(strength=use.strength)] if use.strength else []
    parts += [ability_name(a) for a in use.abilities]
    return ", ".join(parts) or tr("nothing")


def _sections(rules: GameRules, h: HeroState) -> list[Section]:
    catalog = rules.catalog
    cards = []
    for item in h.hand:
        reward = catalog.reward_card(item)
        if reward is None:
            continue
        uses = []
        if reward.normal is not None:
            uses.append(
                tr("normal: {gives}, discarded at the end of the round").format(
                    gives=_gives(reward.normal)
                )
            )
            wild = tr("wild: {gives}, then out of the game")
        else:
            wild = tr("wild only: {gives}, then out of the game")
        uses.append(wild.format(gives=_gives(reward.wild)))
        if reward.wound_icon:
            uses.append(tr("wounds its user in every fight it is used in"))
        cards.append(Line(reward.title, "; ".join(uses)))
    cards += [
        Line(item_name(catalog, item), tr("used normally this round: back at the end of it"))
        for item in h.rewards_used
    ]
    tokens = []
    for item in h.reward_tokens:
        token = catalog.reward_token(item)
        if token is None:
            continue
        gives = _gives(RewardUse(token.strength, list(token.abilities)))
        tokens.append(
            Line(
                item_name(catalog, item),
                tr("{gives}, once in the own turn, then discarded").format(gives=gives),
            )
        )
    wounds = [Line(token_name(catalog, w), wound_effect(rules, w)) for w in h.wounds]
    if wounds:
        wounds.append(
            Line(
                tr("At {most} wounds the pack loses a blood point and the hero is healed.").format(
                    most=WOUNDS_TO_DEFEAT
                )
            )
        )
    discard = [Line(", ".join(item_name(catalog, x) for x in h.discard))] if h.discard else []
    return [
        Section(tr("Reward cards"), tuple(cards)),
        Section(tr("Reward tokens"), tuple(tokens)),
        Section(tr("Wounds"), tuple(wounds)),
        Section(tr("Discard pile"), tuple(discard)),
    ]


def wound_effect(rules: GameRules, token: str) -> str:
    """What a wound token does while the hero keeps it (R-WND-1)."""
    wound = rules.catalog.wound(token)
    count = wound.value
    match wound.effect:
        case "shock":
            return ntr(
                "counts as {count} wound; when drawn, a card of the hand is discarded",
                "counts as {count} wounds; when drawn, a card of the hand is discarded",
                count,
            ).format(count=count)
        case "movement":
            return ntr(
                "counts as {count} wound; movement -{penalty} until healed",
                "counts as {count} wounds; movement -{penalty} until healed",
                count,
            ).format(count=count, penalty=wound.penalty)
        case "strength":
            return ntr(
                "counts as {count} wound; strength -{penalty} until healed",
                "counts as {count} wounds; strength -{penalty} until healed",
                count,
            ).format(count=count, penalty=wound.penalty)
        case "ability":
            return ntr(
                "counts as {count} wound; {ability} cannot be used until healed",
                "counts as {count} wounds; {ability} cannot be used until healed",
                count,
            ).format(count=count, ability=ability_name(wound.ability or ""))
    return ntr("counts as {count} wound", "counts as {count} wounds", count).format(count=count)


def abilities_now(
    rules: GameRules, hero: str, legal: Sequence[c.Command]
) -> tuple[PanelAction, ...]:
    """The abilities `hero` may use now, from the engine's legal commands: one action per
    command, or per source where a space or a room is still to be chosen."""
    entries: dict[tuple[object, str], tuple[str, list[c.Command]]] = {}
    for kind in ABILITY_COMMANDS:
        for command in legal:
            if type(command) is not kind or getattr(command, "hero", None) != hero:
                continue
            if kind not in GATHERED:
                label = command_label(command, rules.catalog, rules.fortress)
                entries[(len(entries), "")] = (label, [command])
                continue
            source = str(getattr(command, "source", "card"))
            if (kind, source) not in entries:
                if source == "card":
                    label = tr(GATHERED[kind]).format(hero=hero_name(hero))
                else:
                    label = tr(GATHERED_WITH[kind]).format(
                        hero=hero_name(hero), source=source_name(rules.catalog, source)
                    )
                entries[(kind, source)] = (label, [])
            entries[(kind, source)][1].append(command)
    return tuple(PanelAction(label, tuple(commands)) for label, commands in entries.values())


__all__ = [
    "ABILITY_COMMANDS",
    "CardFacts",
    "HeroPanel",
    "Line",
    "PanelAction",
    "Section",
    "abilities_now",
    "card_facts",
    "hero_panel",
    "wound_effect",
]
