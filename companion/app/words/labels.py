"""What a command button says. Whole sentences are translated as templates; hero, card and room
names stay as printed; the Strigoi are named as each language's rulebook names them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.table.differences import Difference, Kind
from companion.app.table.tracking import Action, Step
from companion.app.words.i18n import N_, capital_first, ngettext, ntr, tr
from companion.app.words.i18n import tr as translate
from companion.app.words.wording import waiting_sentence
from companion.engine.components import Catalog, EncounterToken
from companion.engine.explain import (
    ROOM_FACTS,
    Fact,
    Reason,
    hero_name,
    strigoi_name,
    the_strigoi,
)
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c
from companion.engine.game.kinds import TaskKind
from companion.engine.game.state import GameState
from companion.engine.game.tasks import Task
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


def secret_label(
    command: c.Command, catalog: Catalog, fortress: Fortress | None, hidden: bool
) -> str:
    """A command's label, a card choice kept secret while `hidden` (R-RND-1: nobody sees a
    chosen card before all are revealed, not even in Undo or the game log)."""
    if hidden and isinstance(command, c.ChooseCard):
        return tr("{hero} chose a card").format(hero=hero_name(command.hero))
    return command_label(command, catalog, fortress)


def log_sentence(
    command: c.Command, catalog: Catalog, fortress: Fortress | None, hidden: bool
) -> str:
    """A step of the game log (the touchscreen's, the phones'), as a sentence: "Roel plays
    Son of the Wolf.", never the button's "Roel: play Son of the Wolf" (in German an
    infinitive, "Roel: Son of the Wolf spielen"). A correction keeps its "Fix: …" (its spoken
    form asks the table to make it). A card choice stays secret while `hidden` (R-RND-1)."""
    if hidden and isinstance(command, c.ChooseCard):
        text = tr("{hero} chose a card").format(hero=hero_name(command.hero))
    else:
        spoken = not isinstance(command, c.CORRECTIONS)
        text = command_label(command, catalog, fortress, spoken=spoken)
    return full_stop(capital_first(text))


def full_stop(text: str) -> str:
    """The text ended as a sentence (a full stop unless it ends in one already)."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


