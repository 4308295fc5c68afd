"""What a command button says, and the same choice as the voice reads it (one sentence per
kind of command, translated as a template)."""
from __future__ import annotations

from companion.app.board.marks import FIGURE_MARKS as FIGURE_MARKS  # the same on every board
from companion.app.words.i18n import N_, capital_first, ntr, tr
from companion.app.words.i18n import tr as translate
from companion.app.words.names import (
    ATTACKS,
    direction_name,
    first_book,
    full_stop,
    item_name,
    room_name,
    source_name,
    space_name,
    strigoi_label,
    strigoi_subject,
    token_name,
)
from companion.engine.components import Catalog
from companion.engine.explain import (
    hero_name,
)
from companion.engine.fortress import Fortress
from companion.engine.game import commands as c


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
