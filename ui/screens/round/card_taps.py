"""A tag tapped on the card reader during play, on the round screen: an action card chooses it
for its hero (R-RND-1; the engine refuses it out of phase), a reward card offers its uses to its
holder (R-REW-1), a hero's figure opens that hero's panel, a Strigoi's tells where it stands, and an
unknown tag asks what it is and registers it (companion/app/table/play_taps.py decides; this module
only shows)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.app.service import Outcome
from companion.app.session.game import GameSession
from companion.app.table.play_taps import commands_with, holder_of, registration_choices
from companion.app.table.resync import strigoi_of_figure
from companion.app.table.taps import Tap
from companion.app.words.command_labels import command_label
from companion.app.words.i18n import tr
from companion.app.words.names import figure_label, item_name, room_name
from companion.engine.components import Catalog
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.errors import CompanionError


class ShowsChoices(Protocol):
    """The round screen as a tap speaks through it."""

    banner_text: str

    def show_choices(self, title: str, choices: list[tuple[str, Callable[[], None]]]) -> None: ...
    def close_choices(self) -> None: ...
    def open_hero(self, hero: str, show_hand: bool = False, fix: bool = False) -> None: ...


class TapHost(Protocol):
    """What a tap in play may call (the App gives it): the round screen, the game's catalog,
    commands and the registration of a tag, all through the table service."""

    @property
    def catalog(self) -> Catalog: ...
    def round_screen(self) -> ShowsChoices: ...
    def execute(self, command: c.Command) -> Outcome: ...
    def register_tag(self, uid: str, kind: str, target: str) -> None: ...


def tapped_in_play(app: TapHost, session: GameSession, tap: Tap) -> None:
    screen = app.round_screen()
    binding = tap.binding
    if binding is None:
        ask_what_tag(app, session, tap.uid)
        return
    target = binding.target
    catalog = app.catalog
    if binding.kind in ("action_card", "advanced_card"):
        holder = holder_of(session.state, target)
        if holder is None:
            screen.banner_text = tr("{card} is in nobody's hand.").format(
                card=item_name(catalog, target)
            )
            return
        app.execute(c.ChooseCard(hero=holder, card=target))
    elif binding.kind == "reward_card":
        holder = holder_of(session.state, target)
        name = item_name(catalog, target)
        uses = commands_with(session.legal_commands(), target)
        if holder is None or not uses:
            screen.banner_text = tr("{card}: no use for it now.").format(card=name)
            return
        screen.show_choices(
            tr("{hero}: use {card}").format(hero=hero_name(holder), card=name),
            [
                (command_label(u, catalog, session.rules.fortress), lambda u=u: app.execute(u))
                for u in uses
            ],
        )
    elif binding.kind == "hero" and target in {h.hero for h in session.state.heroes}:
        # the hero's panel (story/hero_panel.py), with Fix position: the figure is in a
        # player's hand, perhaps because it stands somewhere else than the game says
        screen.open_hero(target, fix=True)
    elif binding.kind in ("hero", "strigoi"):
        screen.banner_text = figure_summary(session, target)


def figure_summary(session: GameSession, figure: str) -> str:
    """A Strigoi figure (or a hero not playing) tapped on the card reader: where it stands."""
    state = session.state
    name = strigoi_of_figure(state, figure)  # the Supreme stands on the flipped card's figure
    if name is None:
        return tr("{figure} is not on the board.").format(figure=figure_label(figure))
    return tr("{figure} stands in the {room}.").format(
        figure=figure_label(name), room=room_name(state.strigoi[name])
    )


def ask_what_tag(app: TapHost, session: GameSession, uid: str) -> None:
    """Registration in play: the tag is bound to what the player picks."""
    screen = app.round_screen()

    def bind(kind: str, target: str) -> None:
        try:
            app.register_tag(uid, kind, target)
        except CompanionError as refusal:
            screen.banner_text = str(refusal)
        else:
            screen.banner_text = tr("Tag registered.")
        screen.close_choices()

    choices = []
    for choice in registration_choices(session.state, app.catalog):
        if choice.kind in ("hero", "strigoi"):
            label = tr("the figure of {name}").format(name=figure_label(choice.target))
        else:
            label = item_name(app.catalog, choice.target)
        choices.append((label, lambda k=choice.kind, x=choice.target: bind(k, x)))
    screen.show_choices(tr("This tag is not registered yet. What is it?"), choices)