#: a menu item as the voice reads it (spoken_menu.read): the button's "{hero}: move to …" as
#: one sentence, "{hero} moves to …" (never "Attila: stay" after "Choice 1 of 2:"), same
#: placeholders; the reader adds the full stop
SPOKEN: dict[str, str] = {
    "{hero}: play {card}": N_("{hero} plays {card}"),
    "{hero}: stay": N_("{hero} stays where they are"),
    "{hero}: move to {space} with Stealth": N_("{hero} moves to {space} with Stealth"),
    "{hero}: move to {space} with Stealth from {source}": N_(
        "{hero} moves to {space} with Stealth from {source}"
    ),
    "{hero}: draw a token with Stealth": N_("{hero} draws a token with Stealth"),
    "{hero}: draw a token with Stealth from {source}": N_(
        "{hero} draws a token with Stealth from {source}"
    ),
    "{hero}: the table drew {token}, with Stealth": N_(
        "For {hero} the table drew {token}, with Stealth"
    ),
    "{hero}: the table drew {token}, with Stealth from {source}": N_(
        "For {hero} the table drew {token}, with Stealth from {source}"
    ),
    "{hero}: move to {space}": N_("{hero} moves to {space}"),
    "{hero}: draw a token": N_("{hero} draws a token"),
    "{hero}: the table drew {token}": N_("For {hero} the table drew {token}"),
    "{hero}: no more abilities, go on": N_("{hero} uses no more abilities and goes on"),
    "{hero}: no fight": N_("{hero} does not fight"),
    "{hero}: leave the monster face up": N_("{hero} leaves the monster face up"),
    "{hero}: free the monk": N_("{hero} frees the monk"),
    "{hero}: attack the monk": N_("{hero} attacks the monk"),
    "{hero}: take the wounds": N_("{hero} takes the wounds"),
    "{hero}: block with {sources}": N_("{hero} blocks with {sources}"),
    "{hero}: discard {card}": N_("{hero} discards {card}"),
    "{hero}: go to {space}": N_("{hero} goes to {space}"),
    "{hero}: take the fight marker from {space}": N_("{hero} takes the fight marker from {space}"),
    "{hero}: Leap to {space}": N_("{hero} uses Leap to reach {space}"),
    "{hero}: Leap to {space} with {source}": N_("{hero} uses Leap from {source} to reach {space}"),
    "{hero}: Pack, jump to {space}": N_("{hero} uses Pack to jump to {space}"),
    "{hero}: Pack with {source}, jump to {space}": N_(
        "{hero} uses Pack from {source} to jump to {space}"
    ),
    "{hero}: fall with the platform": N_("{hero} falls with the platform"),
    "{hero}: turn the platform in the {room}, book {book} to {direction}": N_(
        "{hero} turns the platform in the {room} so that book {book} faces {direction}"
    ),
    "{hero}: with {source}, turn the platform in the {room}, book {book} to {direction}": N_(
        "{hero} uses {source} to turn the platform in the {room} "
        "so that book {book} faces {direction}"
    ),
    "{hero}: Heal": N_("{hero} uses Heal"),
    "{hero}: Heal with {source}": N_("{hero} uses Heal from {source}"),
    "{hero}: Recovery, take the discard pile back": N_(
        "{hero} uses Recovery and takes the discard pile back"
    ),
    "{hero}: Recovery with {source}, take the discard pile back": N_(
        "{hero} uses Recovery from {source} and takes the discard pile back"
    ),
    "{hero}: Gates of Hell, remove every fight marker": N_(
        "{hero} uses Gates of Hell and removes every fight marker"
    ),
    "{hero}: Gates of Hell with {source}, remove every fight marker": N_(
        "{hero} uses Gates of Hell from {source} and removes every fight marker"
    ),
    "{hero}: Retrieval, take back {card}": N_("{hero} uses Retrieval and takes back {card}"),
    "{hero}: Retrieval with {source}, take back {card}": N_(
        "{hero} uses Retrieval from {source} and takes back {card}"
    ),
    "{hero}: Nighttime Rebel, draw a reward card": N_(
        "{hero} uses Nighttime Rebel and draws a reward card"
    ),
    "{hero}: fight": N_("{hero} fights"),
    "{hero}: fight with {rewards}": N_("{hero} fights with {rewards}"),
    "{hero}: attack {strigoi} ({mode}) with {rewards}": N_(
        "{hero} attacks {strigoi} ({mode}) with {rewards}"
    ),
    "{hero}: attack {strigoi} ({mode})": N_("{hero} attacks {strigoi} ({mode})"),
    # corrections (Fix, Resync, a transcript's set-up): a whole sentence each, never
    # "Choice 1 of 2: Fix: Attila stands on …" (issue 29); {strigoi} with its article
    "Fix: {hero} stands on {space}": N_("Correct the game so that {hero} stands on {space}"),
    "Fix: {strigoi} stands in the {room}": N_(
        "Correct the game so that {strigoi} stands in the {room}"
    ),
    "Fix: in the {room} book {book} faces {direction}": N_(
        "Correct the game so that in the {room} book {book} faces {direction}"
    ),
    "Fix: Altar {altar}, Inferno {inferno}": N_(
        "Correct the game so that the Altar shows {altar} and the Inferno {inferno}"
    ),
    "Fix: {hero} takes {wound}": N_("Correct the game so that {hero} takes {wound}"),
    "Fix: {hero} loses {wound}": N_("Correct the game so that {hero} loses {wound}"),
    "Fix: {hero}'s cards and tokens as on the table": N_(
        "Correct {hero}'s cards and tokens to match the table"
    ),
    "Fix: the fight markers as on the table": N_("Correct the fight markers to match the table"),
    "Fix: the standing ladders as on the table": N_(
        "Correct the standing ladders to match the table"
    ),
    "Fix: the face-up monster as on the table": N_(
        "Correct the face-up monster to match the table"
    ),
}


