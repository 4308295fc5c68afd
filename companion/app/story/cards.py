"""What each item of a command's story says, in the players' language: the card the round screen
shows (a large headline, then large lines that say who is hit and how hard, the token and whose
card letter drove it, what the table must do, why in plain sentences with the rule ids apart) and
the words bannered and spoken while that card shows (`Card.words`). Every one of them is a whole
sentence (issue 29): never a big word over a small remainder ("nobody" over "attacked"), a
Strigoi always with its article ("Der Lehrling bleibt…").

The items themselves (a Strigoi step, a curse or why there is none, a collapse, a fight, a monk,
wounds, a reward) and their order come from companion/app/story/announce.py; this module only words
them. Counted words use real plurals (`ngettext`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.app.story.announce import HEADLINE_CODES, Announcement
from companion.app.words.i18n import N_, capital_first, ngettext, tr
from companion.app.words.labels import (
    ability_name,
    item_name,
    ladder_name,
    monster_gives,
    render,
    room_name,
    space_name,
    strigoi_label,
    strigoi_subject,
    token_name,
    token_phrase,
)
from companion.engine.components import Catalog
from companion.engine.explain import Reason, hero_name
from companion.engine.fortress import Fortress

#: from -> to in a headline. Kivy's Roboto lacks it: the card draws it in DejaVu Sans, which
#: Kivy ships (ui/screens/round.py); written as an escape so the font check reads no arrow here
ARROW = "\u2192"


@dataclass(frozen=True)
class Figure:
    """A large line on a card: a whole short sentence ("Roel is attacked and takes 2 wounds."),
    and an optional small sentence under it."""

    value: str
    caption: str = ""


@dataclass(frozen=True)
class Card:
    title: str  # which card: the Strigoi's name, "Curse", "Fight", ...
    headline: str  # large, a sentence: "The Master teleports to the north-east room."
    figures: tuple[Figure, ...]  # large sentences: who is attacked, the wounds, the strengths
    source: str  # sentences: the token drawn and whose card letter drove it
    todo: tuple[str, ...]  # what the table must do, in order
    why: tuple[str, ...]  # plain sentences
    rules: tuple[str, ...]  # the rule ids, shown small at the end
    done: str  # the button: what happened ("Figures moved") or "Done"
    words: str  # the sentences bannered and spoken while this card shows


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def plain(reason: Reason) -> str:
    """An engine reason as a plain sentence in the players' language (counted words with their
    real plural: the engine's counted templates)."""
    return render(reason)


def sentence(text: str) -> str:
    """A reason as a sentence: a capital first letter and a full stop."""
    text = text.strip()
    if not text:
        return text
    text = capital_first(text)
    return text if text[-1] in ".!?" else text + "."


def why_rows(catalog: Catalog, announcement: Announcement) -> list[tuple[str, str]]:
    """Why?, as plain sentences each with the rules it comes from (never shown in the
    sentence: the rule opens from its own tap target): the engine's reasons one by one, or
    the card's own sentences."""
    if announcement.reasons:
        return [(sentence(plain(r)), r.rule) for r in announcement.reasons]
    card = card_of(catalog, announcement)
    rules = " ".join(card.rules)
    return [(sentence, rules) for sentence in card.why if sentence]


def _why(announcement: Announcement) -> tuple[tuple[str, ...], tuple[str, ...]]:
    sentences = tuple(sentence(plain(r)) for r in announcement.reasons)
    rules: list[str] = []
    for r in announcement.reasons:
        if r.rule not in rules:
            rules.append(r.rule)
    return sentences, tuple(rules)


def _heroes(heroes: list[str]) -> str:
    names = [hero_name(h) for h in heroes]
    if len(names) <= 1:
        return "".join(names)
    return tr("{heroes} and {last}").format(heroes=", ".join(names[:-1]), last=names[-1])


def _source(catalog: Catalog, facts: dict[str, object]) -> str:
    """The token drawn and the card letter that drove the Strigoi, and whose card it was, as
    whole sentences."""
    drove = _source_letter(facts)
    token = facts.get("token")
    if "token" not in facts:  # the curse draws no token
        return drove
    if not isinstance(token, str):  # R-TEL-1: the Supreme moves without a token
        said = tr("No token: the Supreme Strigoi moves every turn.")
        return f"{said} {drove}" if drove else said
    named = tr("The drawn token is the {token}.").format(token=token_name(catalog, token))
    return f"{named} {drove}" if drove else named


