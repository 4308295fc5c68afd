"""Game over: who won and why, and a short summary of the game."""

from __future__ import annotations

from companion.app.i18n import tr
from companion.app.labels import strigoi_label
from companion.engine.explain import hero_name
from companion.engine.game import events as e
from companion.engine.game.state import GameState
from ui.screens.page import PageScreen


class GameOverScreen(PageScreen):
    def show(self, state: GameState, over: e.GameOver | None) -> None:
        won = over is not None and over.winner == "heroes"
        self.clear(tr("Victory!") if won else tr("The Strigoi win"))
        if over is not None:
            self.text(tr(over.reason))  # an N_ template of the engine
        self.text(
            tr("Rounds: {round} · Altar {altar} · Inferno {inferno}").format(
                round=state.round, altar=state.altar, inferno=state.inferno
            )
        )
        for h in sorted(state.heroes, key=lambda h: h.seat):
            self.text(
                tr(
                    "{hero}: {wounds} wound(s), defeated {defeated} time(s), {rewards} reward(s)"
                ).format(
                    hero=hero_name(h.hero),
                    wounds=len(h.wounds),
                    defeated=h.defeated,
                    rewards=len(h.reward_cards) + len(h.reward_tokens),
                )
            )
        for name in sorted(state.strigoi_wounds):
            destroyed = tr("destroyed") if name in state.destroyed else ""
            wounds = state.strigoi_wounds[name]
            self.text(f"{strigoi_label(name)}: {wounds} {tr('wound(s)')} {destroyed}".strip())
        self.button(tr("Home"), lambda: self.go_back())