def command_label(
    command: c.Command, catalog: Catalog, fortress: Fortress | None = None, spoken: bool = False
) -> str:
    """The button's text: heroes, cards, tokens, rooms and spaces by the names players use,
    never an id or a coordinate; `spoken`: the sentence the voice reads instead (SPOKEN)."""

    def tr(message: str) -> str:  # the module's tr, by way of SPOKEN when read aloud
        return translate(SPOKEN.get(message, message) if spoken else message)

    hero = hero_name(getattr(command, "hero", "") or "")

    def named(items: list[str]) -> str:
        return ", ".join(item_name(catalog, x) for x in items)

    def sourced(plain: str, with_source: str, source: str, **values: object) -> str:
        """One message per form: the played card's own icon, or a named source in the
        language's own word order (never " with X" glued on)."""
        if source == "card":
            return tr(plain).format(hero=hero, **values)
        return tr(with_source).format(hero=hero, source=source_name(catalog, source), **values)

    match command:
        case c.ChooseCard(card=card):
            return tr("{hero}: play {card}").format(hero=hero, card=item_name(catalog, card))
        case c.Stay():
            return tr("{hero}: stay").format(hero=hero)
        case c.Move(to=to, stealth=True, source=source):
            return sourced(
                N_("{hero}: move to {space} with Stealth"),
                N_("{hero}: move to {space} with Stealth from {source}"),
                source,
                space=space_name(fortress, to),
            )
        case c.Move(to=to):
            return tr("{hero}: move to {space}").format(hero=hero, space=space_name(fortress, to))
        case c.Draw(stealth=str(source)):
            return sourced(
                N_("{hero}: draw a token with Stealth"),
                N_("{hero}: draw a token with Stealth from {source}"),
                source,
            )
        case c.Draw():
            return tr("{hero}: draw a token").format(hero=hero)
        case c.EnterDraw(token=token, stealth=str(source)):
            return sourced(
                N_("{hero}: the table drew {token}, with Stealth"),
                N_("{hero}: the table drew {token}, with Stealth from {source}"),
                source,
                token=token_name(catalog, token),
            )
        case c.EnterDraw(token=token):
            return tr("{hero}: the table drew {token}").format(
                hero=hero, token=token_name(catalog, token)
            )
        case c.Proceed():
            return tr("{hero}: no more abilities, go on").format(hero=hero)
        case c.SkipFight():
            return tr("{hero}: no fight").format(hero=hero)
        case c.LeaveMonster():
            return tr("{hero}: leave the monster face up").format(hero=hero)
        case c.FreeMonk():
            return tr("{hero}: free the monk").format(hero=hero)
        case c.AttackMonk():
            return tr("{hero}: attack the monk").format(hero=hero)
        case c.Protect(sources=[]):
            return tr("{hero}: take the wounds").format(hero=hero)
        case c.Protect(sources=sources):
            blocks = ", ".join(  # "card": the played card's own Protection icon
                tr("the played card's Protection") if x == "card" else item_name(catalog, x)
                for x in sources
            )
            return tr("{hero}: block with {sources}").format(hero=hero, sources=blocks)
        case c.DiscardForShock(card=card):
            return tr("{hero}: discard {card}").format(hero=hero, card=item_name(catalog, card))
        case c.Relocate(to=to):
            return tr("{hero}: go to {space}").format(hero=hero, space=space_name(fortress, to))
        case c.PlaceFightMarker(take_from=cell):
            return tr("{hero}: take the fight marker from {space}").format(
                hero=hero, space=space_name(fortress, cell)
            )
        case c.Leap(to=to, source=source) | c.UseLeap(to=to, source=source):
            return sourced(
                N_("{hero}: Leap to {space}"),
                N_("{hero}: Leap to {space} with {source}"),
                source,
                space=space_name(fortress, to),
            )
        case c.UsePack(to=to, source=source):
            return sourced(
                N_("{hero}: Pack, jump to {space}"),
                N_("{hero}: Pack with {source}, jump to {space}"),
                source,
                space=space_name(fortress, to),
            )
        case c.Fall():
            return tr("{hero}: fall with the platform").format(hero=hero)
        case c.UseMechanics(room=room, rotation=rotation, source=source):
            book = first_book(fortress, room) if fortress is not None else "?"
            return sourced(
                N_("{hero}: turn the platform in the {room}, book {book} to {direction}"),
                N_(
                    "{hero}: with {source}, turn the platform in the {room}, "
                    "book {book} to {direction}"
                ),
                source,
                room=room_name(room),
                book=book,
                direction=direction_name(rotation),
            )
        case c.UseHeal(source=source, tokens=tokens):
            text = sourced(N_("{hero}: Heal"), N_("{hero}: Heal with {source}"), source)
            if tokens:  # which wound each healed hero discards (R-ABL Heal)
                text += (
                    " ("
                    + ", ".join(
                        tr("{hero} discards {wound}").format(
                            hero=hero_name(who), wound=token_name(catalog, token)
                        )
                        for who, token in tokens.items()
                    )
                    + ")"
                )
            return text
        case c.UseRecovery(source=source):
            return sourced(
                N_("{hero}: Recovery, take the discard pile back"),
                N_("{hero}: Recovery with {source}, take the discard pile back"),
                source,
            )
        case c.UseGatesOfHell(source=source):
            return sourced(
                N_("{hero}: Gates of Hell, remove every fight marker"),
                N_("{hero}: Gates of Hell with {source}, remove every fight marker"),
                source,
            )
        case c.UseRetrieval(card=card, source=source):
            return sourced(
                N_("{hero}: Retrieval, take back {card}"),
                N_("{hero}: Retrieval with {source}, take back {card}"),
                source,
                card=item_name(catalog, card),
            )
        case c.SwapRewards(other=other, give=give, take=take):
            return tr("{hero} gives {give} to {other} for {take}").format(
                hero=hero,
                other=hero_name(other),
                give=named(give) or tr("nothing"),
                take=named(take) or tr("nothing"),
            )
        case c.RebelDraw():
            return tr("{hero}: Nighttime Rebel, draw a reward card").format(hero=hero)
        case c.Fight(rewards=[]):
            return tr("{hero}: fight").format(hero=hero)
        case c.Fight(rewards=rewards):
            plays = named([f"{r.item}:{r.mode}" for r in rewards])
            return tr("{hero}: fight with {rewards}").format(hero=hero, rewards=plays)
        case c.AttackStrigoi(strigoi=strigoi, mode=mode, rewards=rewards):
            how = tr(ATTACKS.get(mode, mode))
            if rewards:  # one message with the rewards played, not " with …" glued on
                return tr("{hero}: attack {strigoi} ({mode}) with {rewards}").format(
                    hero=hero,
                    strigoi=strigoi_label(strigoi),
                    mode=how,
                    rewards=named([f"{r.item}:{r.mode}" for r in rewards]),
                )
            return tr("{hero}: attack {strigoi} ({mode})").format(
                hero=hero, strigoi=strigoi_label(strigoi), mode=how
            )
        case c.SetHeroPosition(to=to):
            return tr("Fix: {hero} stands on {space}").format(
                hero=hero, space=space_name(fortress, to)
            )
        case c.SetStrigoiPosition(strigoi=strigoi, room=room):
            return tr("Fix: {strigoi} stands in the {room}").format(
                strigoi=strigoi_subject(strigoi), room=room_name(room)
            )
        case c.SetRotation(room=room, rotation=rotation):
            book = first_book(fortress, room) if fortress is not None else "?"
            return tr("Fix: in the {room} book {book} faces {direction}").format(
                room=room_name(room), book=book, direction=direction_name(rotation)
            )
        case c.SetBlood(altar=altar, inferno=inferno):
            return tr("Fix: Altar {altar}, Inferno {inferno}").format(altar=altar, inferno=inferno)
        case c.AddWound(token=token):
            return tr("Fix: {hero} takes {wound}").format(
                hero=hero, wound=token_name(catalog, token) if token else tr("a wound")
            )
        case c.RemoveWound(token=token):
            return tr("Fix: {hero} loses {wound}").format(
                hero=hero, wound=token_name(catalog, token)
            )
        case c.SetCards():  # the set-ups a transcript replays (docs/transcripts.md)
            return tr("Fix: {hero}'s cards and tokens as on the table").format(hero=hero)
        case c.SetFightMarkers():
            return tr("Fix: the fight markers as on the table")
        case c.SetStrigoiWounds(strigoi=strigoi, wounds=wounds):
            if spoken:
                text = ntr(
                    "Correct the game so that {strigoi} has {count} wound",
                    "Correct the game so that {strigoi} has {count} wounds",
                    wounds,
                )
            else:
                text = ntr(
                    "Fix: {strigoi} has {count} wound", "Fix: {strigoi} has {count} wounds", wounds
                )
            return text.format(strigoi=strigoi_subject(strigoi), count=wounds)
        case c.SetLadders():
            return tr("Fix: the standing ladders as on the table")
        case c.SetFaceUp():
            return tr("Fix: the face-up monster as on the table")
    return hero


