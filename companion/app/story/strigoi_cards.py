"""The Strigoi's cards: a step (the token drawn, where it would go, where it goes and whom it
sees), the curse or why there is none, a collapse."""

from __future__ import annotations

from companion.app.story.announcement import Announcement
from companion.app.story.card_parts import (
    Card,
    Figure,
    as_int,
    as_list,
    asks,
    heroes_words,
    may_protect,
    plain,
    sentence,
    unique_sentences,
    why_of,
)
from companion.app.words.i18n import capital_first, ngettext, tr
from companion.app.words.names import (
    direction_name,
    ladder_name,
    room_name,
    strigoi_label,
    strigoi_subject,
    token_meaning,
    token_name,
)
from companion.engine.components import Catalog
from companion.engine.explain import Reason, hero_name


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
    named = f"{named} {token_meaning(catalog, token)}".strip()
    return f"{named} {drove}" if drove else named


def put_strigoi(strigoi: str, room: str) -> str:
    """Where the table puts the Strigoi's figure, a sentence naming it with its article."""
    return capital_first(
        tr("Put {strigoi} on the centre of the {room}.").format(
            strigoi=strigoi_subject(strigoi), room=room_name(room)
        )
    )


def _lead(catalog: Catalog, facts: dict[str, object]) -> str:
    """What drove a Strigoi, said first: the drawn token (its actor, its bonus) and the book
    letter ("Master token +1, book B"); the Supreme, which draws no token (R-TEL-1), by name."""
    token, letter = facts.get("token"), facts.get("letter")
    drawn = (
        token_name(catalog, token)
        if isinstance(token, str)
        else strigoi_label(str(facts.get("strigoi", "")))
    )
    if letter == "X":  # no book shows X: the card's letter itself (R-TEL-6)
        return tr("{token}, letter X").format(token=drawn)
    if isinstance(letter, str):
        return tr("{token}, book {letter}").format(token=drawn, letter=letter)
    return drawn


def _step_clause(announcement: Announcement, moved: bool) -> str:
    """Where the Strigoi goes, or why it stays, in one short clause (R-TEL-2..6)."""
    facts = announcement.facts
    strigoi = str(facts.get("strigoi", ""))
    subject = strigoi_subject(strigoi)
    start, to = str(facts.get("from", "")), str(facts.get("to", ""))
    codes = {r.code: r for r in announcement.reasons}
    if moved and not isinstance(facts.get("hero"), str):
        # it moved and saw nobody (R-LOS-2): why nothing more happens, in the same clause
        if "bounce" in codes:
            return tr("{strigoi} bounces back to the {room} and sees no hero").format(
                strigoi=subject, room=room_name(to)
            )
        return tr("{strigoi} teleports to the {room} and sees no hero").format(
            strigoi=subject, room=room_name(to)
        )
    if moved:
        if "bounce" in codes:
            return tr("{strigoi} bounces back and teleports to the {room}").format(
                strigoi=subject, room=room_name(to)
            )
        return tr("{strigoi} teleports to the {room}").format(strigoi=subject, room=room_name(to))
    if "occupied" in codes:
        found = codes["occupied"].facts
        return tr(
            "{strigoi} would go to the {room}, where {other} stands; it stays in the {start}"
        ).format(
            strigoi=subject,
            room=room_name(str(found.get("target", ""))),
            other=strigoi_subject(str(found.get("other", ""))),
            start=room_name(start),
        )
    if "ladder_guarded" in codes:
        found = codes["ladder_guarded"].facts
        return tr("{strigoi} stays in the {start}: {hero} stands before {ladder}").format(
            strigoi=subject,
            start=room_name(start),
            hero=hero_name(str(found.get("hero", ""))),
            ladder=ladder_name(str(found.get("ladder", ""))),
        )
    if "ladder_destroyed" in codes:
        found = codes["ladder_destroyed"].facts
        return tr("{strigoi} destroys {ladder} and stays in the {start}").format(
            strigoi=subject, ladder=ladder_name(str(found.get("ladder", ""))),
            start=room_name(start),
        )  # fmt: skip
    failed = codes.get("bounce_failed") or codes.get("bounce_failed_centre")
    if failed is not None:  # R-TEL-3: both ways named
        way, back = failed.facts.get("direction"), failed.facts.get("opposite")
        return tr(
            "neither {direction} nor {opposite} leads to a platform: {strigoi} stays in the {start}"
        ).format(
            direction=direction_name(way) if isinstance(way, int) else "?",
            opposite=direction_name(back) if isinstance(back, int) else "?",
            strigoi=subject,
            start=room_name(start),
        )
    return tr("{strigoi} stays in the {start}").format(strigoi=subject, start=room_name(start))


