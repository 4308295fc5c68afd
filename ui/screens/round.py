"""The round, driven by the engine: what the game waits for, the legal commands (moves as
highlighted spaces on the fortress: tap one; private or long lists behind one group button),
counters always visible, the fight helper, the threat map, "Why?" for the last Strigoi result,
a manual position fix, Undo, and the announcement banner. A card choice stays hidden until all
players have chosen (R-RND-1)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.app.announce import Announcement
from companion.app.tracking import TableStatus
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.context import ALTAR_NEEDED, INFERNO_LOSES, GameRules
from companion.engine.game.flow import fight_odds
from companion.engine.game.state import GameState, Task
from companion.engine.hexgrid import Cell
from companion.engine.threat import Level, threat_map
from companion.errors import CompanionError
from ui import theme
from ui.fortress_view import FortressView, OverlayLine
from ui.i18n import tr
from ui.labels import (
    PHASES,
    action_text,
    command_label,
    difference_text,
    group_label,
    item_name,
    render,
    strigoi_label,
)
from ui.option_groups import Group, ProtectPicker, arrange

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

Run = Callable[[c.Command], None]


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
            hero=hero_name(h.hero), wounds=len(h.wounds), cards=len(h.hand)
        )
        if state.phase == "initiative" and h.chosen:
            line += " · " + tr("card chosen")  # which card stays hidden until all chose
        lines.append(line)
    strigoi = ", ".join(
        f"{strigoi_label(n)} {state.strigoi_wounds.get(n, 0)}" for n in sorted(state.strigoi)
    )
    if strigoi:
        lines.append(tr("Strigoi wounds: {list}").format(list=strigoi))
    return "\n".join(lines)


def step_lines(rules: GameRules, announcement: Announcement) -> list[OverlayLine]:
    """The teleport arrow (room to room) and the line of sight (landing centre to the target),
    from the facts the engine's step put in the announcement."""
    facts = announcement.facts
    fortress = rules.fortress
    lines: list[OverlayLine] = []
    start, to = facts.get("from"), facts.get("to")
    if isinstance(start, str) and isinstance(to, str) and start != to:
        lines.append(([fortress.centre(start), fortress.centre(to)], theme.STRIGOI, True))
    target = facts.get("target_cell")
    if isinstance(to, str) and isinstance(target, list | tuple) and len(target) == 2:
        cell = (int(target[0]), int(target[1]))
        lines.append(([fortress.centre(to), cell], (1.0, 0.85, 0.2, 1.0), True))
    return lines