def group_label(key: tuple[str, ...]) -> str:
    """The button that opens a group of commands (ui/widgets/option_groups.py)."""
    if key[0] == "choose":
        return tr("{hero}: pick a card (only you look)").format(hero=hero_name(key[1]))
    if key[0] == "mechanics":
        return tr("{hero}: Mechanics, turn the platform in the {room}").format(
            hero=hero_name(key[1]), room=room_name(key[2])
        )
    if key[0] == "leap":
        return tr("{hero}: Leap to a space of this room").format(hero=hero_name(key[1]))
    if key[0] == "pack":
        return tr("{hero}: Pack, jump to a comrade's room").format(hero=hero_name(key[1]))
    return " ".join(key)


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


def action_text(fortress: Fortress, action: Action) -> str:
    """What the table must do, as a player reads it aloud."""
    room = room_name(action.room)
    book = first_book(fortress, action.room)
    facing = direction_name(action.rotation or 0)
    match action.step:
        case Step.TURN:
            return tr(
                "Turn the platform in the {room} until book {book} faces {direction}, the lit edge."
            ).format(room=room, book=book, direction=facing)
        case Step.SET_UP:
            return tr(
                "Set the platform of the {home} into the {room}, book {book} facing {direction}."
            ).format(
                home=platform_home(fortress, action.platform),
                room=room,
                book=book,
                direction=facing,
            )
        case Step.RESTORE_PLATFORM:
            return tr(
                "Put the platform back into the {room}, book {book} facing {direction}."
            ).format(room=room, book=book, direction=facing)
        case Step.REMOVE_PLATFORM:
            return tr("Take the platform out of the {room}: it collapsed.").format(room=room)
        case Step.PLACE_FIGURE:
            return tr("{figure}: put it on the centre of the {room}.").format(
                figure=figure_label(action.figure), room=room
            )
    if action.figure is None:
        return tr("Clear the centre of the {room}.").format(room=room)
    return tr("{figure}: take it off the centre of the {room}.").format(
        figure=figure_label(action.figure), room=room
    )


