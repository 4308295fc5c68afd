"""Game over: who won and why, and a short summary of the game."""

from __future__ import annotations

from companion.app.words.i18n import tr
from companion.app.words.status import game_over_reason, game_over_summary
from companion.engine.game import events as e
from companion.engine.game.state import GameState
from ui.screens.page import PageScreen


class GameOverScreen(PageScreen):
    def show(self, state: GameState, over: e.GameOver | None) -> None:
        won = over is not None and over.winner == "heroes"
        self.clear(tr("Victory!") if won else tr("The Strigoi win"))
        if over is not None:
            self.text(game_over_reason(over.reason))
        heroes = [
            (h.hero, len(h.wounds), h.defeated, len(h.reward_cards) + len(h.reward_tokens))
            for h in sorted(state.heroes, key=lambda h: h.seat)
        ]
        strigoi = [
            (name, state.strigoi_wounds[name], name in state.destroyed)
            for name in sorted(state.strigoi_wounds)
        ]
        for line in game_over_summary(state.round, state.altar, state.inferno, heroes, strigoi):
            self.text(line)
        self.button(tr("Home"), lambda: self.go_back())