class RoundScreen(Screen):
    banner_text = StringProperty("")
    status_text = StringProperty("")
    waiting_text = StringProperty("")
    can_explain = BooleanProperty(False)
    threat_on = BooleanProperty(False)
    fixing = BooleanProperty(False)
    alert_text = StringProperty("")  # a lasting difference between table and game: Resync
    alerts = NumericProperty(0)

    def attach_board(self, view: FortressView) -> None:
        self.view = view
        self.open_group: tuple[str, ...] | None = None
        self.picker: ProtectPicker | None = None
        self.showing_why = False
        self.last: Announcement | None = None
        self.step_overlay: list[OverlayLine] = []
        self.stale = True  # no options until the app shows the first ones
        self._pool: list[Widget] = []  # option buttons off screen, ready to be reused
        self.table = TableStatus((), (), ())
        self.focused = -1  # the option the Pi's Next button moved to (-1: none)
        self.by_hand: Callable[[], None] = lambda: None
        self.fix_hero: str | None = None  # Fix position for this hero (else the one waited for)
        self.choices: tuple[str, list[tuple[str, Callable[[], None]]]] | None = None
        self.ids.board_holder.clear_widgets()
        self.ids.board_holder.add_widget(view)

    # ----- what the app calls ------------------------------------------------------------------
    def show_options(
        self,
        rules: GameRules,
        state: GameState,
        task: Task | None,
        waiting: str,
        options: list[c.Command],
        run: Run,
    ) -> None:
        self.rules, self.state, self.task, self.options = rules, state, task, options
        self.waiting, self.run = waiting, run
        self.stale = False
        self.status_text = status_text(state)
        self.waiting_text = tr("Waiting for: {what}").format(what=waiting)
        if self.fixing:
            self.waiting_text = tr("Tap the space where {hero} really stands.").format(
                hero=hero_name(self.fix_hero or self._waiting_hero() or "-")
            )
        keys = {getattr(item, "key", None) for item in arrange(options)}
        if self.open_group not in keys:
            self.open_group = None
        protects = tuple(o for o in options if isinstance(o, c.Protect))
        if not protects:
            self.picker = None
        elif self.picker is None or self.picker.options != protects:
            self.picker = ProtectPicker(protects)
        self._board()
        self._fill()

    def _choose(self, command: c.Command) -> None:
        if not self.stale:  # a second tap before the new options are shown is not a choice
            self.run(command)

    def show_table(self, status: TableStatus, by_hand: Callable[[], None]) -> None:
        """The table's open actions (they hold the game's options back until the table has
        followed) and its alerts (a strip that opens the Resync screen)."""
        changed = status.actions != self.table.actions
        self.table, self.by_hand = status, by_hand
        self.alerts = len(status.alerts)
        if status.alerts:
            first = difference_text(self.rules.fortress, status.alerts[0])
            more = len(status.alerts) - 1
            self.alert_text = tr("The table differs: {what}{more} Tap to resync.").format(
                what=first, more=f" (+{more})" if more else ""
            )
        else:
            self.alert_text = ""
        if changed and hasattr(self, "options"):
            self._fill()

    def show_choices(self, title: str, choices: list[tuple[str, Callable[[], None]]]) -> None:
        """A short list to pick from (a tapped reward card's uses, what a new tag is), over the
        options until one is picked, Close is tapped or a command is made."""
        self.choices = (title, choices)
        self._fill()

    def close_choices(self) -> None:
        self.choices = None
        self._fill()

    def announced(self, announcement: Announcement, headline: str) -> None:
        self.banner_text = headline
        if announcement.kind == "strigoi_step":
            self.last = announcement
            self.step_overlay = step_lines(self.rules, announcement)
            self.can_explain = bool(announcement.reasons)

    def command_done(self) -> None:
        """A new command: the last step's arrow and sight line go, "Why?" stays available. The
        options on screen belong to the state before it until the app shows the new ones."""
        self.stale = True
        self.step_overlay = []
        self.showing_why = False
        self.choices = None

    # ----- the board ---------------------------------------------------------------------------
    def _moves(self) -> dict[Cell, c.Move]:
        moves: dict[Cell, c.Move] = {}
        for command in self.options:
            if isinstance(command, c.Move):
                cell = (command.to[0], command.to[1])
                if cell not in moves or moves[cell].stealth:
                    moves[cell] = command  # a plain move where both exist
        return moves

    def _board(self) -> None:
        view = self.view
        moves = {} if self.fixing else self._moves()
        view.highlight = set(moves)
        view.on_cell = self._on_cell
        levels = self._threat_levels() if self.threat_on else {}
        view.tints = {cell: theme.THREAT[level] for cell, level in levels.items()}
        view.crosses = {cell for cell, level in levels.items() if level == "deadly"}
        view.lines = self.step_overlay

    def _on_cell(self, cell: Cell) -> None:
        if self.fixing:
            hero = self.fix_hero or self._waiting_hero()
            self.fixing = False
            self.fix_hero = None
            if hero is not None:
                self._choose(c.SetHeroPosition(hero=hero, to=cell))  # R: the table's reality wins
            return
        moves = self._moves()
        if cell in moves:
            self._choose(moves[cell])

    def _waiting_hero(self) -> str | None:
        if self.task is not None and self.task.hero is not None:
            return self.task.hero
        return self.state.active_hero

    def _threat_levels(self) -> dict[Cell, Level]:
        """The engine's threat map for the hero the game waits for (the mover), on the
        situation the app already built for the board view."""
        hero = self._waiting_hero()
        current = self.view.situation
        if hero is None or not current.strigoi:
            return {}
        try:
            current.hero(hero)
        except (KeyError, CompanionError):
            return {}
        threats = threat_map(
            self.rules.fortress,
            current,
            hero,
            None,
            self.rules.catalog.damage(),
            self.rules.options.rules,
        )
        return {cell: threats.level(cell) for cell in threats.cells}

    def toggle_threat(self) -> None:
        self.threat_on = not self.threat_on
        self._board()
        self.view.redraw()

    def fix_position_of(self, hero: str) -> None:
        """Fix position for this hero (the Resync screen: a figure the readers miss)."""
        self.fix_hero = hero
        self.fixing = True
        self.show_options(self.rules, self.state, self.task, self.waiting, self.options, self.run)
        self.view.redraw()

    def toggle_fix(self) -> None:
        self.fixing = not self.fixing
        self.fix_hero = None
        self.show_options(self.rules, self.state, self.task, self.waiting, self.options, self.run)
        self.view.redraw()

    def toggle_why(self) -> None:
        self.showing_why = not self.showing_why and self.last is not None
        self._fill()

    # ----- the options -------------------------------------------------------------------------
    def _fill(self) -> None:
        box = self.ids.options
        self._pool += [w for w in box.children if getattr(w, "pooled", False)]
        box.clear_widgets()
        self.focused = -1
        if self.showing_why and self.last is not None:
            self._why(box)
            return
        if self.table.actions:
            self._table_actions(box)
            return
        if self.choices is not None:
            title, choices = self.choices
            box.add_widget(Factory.InfoLabel(text=title))
            for label, action in choices:
                self._button(box, label, action)
            self._button(box, tr("Close"), self.close_choices, muted=True)
            return
        items = arrange([o for o in self.options if not isinstance(o, c.Move)])
        if self.open_group is not None:
            group = next(i for i in items if isinstance(i, Group) and i.key == self.open_group)
            for command in group.commands:
                choose = lambda command=command: self._choose(command)  # noqa: E731
                label = command_label(command, self.rules.catalog, self.rules.fortress)
                self._button(box, label, choose)
            self._button(box, tr("Close"), self._close_group, muted=True)
            return
        if self.picker is not None:
            self._protect(box, self.picker)
        for item in items:
            if isinstance(item, Group):
                self._button(box, group_label(item.key), lambda key=item.key: self._open(key))
            elif isinstance(item, c.Protect):
                continue  # offered by the picker
            else:
                text = command_label(item, self.rules.catalog, self.rules.fortress)
                if isinstance(item, c.Fight):
                    text += self._odds(item)
                self._button(box, text, lambda item=item: self._choose(item))

    def _table_actions(self, box: BoxLayout) -> None:
        """What the table must do before the game goes on; the readers tick it off, or a player
        says it is done (a table without tags)."""
        box.add_widget(Factory.InfoLabel(text=tr("At the table:")))
        fortress = self.rules.fortress
        for action in self.table.actions:
            text = action_text(fortress, action)
            if action.sensed:
                text += " " + tr("(the readers will see it)")
            box.add_widget(Factory.InfoLabel(text="• " + text))
        label = tr("Done by hand") if len(self.table.actions) == 1 else tr("All done by hand")
        self._button(box, label, self.by_hand, commit=True)

    # ----- the Pi's buttons --------------------------------------------------------------------
    def option_widgets(self) -> list[Widget]:
        box = self.ids.options
        return [w for w in reversed(box.children) if getattr(w, "pooled", False)]

    def focus_next(self) -> None:
        """Next: move the highlight to the following option (round and round)."""
        buttons = self.option_widgets()
        if not buttons:
            return
        self.focused = (self.focused + 1) % len(buttons)
        for i, button in enumerate(buttons):
            button.background_color = theme.FOCUS if i == self.focused else theme.PANEL

    def primary(self) -> bool:
        """Confirm: the highlighted option, else the screen's one committing button (done by
        hand, the protection picker's choice), else the only option. False: nothing to do."""
        buttons = self.option_widgets()
        chosen = None
        if 0 <= self.focused < len(buttons):
            chosen = buttons[self.focused]
        else:
            commits = [b for b in buttons if getattr(b, "commit", False)]
            if len(commits) == 1:
                chosen = commits[0]
            elif len(buttons) == 1:
                chosen = buttons[0]
        if chosen is None:
            return False
        chosen.action()
        return True

    def _odds(self, fight: c.Fight) -> str:
        """The fight helper: strength with these rewards against the monster's (engine)."""
        try:
            strength, monster = fight_odds(self.rules, self.state, fight)
        except CompanionError:
            return ""
        verdict = tr("wins") if strength >= monster else tr("loses")
        return " · " + tr("strength {strength} vs {monster}: {verdict}").format(
            strength=strength, monster=monster, verdict=verdict
        )

    def _protect(self, box: BoxLayout, picker: ProtectPicker) -> None:
        task = self.task
        wounds = task.wounds if task is not None else 0
        hero = hero_name(picker.options[0].hero)
        box.add_widget(
            Factory.InfoLabel(
                text=tr("{hero}: {wounds} wound(s) coming. Block with:").format(
                    hero=hero, wounds=wounds
                )
            )
        )
        for source in picker.sources:
            mark = "[x] " if source in picker.chosen else "[  ] "
            name = (
                tr("the played card's Protection")
                if source == "card"
                else item_name(self.rules.catalog, source)
            )
            self._button(box, mark + name, lambda source=source: self._toggle(source))
        command = picker.command()
        if command is not None:
            text = (
                tr("{hero}: take the wounds").format(hero=hero)
                if not command.sources
                else tr("{hero}: block with the chosen").format(hero=hero)
            )
            self._button(box, text, lambda: self._choose(command), commit=True)
        else:
            box.add_widget(Factory.InfoLabel(text=tr("The rules do not allow this combination.")))

    def _toggle(self, source: str) -> None:
        if self.picker is not None:
            self.picker.toggle(source)
        self._fill()

    def _why(self, box: BoxLayout) -> None:
        assert self.last is not None
        box.add_widget(Factory.InfoLabel(text=tr("Why?")))
        app = App.get_running_app()
        for reason in self.last.reasons:  # each opens its rule in the rules reference
            self._button(
                box,
                f"{reason.rule}: {render(reason)}",
                lambda rule=reason.rule: app.open_rules(rule),
            )
        self._button(box, tr("Close"), self.toggle_why, muted=True)

    def _open(self, key: tuple[str, ...]) -> None:
        self.open_group = key
        self._fill()

    def _close_group(self) -> None:
        self.open_group = None
        self._fill()

    def _button(
        self,
        box: BoxLayout,
        text: str,
        action: Callable[[], None],
        muted: bool = False,
        commit: bool = False,
    ) -> None:
        if self._pool:  # reused: building a button (kv rules, a new text texture) is slow
            button = self._pool.pop()
            button.text = text
        else:
            button = Factory.OptionButton(text=text)
            button.pooled = True
            button.bind(on_release=lambda b: b.action())
        button.action = action
        button.commit = commit  # the picker's "block" button: what a scripted player taps
        button.background_color = theme.BACKGROUND if muted else theme.PANEL
        box.add_widget(button)