def table_line(fortress: Fortress, action: Action) -> str:
    """A line of the round screen's table list: what to do, then, as a sentence of its own,
    that the readers will see it done (never a second bracket after the first)."""
    text = action_text(fortress, action)
    if action.sensed:
        text += " " + tr("The readers will see it done.")
    return text


def differences_alert(fortress: Fortress, differences: Sequence[Difference]) -> str:
    """The round screen's strip: the first difference as its own sentence (a capital first),
    then how many more and what to do, as whole sentences of their own."""
    if not differences:
        return ""
    first = difference_text(fortress, differences[0])
    more = len(differences) - 1
    tail = (
        ntr(
            "And {count} more difference. Tap to resync.",
            "And {count} more differences. Tap to resync.",
            more,
        ).format(count=more)
        if more
        else tr("Tap to resync.")
    )
    return f"{capital_first(first)} {tail}"


def difference_text(fortress: Fortress, difference: Difference) -> str:
    """What the readers see that the game does not hold, in one sentence."""
    room = room_name(difference.room)
    reader = tr("rim reader") if difference.reader == 0 else tr("centre reader")
    book = first_book(fortress, difference.room)
    table, game = difference.table, difference.game
    match difference.kind:
        case Kind.ROTATION:
            return tr("{room}: book {book} faces {table}; the game has it facing {game}.").format(
                room=room,
                book=book,
                table=direction_name(int(table or 0)),
                game=direction_name(int(game or 0)),
            )
        case Kind.NO_PLATFORM:
            return tr("{room}: no platform is read; the game has one there.").format(room=room)
        case Kind.STILL_THERE:
            return tr("{room}: a platform is still there; it collapsed in the game.").format(
                room=room
            )
        case Kind.WRONG_PLATFORM:
            return tr("{room}: the platform of the {home} lies here.").format(
                room=room, home=platform_home(fortress, str(table))
            )
        case Kind.PLATFORM_TWICE:
            return tr("{room}: the same platform is read in two rooms (a doubled tag?).").format(
                room=room
            )
        case Kind.UNKNOWN_TAG:
            return tr("{room}: an unregistered tag lies on the {reader}.").format(
                room=room, reader=reader
            )
        case Kind.FOREIGN_TAG:
            return tr("{room}: something that is not meant there lies on the {reader}.").format(
                room=room, reader=reader
            )
        case Kind.FIGURE_MISSING:
            return tr("{room}: {figure} should stand on the centre.").format(
                room=room, figure=figure_label(str(game))
            )
        case Kind.WRONG_FIGURE:
            return tr("{room}: {figure} stands on the centre; the game has {other} there.").format(
                room=room, figure=figure_label(str(table)), other=figure_label(str(game))
            )
    return tr("{room}: {figure} stands on the centre; the game has nobody there.").format(
        room=room, figure=figure_label(str(table))
    )