def strigoi_step_card(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    strigoi = str(facts.get("strigoi", ""))
    start, to = facts.get("from"), facts.get("to")
    moved = isinstance(to, str) and start != to
    name, subject = strigoi_label(strigoi), strigoi_subject(strigoi)
    # the actor of the drawn token first, then where it goes or why it stays (issue 40)
    headline = capital_first(
        tr("{lead}: {what}.").format(
            lead=_lead(catalog, facts), what=_step_clause(announcement, moved)
        )
    )
    hero = facts.get("hero")
    wounds = as_int(facts.get("wounds"))
    figures: tuple[Figure, ...]
    todo: list[str] = []
    if moved:
        todo.append(put_strigoi(strigoi, str(to)))
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
    if isinstance(hero, str) and hero in as_list(facts.get("asked")):
        # R-LOS-2: Protection is asked before any wound is drawn, so the card tells the
        # attack, not wounds taken (issue 40: "takes 1 wound" read before "may protect")
        figures = (
            Figure(
                capital_first(
                    ngettext(
                        "{strigoi} attacks {hero}: {count} wound, unless blocked.",
                        "{strigoi} attacks {hero}: {count} wounds, unless blocked.",
                        wounds,
                    ).format(strigoi=subject, hero=hero_name(hero), count=wounds)
                )
            ),
        )
        todo.append(may_protect(hero))
    elif isinstance(hero, str):  # nothing to block with, or on the landing centre (R-LOS-4)
        figures = (
            Figure(
                ngettext(
                    "{hero} is attacked and takes {count} wound.",
                    "{hero} is attacked and takes {count} wounds.",
                    wounds,
                ).format(hero=hero_name(hero), count=wounds)
            ),
        )
    else:  # it saw nobody or did not move (R-LOS-2, R-TEL-7): the headline said why
        figures = (Figure(tr("Nobody is attacked.")),)
    why, rules = why_of(announcement)
    # spoken and bannered: the headline, who is hit, and what the table must do beyond moving
    # the figure the headline names (a ladder to take off, a hero to move away)
    said = [headline, *(f.value for f in figures), *todo[1 if moved else 0 :]]
    return Card(
        name,
        headline,
        figures,
        _source(catalog, facts),
        tuple(todo),
        why,
        rules,
        tr("Figures moved") if moved else tr("Done"),
        unique_sentences(sentence(x) for x in said if not asks(x, hero)) or headline,
    )


def _curse_lead(facts: dict[str, object]) -> str:
    """The curse's lead: the book letter of the first player's card that moves it (R-CUR-1)."""
    letter = facts.get("letter")
    if isinstance(letter, str):
        return tr("Curse, book {letter}").format(letter=letter)
    return tr("Curse")


def curse_card(catalog: Catalog, announcement: Announcement) -> Card:
    facts = announcement.facts
    strigoi, room = str(facts.get("strigoi", "")), str(facts.get("room", ""))
    heroes = [str(h) for h in as_list(facts.get("heroes"))]
    landed = [str(h) for h in as_list(facts.get("landed"))]
    subject = strigoi_subject(strigoi)
    # the curse with its move (issue 40): where the Strigoi goes, then whom it hits
    headline = capital_first(
        tr("{lead}: {strigoi} teleports to the {room} and curses it.").format(
            lead=_curse_lead(facts), strigoi=subject, room=room_name(room)
        )
    )
    if heroes:  # cursed, not yet wounded: Protection is asked first (R-CUR-1)
        figures = (
            Figure(
                ngettext(
                    "{heroes} is cursed: 1 wound.", "{heroes} are cursed: 1 wound each.",
                    len(heroes),
                ).format(heroes=heroes_words(heroes))
            ),
        )  # fmt: skip
    else:
        figures = (Figure(tr("Nobody is in the cursed room.")),)
    todo = [put_strigoi(strigoi, room)]
    asked = set(as_list(facts.get("asked")))
    protect = [h for h in heroes if h not in landed and h in asked]
    if protect:
        todo.append(
            ngettext(
                "{heroes} may block it with Protection: the app asks next.",
                "{heroes} may each block it with Protection: the app asks next.",
                len(protect),
            ).format(heroes=heroes_words(protect))
        )
    moved_away = [
        tr("{hero}: move 1 blood point to the Inferno; the app asks where {hero} goes.").format(
            hero=hero_name(hero)
        )
        for hero in landed
    ]
    todo += moved_away
    words = unique_sentences([headline, figures[0].value, *moved_away])
    why, rules = why_of(announcement)
    return Card(
        tr("Curse"),
        headline,
        figures,
        _source(catalog, facts),
        tuple(todo),
        (sentence(f"{headline} {figures[0].value}"), *why[1:]),
        rules,
        tr("Figures moved"),
        words,
    )


def skipped_curse_card(announcement: Announcement) -> Card:
    """No phase 3 (R-RND-4, R-CUR-1): why, in the headline's one short clause."""
    facts = announcement.facts
    why = facts.get("why")
    strigoi = strigoi_subject(str(facts.get("strigoi", "master")))
    todo: tuple[str, ...] = ()
    if why == "attacked":
        headline = tr("No curse this round: a Strigoi attacked.")
        todo = (tr("Take the attack marker off the Master card."),)
        rules: tuple[str, ...] = ("R-RND-4",)
    elif why == "no_strigoi":
        headline = tr(
            "No curse in round 1: the Strigoi come onto the board at the start of round 2."
        )
        rules = ("R-RND-4", "R-SET-3")
    elif why == "ladder":  # the curse's teleport hit a ladder: it is gone from the table
        headline = tr(
            "No curse this round: book {letter} sends {strigoi} at {ladder}, which is destroyed."
        ).format(
            letter=facts.get("letter") or "?",
            strigoi=strigoi,
            ladder=ladder_name(str(facts.get("ladder", ""))),
        )
        todo = (tr("Take the destroyed ladder off the board."),)
        rules = ("R-CUR-1", "R-TEL-4")
    else:
        headline = tr("No curse this round: book {letter} does not move {strigoi}.").format(
            letter=facts.get("letter") or "?", strigoi=strigoi
        )
        rules = ("R-CUR-1",)
    headline = capital_first(headline)
    reasons = tuple(sentence(_skip_reason(r)) for r in announcement.reasons) or (headline,)
    letter = _source_letter(facts)
    return Card(
        tr("Phase 3"),
        headline,
        (),
        letter,
        todo,
        reasons,
        rules,
        tr("Done"),
        unique_sentences([headline, *todo]),
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


def collapse_card(announcement: Announcement) -> Card:
    room = room_name(str(announcement.facts.get("room", "")))
    headline = sentence(tr("The platform of the {room} collapses").format(room=room))
    why, rules = why_of(announcement)
    return Card(
        tr("Collapse"),
        headline,
        (),
        "",
        (tr("Take the platform out of the {room}: it collapsed.").format(room=room),),
        why,
        rules,
        tr("Done"),
        unique_sentences(
            [headline, tr("Take the platform out of the {room}: it collapsed.").format(room=room)]
        ),
    )


def placed_card(announcement: Announcement) -> Card:
    """Round 2 begins: the Strigoi enter the fortress (R-SET-3). What the table must do comes
    first and is said whole: the voice names each figure and its room, as the card does."""
    facts = announcement.facts
    placed = facts.get("placed")
    rooms = {str(k): str(v) for k, v in placed.items()} if isinstance(placed, dict) else {}
    headline = tr("The Strigoi enter the fortress.")
    todo = [put_strigoi(strigoi, room) for strigoi, room in rooms.items()]
    for hero in as_list(facts.get("stepped_off")):
        todo.append(
            tr("{hero} stood on a starting centre and steps off: the app asks where to.").format(
                hero=hero_name(str(hero))
            )
        )
    why = tr(
        "None in round 1; in round 2 each enters on a platform with the Strigoi mark, "
        "drawn at random."
    )
    round_number = as_int(facts.get("round")) or 2
    return Card(
        tr("Round {round}").format(round=round_number),
        headline,
        (),
        tr("A random draw chose which Strigoi enters on which marked platform."),
        tuple(todo),
        (why,),
        ("R-SET-3",),
        tr("Strigoi placed"),
        unique_sentences([headline, *todo]),
    )



__all__ = [
    "collapse_card",
    "curse_card",
    "placed_card",
    "put_strigoi",
    "skipped_curse_card",
    "strigoi_step_card",
]
