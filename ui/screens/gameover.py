"""Game over: who won and why, and a short summary of the game."""

from __future__ import annotations

from companion.app.i18n import ntr, tr
from companion.app.labels import defeated_times, game_over_reason, strigoi_label
from companion.engine.explain import hero_name
from companion.engine.game import events as e
from companion.engine.game.state import GameState
from ui.screens.page import PageScreen


class GameOverScreen(PageScreen):
    def show(self, state: GameState, over: e.GameOver | None) -> None:
        won = over is not None and over.winner == "heroes"
        self.clear(tr("Victory!") if won else tr("The Strigoi win"))
        if over is not None:
            self.text(game_over_reason(over.reason))
        self.text(
            tr("Rounds: {round} · Altar {altar} · Inferno {inferno}").format(
                round=state.round, altar=state.altar, inferno=state.inferno
            )
        )
        for h in sorted(state.heroes, key=lambda h: h.seat):
            wounds, rewards = len(h.wounds), len(h.reward_cards) + len(h.reward_tokens)
            self.text(
                tr("{hero}: {wounds}, {defeated}, {rewards}").format(
                    hero=hero_name(h.hero),
                    wounds=ntr("{count} wound", "{count} wounds", wounds).format(count=wounds),
                    defeated=defeated_times(h.defeated),
                    rewards=ntr("{count} reward", "{count} rewards", rewards).format(count=rewards),
                )
            )
        for name in sorted(state.strigoi_wounds):
            wounds = state.strigoi_wounds[name]
            counted = ntr("{count} wound", "{count} wounds", wounds).format(count=wounds)
            if name in state.destroyed:
                line = tr("{strigoi}: {wounds}, destroyed")
            else:
                line = tr("{strigoi}: {wounds}")
            self.text(line.format(strigoi=strigoi_label(name), wounds=counted))
        self.button(tr("Home"), lambda: self.go_back())
