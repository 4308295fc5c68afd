"""The round, driven by the engine: what the game waits for, every legal command as a button
(moves as highlighted spaces on the fortress: tap one), counters always visible, Undo, and the
announcement banner. A hidden card choice shows only that a player has chosen (R-RND-1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.engine.game import commands as c
from companion.engine.game.context import ALTAR_NEEDED, INFERNO_LOSES
from companion.engine.game.state import GameState
from companion.engine.hexgrid import Cell
from ui.fortress_view import FortressView
from ui.i18n import tr
from ui.labels import PHASES, command_label

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def status_text(state: GameState) -> str:
    players = state.players
    lines = [
        tr("Round {round} · {phase} · Altar {altar}/{needed} · Inferno {inferno}/{loses}").format(
            round=state.round,
            phase=tr(PHASES.get(state.phase, state.phase)),
            altar=state.altar,
            needed=ALTAR_NEEDED[players],
            inferno=state.inferno,
            loses=INFERNO_LOSES[players],
        )
    ]
    for h in sorted(state.heroes, key=lambda h: h.seat):
        line = tr("{hero}: {wounds} wound(s), {cards} card(s)").format(
            hero=h.hero, wounds=len(h.wounds), cards=len(h.hand)
        )
        if state.phase == "initiative" and h.chosen:
            line += " · " + tr("card chosen")  # which card stays hidden until all chose
        lines.append(line)
    strigoi = ", ".join(f"{n} {state.strigoi_wounds.get(n, 0)}" for n in sorted(state.strigoi))
    if strigoi:
        lines.append(tr("Strigoi wounds: {list}").format(list=strigoi))
    return "\n".join(lines)


class RoundScreen(Screen):
    banner_text = StringProperty("")
    status_text = StringProperty("")
    waiting_text = StringProperty("")

    def attach_board(self, view: FortressView) -> None:
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)

    def show_options(
        self,
        state: GameState,
        waiting: str,
        options: list[c.Command],
        run: Callable[[c.Command], None],
        view: FortressView,
    ) -> None:
        self.status_text = status_text(state)
        self.waiting_text = tr("Waiting for: {what}").format(what=waiting)
        moves: dict[Cell, c.Move] = {}
        for command in options:
            if isinstance(command, c.Move):
                cell = (command.to[0], command.to[1])
                if cell not in moves or moves[cell].stealth:
                    moves[cell] = command  # a plain move where both exist
        view.highlight = set(moves)
        view.on_cell = lambda cell: run(moves[cell]) if cell in moves else None
        box = self.ids.options
        box.clear_widgets()
        for command in options:
            if isinstance(command, c.Move):
                continue
            button = Factory.OptionButton(text=command_label(command))
            button.bind(on_release=lambda _b, command=command: run(command))
            box.add_widget(button)