def _put(strigoi: str, room: str) -> str:
    """Where the table puts the Strigoi's figure, a sentence naming it with its article."""
    return capital_first(
        tr("Put {strigoi} on the centre of the {room}.").format(
            strigoi=strigoi_subject(strigoi), room=room_name(room)
        )
    )


def _strigoi_step(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    strigoi = str(facts.get("strigoi", ""))
    start, to = facts.get("from"), facts.get("to")
    moved = isinstance(to, str) and start != to
    name, subject = strigoi_label(strigoi), strigoi_subject(strigoi)
    if moved:
        headline = tr("{strigoi} teleports to the {room}.").format(
            strigoi=subject, room=room_name(str(to))
        )
    else:
        headline = tr("{strigoi} stays in the {room}").format(
            strigoi=subject, room=room_name(str(start))
        )
    headline = sentence(headline)
    hero = facts.get("hero")
    wounds = _int(facts.get("wounds"))
    figures: tuple[Figure, ...]
    todo: list[str] = []
    if moved:
        todo.append(_put(strigoi, str(to)))
    for r in announcement.reasons:
        if r.code == "ladder_destroyed":
            todo.append(
                tr("Take {ladder} off the board.").format(
                    ladder=ladder_name(str(r.facts["ladder"]))
                )
            )
        elif r.code == "landing_on_hero":
            todo.append(
                tr(
                    "{hero}: move 1 blood point to the Inferno; the app asks where {hero} goes."
                ).format(hero=hero_name(str(r.facts["hero"])))
            )
    if isinstance(hero, str):
        figures = (
            Figure(
                ngettext(
                    "{hero} is attacked and takes {count} wound.",
                    "{hero} is attacked and takes {count} wounds.",
                    wounds,
                ).format(hero=hero_name(hero), count=wounds)
            ),
        )
        todo.append(tr("{hero} may protect: the app asks next.").format(hero=hero_name(hero)))
    else:
        figures = (Figure(tr("Nobody is attacked.")),)
    # who is attacked (or nobody) in the card's own sentence: the target's choice (nearest,
    # tied), the wounds' sum ("card damage 1 + token bonus 2") and "did not move, so it does
    # not attack" stay behind Why?, so the banner keeps to two lines
    told: tuple[str, ...] = ()
    if isinstance(hero, str):
        told = ("target", "target_tie", "wounds")
    elif not moved:
        told = ("stays_no_attack",)
    said = [
        plain(r) for r in announcement.reasons if r.code in HEADLINE_CODES and r.code not in told
    ]
    if told:
        said += [f.value for f in figures]
    why, rules = _why(announcement)
    return Card(
        name,
        headline,
        figures,
        _source(catalog, facts),
        tuple(todo),
        why,
        rules,
        tr("Figures moved") if moved else tr("Done"),
        _unique(sentence(x) for x in said) or headline,
    )


def _unique(sentences: Iterable[str]) -> str:
    """Sentences said one after the other, none twice."""
    return " ".join(dict.fromkeys(x for x in sentences if x))


def _curse(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    strigoi, room = str(facts.get("strigoi", "")), str(facts.get("room", ""))
    heroes = [str(h) for h in _list(facts.get("heroes"))]
    landed = [str(h) for h in _list(facts.get("landed"))]
    subject = strigoi_subject(strigoi)
    if heroes:
        figures = (
            Figure(
                ngettext(
                    "{heroes} takes 1 wound.", "{heroes} take 1 wound each.", len(heroes)
                ).format(heroes=_heroes(heroes))
            ),
        )
        words = ngettext(
            "{strigoi} curses the {room}: {heroes} takes 1 wound.",
            "{strigoi} curses the {room}: {heroes} take 1 wound each.",
            len(heroes),
        ).format(strigoi=subject, room=room_name(room), heroes=_heroes(heroes))
    else:
        figures = (Figure(tr("Nobody is in the cursed room.")),)
        words = tr("{strigoi} curses the {room}: nobody is there.").format(
            strigoi=subject, room=room_name(room)
        )
    words = capital_first(words)
    todo = [_put(strigoi, room)]
    protect = [h for h in heroes if h not in landed]
    if protect:
        todo.append(
            ngettext(
                "{heroes} may protect: the app asks next.",
                "{heroes} may each protect: the app asks next.",
                len(protect),
            ).format(heroes=_heroes(protect))
        )
    for hero in landed:
        todo.append(
            tr("{hero}: move 1 blood point to the Inferno; the app asks where {hero} goes.").format(
                hero=hero_name(hero)
            )
        )
    why, rules = _why(announcement)
    return Card(
        tr("Curse"),
        capital_first(
            tr("{strigoi} curses the {room}.").format(strigoi=subject, room=room_name(room))
        ),
        figures,
        _source(catalog, facts),
        tuple(todo),
        (sentence(words), *why[1:]),
        rules,
        tr("Figures moved"),
        words,
    )


def _skipped(announcement: Announcement) -> Card:
    facts = announcement.facts
    why = facts.get("why")
    todo: tuple[str, ...] = ()
    if why == "attacked":
        reason = tr("A Strigoi has already attacked.")
        todo = (tr("Take the attack marker off the Master card."),)
        rules: tuple[str, ...] = ("R-RND-4",)
    elif why == "no_strigoi":
        reason = tr("No Strigoi is on the board yet.")
        rules = ("R-RND-4",)
    else:
        reason = " ".join(sentence(_skip_reason(r)) for r in announcement.reasons)
        rules = ("R-CUR-1",)
        if why == "ladder":  # the curse's teleport hit a ladder: it is gone from the table
            todo = (tr("Take the destroyed ladder off the board."),)
    headline = tr("There is no curse this round.")
    letter = _source_letter(facts)
    return Card(
        tr("Phase 3"),
        headline,
        (),
        f"{reason} {letter}" if letter else reason,
        todo,
        (reason,),
        rules,
        tr("Done"),
        f"{headline} {reason}",
    )


def _placed(announcement: Announcement) -> Card:
    """Round 2 begins: the Strigoi enter the fortress (R-SET-3). What the table must do comes
    first and is said whole: the voice names each figure and its room, as the card does."""
    facts = announcement.facts
    placed = facts.get("placed")
    rooms = {str(k): str(v) for k, v in placed.items()} if isinstance(placed, dict) else {}
    headline = tr("The Strigoi enter the fortress.")
    todo = [_put(strigoi, room) for strigoi, room in rooms.items()]
    for hero in _list(facts.get("stepped_off")):
        todo.append(
            tr("{hero} stood on a starting centre and steps off: the app asks where to.").format(
                hero=hero_name(str(hero))
            )
        )
    why = tr(
        "In round 1 no Strigoi is on the board. At the start of round 2 each one enters on "
        "the centre of one of the two platforms with the Strigoi mark, drawn at random."
    )
    round_number = _int(facts.get("round")) or 2
    return Card(
        tr("Round {round}").format(round=round_number),
        headline,
        (),
        tr("A random draw chose which Strigoi enters on which marked platform."),
        tuple(todo),
        (why,),
        ("R-SET-3",),
        tr("Strigoi placed"),
        _unique([headline, *todo]),
    )


def _skip_reason(reason: Reason) -> str:
    """Why no curse, without saying "no curse" again after the headline has said it."""
    strigoi = reason.facts.get("strigoi")
    if reason.code == "no_curse" and isinstance(strigoi, str):
        return tr("{strigoi} did not move.").format(strigoi=strigoi_subject(strigoi))
    return plain(reason)


def _source_letter(facts: dict[str, object]) -> str:
    """Whose card's letter drove the Strigoi, a sentence ("Roel's card shows letter C.")."""
    letter, owner = facts.get("letter"), facts.get("card_hero")
    if isinstance(letter, str) and isinstance(owner, str):
        return tr("{hero}'s card shows letter {letter}.").format(
            letter=letter, hero=hero_name(owner)
        )
    return ""


def _collapse(announcement: Announcement) -> Card:
    room = room_name(str(announcement.facts.get("room", "")))
    headline = sentence(tr("The platform of the {room} collapses").format(room=room))
    why, rules = _why(announcement)
    return Card(
        tr("Collapse"),
        headline,
        (),
        "",
        (tr("Take the platform out of the {room}: it collapsed.").format(room=room),),
        why,
        rules,
        tr("Done"),
        headline,
    )


def _gains(catalog: Catalog, fortress: Fortress | None, facts: dict[str, object]) -> list[str]:
    """What the table changes after a fight or a monk: blood, rewards, the fight marker."""
    hero = hero_name(str(facts.get("hero", "")))
    todo: list[str] = []
    blood = _int(facts.get("blood"))
    if blood:
        todo.append(
            ngettext(
                "Move {count} blood point to the Altar.",
                "Move {count} blood points to the Altar.",
                blood,
            ).format(count=blood)
        )
    for item in _list(facts.get("rewards")):
        todo.append(
            tr("{hero} takes {item}.").format(hero=hero, item=item_name(catalog, str(item)))
        )
    for stack in _list(facts.get("to_draw")):
        draws = (
            tr("{hero} draws a reward card: the app asks which.")
            if stack == "reward_card"
            else tr("{hero} draws a reward token: the app asks which.")
        )
        todo.append(draws.format(hero=hero))
    for card in _list(facts.get("advanced")):
        todo.append(
            tr("{hero} earns {card} (joins the hand at the end of the turn).").format(
                hero=hero, card=item_name(catalog, str(card))
            )
        )
    if facts.get("hand_back"):
        todo.append(tr("{hero} takes the discard pile back into the hand.").format(hero=hero))
    marker = facts.get("marker")
    if isinstance(marker, list) and len(marker) == 2:
        todo.append(tr("Put a fight marker on {space}.").format(space=space_name(fortress, marker)))
    elif facts.get("marker_to_choose"):
        todo.append(tr("All six fight markers are out: the app asks which one moves."))
    icon = _int(facts.get("icon_wounds"))
    if icon:
        todo.append(
            ngettext(
                "The wound icon: {hero} takes {count} wound, no protection.",
                "The wound icon: {hero} takes {count} wounds, no protection.",
                icon,
            ).format(hero=hero, count=icon)
        )
    return todo


def _fight(catalog: Catalog, fortress: Fortress | None, announcement: Announcement) -> Card:
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
        figures.append(Figure(_takes(hero, 1)))
        words = tr("{hero} loses the fight against {monster}, which deals 1 wound.").format(
            hero=hero, monster=monster
        )
    todo += _gains(catalog, fortress, facts)
    if not won:
        todo.append(tr("{hero} may protect: the app asks next.").format(hero=hero))
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


def _monk(catalog: Catalog, fortress: Fortress | None, announcement: Announcement) -> Card:
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


def _wound(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    tokens = [str(t) for t in _list(facts.get("tokens"))]
    count = len(tokens)
    headline = _takes(hero, count)
    if facts.get("defeated") and _int(facts.get("due")) > count:  # R-WND-2: capped at 3
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


def _reward(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    hero = hero_name(str(facts.get("hero", "")))
    items = [item_name(catalog, str(x)) for x in _list(facts.get("rewards"))]
    headline = sentence(tr("{hero} takes {item}").format(hero=hero, item=", ".join(items)))
    return Card(
        tr("Reward"),
        headline,
        (),
        "",
        tuple(tr("{hero} takes {item}.").format(hero=hero, item=x) for x in items),
        (),
        ("R-REW-1",),
        tr("Done"),
        headline,
    )


def card_of(catalog: Catalog, announcement: Announcement, fortress: Fortress | None = None) -> Card:
    """The card of one story item, in the players' language."""
    kind = announcement.kind
    if kind == "strigoi_step":
        return _strigoi_step(catalog, announcement)
    if kind == "curse":
        return _curse(catalog, announcement)
    if kind == "curse_skipped":
        return _skipped(announcement)
    if kind == "strigoi_placed":
        return _placed(announcement)
    if kind == "collapse":
        return _collapse(announcement)
    if kind == "fight":
        return _fight(catalog, fortress, announcement)
    if kind == "monk":
        return _monk(catalog, fortress, announcement)
    if kind == "wound":
        return _wound(catalog, announcement)
    if kind == "reward":
        return _reward(catalog, announcement)
    why, rules = _why(announcement)
    return Card(
        kind, announcement.headline, (), "", (), why, rules, tr("Done"), announcement.headline
    )


def spoken(catalog: Catalog, announcement: Announcement, fortress: Fortress | None = None) -> str:
    """The one sentence of a story item (the voice says it; the banner shows it with its card)."""
    return card_of(catalog, announcement, fortress).words


__all__ = [
    "ARROW",
    "Card",
    "Figure",
    "card_of",
    "plain",
    "sentence",
    "spoken",
    "why_rows",
    "wound_effects",
]