def site_label(room: str, side: int) -> str:
    """A ladder site of the setup wizard, a label that starts with a capital in every
    language: "North-east room, north-west side" (room names are lower case mid-sentence)."""
    return capital_first(
        tr("{room}, {side} side").format(room=room_name(room), side=direction_name(side))
    )


def ladder_seat_line(hero: str, site: tuple[str, int] | None) -> str:
    """Where a hero's ladder stands, a sentence of the setup wizard's list ("Roel's ladder
    stands in the west room, on the south-west side."), never "Roel: West room, south-west
    side" (a capital mid-line, and French wants its own spacing before a colon)."""
    if site is None:
        return tr("{hero} has no ladder yet.").format(hero=hero_name(hero))
    room, side = site
    return tr("{hero}'s ladder stands in the {room}, on the {side} side.").format(
        hero=hero_name(hero), room=room_name(room), side=direction_name(side)
    )


#: why no ladder may stand on a site, as one sentence naming the site (setup_plan's reasons)
SITE_REFUSALS = {
    "no corridor reaches this side": N_(
        "No ladder on the {side} side of the {room}: no corridor reaches it."
    ),
    "the room's platform has the Strigoi mark": N_(
        "No ladder in the {room}: its platform has the Strigoi mark."
    ),
    "{hero}'s ladder stands here": N_(
        "No other ladder on the {side} side of the {room}: {hero}'s ladder stands there."
    ),
}


def site_refusal(room: str, side: int, reason: str, holder: str = "") -> str:
    """Why no ladder may stand on a site, one whole sentence in the players' language."""
    template = SITE_REFUSALS.get(reason)
    if template is None:
        return f"{site_label(room, side)}: {tr(reason).format(hero=hero_name(holder))}"
    return tr(template).format(
        room=room_name(room), side=direction_name(side), hero=hero_name(holder)
    )


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
