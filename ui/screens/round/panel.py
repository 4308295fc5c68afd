"""The round screen's panel: the widgets it holds for each thing shown there (the options,
a confirmation, the Protection picker, Why?, More, the Fix menu, what the table must do first,
the heroes' wounds). A mixin of RoundScreen (round.py), which decides what is shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from kivy.factory import Factory
from kivy.uix.layout import Layout

from companion.app.story.cards import why_rows
from companion.app.web.seat_guide import PRIVATE_TASKS
from companion.app.words.command_labels import command_label, group_label
from companion.app.words.i18n import ntr, tr
from companion.app.words.names import item_name, strigoi_subject
from companion.app.words.table_texts import table_line
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from companion.engine.game.queries import fight_odds
from companion.errors import CompanionError
from ui import theme
from ui.screens.round.board import MODE_NAMES, FixTarget
from ui.screens.round.host import RoundHost
from ui.screens.round.status import seated
from ui.widgets.busy import Busy
from ui.widgets.option_groups import Group, ProtectPicker, arrange
from ui.widgets.scrolling import scroll_view_of, to_top
from ui.widgets.touch_guard import TouchGuard

PanelKind = Literal[
    "why", "more", "table", "confirm", "fix", "fixing", "choices", "group", "options"
]

#: lists a player opened, or must work through, before the game goes on: the status lines
#: above them fold away while they show
LISTS_FIRST: frozenset[PanelKind] = frozenset({"why", "more", "table", "fix", "choices", "group"})
#: menus a player opened from the tool row: Undo and Redo fold away too while they show
MENUS: frozenset[PanelKind] = frozenset({"why", "more", "fix"})


class RoundPanel:
    host: RoundHost  # what the screen may call (the App gives it)
    working: Busy  # the work its buttons start, behind a busy sign
    guard: TouchGuard  # what just moved holds back a touch
    """The panel's widgets; `self` is the RoundScreen (its ids, options and state)."""

    #: (hero, event count): a private decision the table chose to make here, not on the phone
    decide_here: tuple[str, int] | None = None

    def _fix_menu(self, box: Layout) -> None:
        self._label(box, tr("What is not as on the table?"))
        for hero in seated(self.state):
            self._button(
                box,
                tr("Where {hero} stands").format(hero=hero_name(hero.hero)),
                lambda h=hero.hero: self._fix(FixTarget("hero", h)),
            )
        for name in sorted(self.state.strigoi):
            self._button(
                box,
                tr("Where {strigoi} stands").format(strigoi=strigoi_subject(name)),
                lambda n=name: self._fix(FixTarget("strigoi", n)),
            )
        self._button(box, tr("A platform's rotation"), lambda: self._fix(FixTarget("rotation")))
        self._button(box, tr("Close"), self.toggle_fix, muted=True, beside=True)

    def _more(self, box: Layout) -> None:
        app = self.host

        def closing(action: Callable[[], None]) -> Callable[[], None]:
            def run() -> None:
                self.showing_more = False
                action()
                self._fill()

            return run

        threat = tr("Threat map: on") if self.threat_on else tr("Threat map: off")
        self._button(box, threat, closing(self.toggle_threat))
        self._button(box, tr("Game log"), closing(app.open_log))
        self._button(box, tr("Rules"), closing(lambda: app.open_rules()))
        self._button(box, tr("Table"), closing(app.open_table))
        size = tr("Text size: {percent}%").format(percent=round(app.text_scale * 100))
        self._button(box, size, closing(app.step_text_size))  # the next step, then the first
        self._button(box, tr("Home"), closing(lambda: app.show("home")))
        self._button(box, tr("Close"), self.open_more, muted=True, beside=True)

    def _fill(self) -> None:
        box = self.ids.options
        for holder in (box, self.ids.commit_box):
            self._pool += [w for w in holder.children if getattr(w, "pooled", False)]
            for widget in holder.children:
                kind = getattr(widget, "label_kind", None)
                if kind is not None:
                    self._labels[kind].append(widget)
            holder.clear_widgets()
        self.focused = -1
        self._show_card()
        kind = self._panel_kind()
        # a list the player opened takes the status lines' room: at 800x480 they would leave
        # it little more than a row
        # the Protection picker too (issue 40): at 800x480 with large text its list was cut
        self.list_first = kind in LISTS_FIRST or (kind == "options" and self.picker is not None)
        self.menu_open = kind in MENUS
        box.cols = 2 if kind == "more" else 1
        shown = (kind, self.state.event_count)
        if shown != self._panel_shown:  # another list, or the game moved on: from its top
            self._panel_shown = shown
            view = scroll_view_of(box)
            if view is not None:
                to_top(view)
        if kind == "why":
            self._why(box)
        elif kind == "more":
            self._more(box)
        elif kind == "table":
            self._table_actions(box)
        elif kind == "confirm":
            assert self.choice.pending is not None
            self._confirm(box, self.choice.pending)
        elif kind == "fix":
            self._fix_menu(box)
        elif kind == "fixing":
            self._button(box, tr("Cancel"), self.toggle_fix, muted=True)
        elif kind == "choices":
            assert self.choices is not None
            title, choices = self.choices
            self._label(box, title)
            for label, action in choices:
                self._button(box, label, action)
            self._button(box, tr("Close"), self.close_choices, muted=True)
        else:
            self._options(box)

    def _panel_kind(self) -> PanelKind:
        """What the panel's list shows, first match wins."""
        if self.showing_why and self.last is not None:
            return "why"
        if self.showing_more:
            return "more"
        if self.table.actions:
            return "table"
        if self.choice.pending is not None:
            return "confirm"
        if self.fixing:
            return "fix" if self.choice.fix is None else "fixing"
        if self.choices is not None:
            return "choices"
        return "group" if self.open_group is not None else "options"

    def _options(self, box: Layout) -> None:
        modes = self.choice.ordered_modes()
        if len(modes) > 1:  # what a tap on the board does: move, Leap, Pack...
            for mode in modes:
                text = tr(MODE_NAMES[mode[0]])
                if mode[1] and mode[1] != "card":
                    text += " · " + item_name(self.rules.catalog, mode[1])
                mark = "• " if mode == self.choice.mode else ""  # the glyph the font has
                self._button(box, mark + text, lambda m=mode: self._set_mode(m))
        items = arrange(self.options)
        if self.open_group is not None:
            group = next(i for i in items if isinstance(i, Group) and i.key == self.open_group)
            for command in group.commands:
                choose = lambda command=command: self._choose(command)  # noqa: E731
                label = command_label(command, self.rules.catalog, self.rules.fortress)
                self._button(box, label, choose)
            self._button(box, tr("Close"), self._close_group, muted=True)
            return
        deciding = self._deciding_on_phone()
        if deciding is not None:  # the hand stays on that player's phone (issue 41)
            self._label(box, tr("{hero} decides on their phone.").format(hero=deciding))
            self._button(box, tr("Decide here instead"), self._decide_here, muted=True)
            return
        if self.picker is not None:
            self._protect(box, self.picker)
        for item in items:
            if isinstance(item, Group) and item.key[0] == "choose":
                # the hero's panel asks "Only Roel looks — show?" first: one tap (or one that
                # landed on the wrong row) never shows a secret hand (R-RND-1)
                hero = item.key[1]
                label = group_label(item.key)
                if self.state.hero(hero).chosen is not None:  # changeable until the reveal
                    label = tr("{hero} has chosen a card: change it").format(hero=hero_name(hero))
                elif self._on_phone(hero):
                    label = tr("{hero} chooses on their phone (or here)").format(
                        hero=hero_name(hero)
                    )
                self._button(box, label, lambda hero=hero: self.open_hero(hero))
            elif isinstance(item, Group):
                self._button(box, group_label(item.key), lambda key=item.key: self._open(key))
            elif isinstance(item, c.Protect):
                continue  # offered by the picker
            else:
                text = command_label(item, self.rules.catalog, self.rules.fortress)
                if isinstance(item, c.Fight):
                    text += self._odds(item)
                self._button(box, text, lambda item=item: self._choose(item))

    def _on_phone(self, hero: str) -> bool:
        feed = self.host.web_feed
        return feed is not None and bool(feed.on_phone(hero))

    def _deciding_on_phone(self) -> str | None:
        """The printed name of the hero whose private decision (Protection, Shock) waits on
        their own phone, unless the table chose to decide it here for this step."""
        task = self.task
        if task is None or task.kind not in PRIVATE_TASKS or task.hero is None:
            return None
        if self.decide_here == (task.hero, self.state.event_count):
            return None
        return hero_name(task.hero) if self._on_phone(task.hero) else None

    def _decide_here(self) -> None:
        """The phone is lost or flat: the decision on the touchscreen, for this step only."""
        if self.task is not None and self.task.hero is not None:
            self.decide_here = (self.task.hero, self.state.event_count)
        self._fill()

    def _confirm(self, box: Layout, pending: c.Command) -> None:
        """The space chosen on the board, to confirm or cancel."""
        self._label(box, command_label(pending, self.rules.catalog, self.rules.fortress))
        here = tr("Fix it") if isinstance(pending, c.CORRECTIONS) else tr("Move here")
        if isinstance(pending, c.PlaceFightMarker):
            here = tr("Take it from here")
        self._button(box, here, self.confirm, commit=True)
        self._button(box, tr("Cancel"), self.cancel, muted=True, beside=True)

    def _table_actions(self, box: Layout) -> None:
        """What the table must do before the game goes on; the readers tick it off, or a player
        says it is done (a table without tags)."""
        fortress = self.rules.fortress
        lines = [table_line(fortress, action) for action in self.table.actions]
        if len(lines) == 1:  # one sentence, one row: a heading line less on a small panel
            self._label(box, tr("At the table:") + " " + lines[0])
        else:
            self._label(box, tr("At the table:"))
            for line in lines:
                self._label(box, "• " + line)
        label = tr("Done by hand") if len(self.table.actions) == 1 else tr("All done by hand")
        self._button(box, label, self.by_hand, commit=True)

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

    def _protect(self, box: Layout, picker: ProtectPicker) -> None:
        task = self.task
        wounds = getattr(task, "wounds", 1)  # a Shock is one to block (R-ABL Protection)
        hero = hero_name(picker.options[0].hero)
        coming = ntr(
            "{hero}: {wounds} wound coming. Block with:",
            "{hero}: {wounds} wounds coming. Block with:",
            wounds,
        )
        self._label(box, coming.format(hero=hero, wounds=wounds))
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
            text = command_label(command, self.rules.catalog, self.rules.fortress)
            self._button(box, text, lambda: self._choose(command), commit=True)
        else:
            self._label(box, tr("The rules do not allow this combination."))

    def _toggle(self, source: str) -> None:
        if self.picker is not None:
            self.picker.toggle(source)
        self._fill()

    def _why(self, box: Layout) -> None:
        """Why?, in plain sentences, one button each: a tap opens the rule it comes from in the
        rules reference (the rule's id never shows in the sentence)."""
        assert self.last is not None
        rows = why_rows(self.rules.catalog, self.last)
        ruled = any(rule for _, rule in rows)
        self._label(box, tr("Why? Tap a line to read its rule.") if ruled else tr("Why?"))
        app = self.host
        for sentence, rule in rows:
            first = rule.split()[0] if rule else None
            self._button(
                box,
                sentence,
                (lambda r=first: app.open_rules(r)) if first else (lambda: None),
            )
        self._button(box, tr("Close"), self.toggle_why, muted=True, beside=True)

    def _open(self, key: tuple[str, ...]) -> None:
        self.open_group = key
        self._fill()

    def _close_group(self) -> None:
        self.open_group = None
        self._fill()

    def _show_wounds(self, chips: list[tuple[str, str, int]]) -> None:
        """The heroes' wounds as large counters in their figures' colours and marks (the
        legend on the board says whose mark is whose); rebuilt only when the heroes change."""
        box = self.ids.wounds
        if [w.hero for w in reversed(box.children)] != [hero for hero, _, _ in chips]:
            box.clear_widgets()
            for hero, _, _ in chips:
                chip = Factory.WoundChip()
                chip.hero = hero
                chip.bind(on_release=lambda w: self.open_hero(w.hero))
                self.guard.watch(chip)
                chip.chip_colour = theme.FIGURE_COLOURS.get(hero, theme.HERO)
                chip.color = theme.ink_on(chip.chip_colour)
                box.add_widget(chip)
        gap = " " if len(chips) <= 4 else "\u2009"  # five share 244 px at 800x480: a thin space
        for chip, (_hero, mark, wounds) in zip(reversed(box.children), chips, strict=True):
            chip.text = f"{mark}{gap}{wounds}"

    def _label(self, box: Layout, text: str, kind: str = "InfoLabel") -> None:
        """A text in the panel, reused (a new kv widget per card costs more than a frame)."""
        pool = self._labels[kind]
        if pool:
            label = pool.pop()
            label.text = text
        else:
            label = getattr(Factory, kind)(text=text)
            label.label_kind = kind
        box.add_widget(label)

    def _button(
        self,
        box: Layout,
        text: str,
        action: Callable[[], None],
        muted: bool = False,
        commit: bool = False,
        markup: bool = False,
        beside: bool = False,
    ) -> None:
        """A button of the list; `commit` (the primary action) and what is `beside` it go to
        the place below the list, always in sight."""
        if self._pool:  # reused: building a button (kv rules, a new text texture) is slow
            button = self._pool.pop()
            button.text = text
        else:
            button = Factory.OptionButton(text=text)
            button.pooled = True
            # a command it starts runs behind its busy sign (ui/widgets/busy.py)
            button.bind(on_release=lambda b: self.working.pressed(b, b.action))
            self.guard.watch(button, "text")  # moved or reworded: held back a moment
        button.markup = markup  # escaped by the caller (a pooled button may have had it on)
        button.action = action
        button.commit = commit  # a committing button: what Confirm and scripted players tap
        button.background_color = theme.BACKGROUND if muted else theme.PANEL
        if commit:  # below the list, in a place of its own: in sight however long the list
            button.background_color = theme.COMMIT
        if commit or beside:
            box = self.ids.commit_box
            if muted:  # a button of its own there, not a line of the list: seen as one
                button.background_color = theme.PANEL
        box.add_widget(button)
