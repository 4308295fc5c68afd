"""Rules reference: the numbered rules (RULES.md, or its translation into the players' language),
opened at the rule an explanation cites or at the section of what the game waits for."""

from __future__ import annotations

from companion.app.words.i18n import current_language, tr
from companion.app.words.rules_words import readable, rule_heading
from companion.engine.game.registry import REGISTRY
from companion.rules_text import rules_reference, section_of
from ui.screens.page import PageScreen

#: Which section the Rules button opens for each kind of task the game waits for: the section
#: of the rules its module applies, from the engine's registry (never a copy that can drift)
TASK_SECTIONS = {kind: rule.section for kind, rule in REGISTRY.items()}


class RulesScreen(PageScreen):
    back_to = "round"

    def open(self, rule: str | None = None) -> None:
        """The section of `rule` (e.g. R-TEL-3, the cited rule marked), or the contents."""
        if rule is None:
            self.clear(tr("Rules"))
            for section in rules_reference(current_language()):
                self.button(
                    section.title,
                    lambda prefix=section.prefix: self.open(prefix),
                )
            return
        section = section_of(rule, current_language())  # the code finds it; players see words
        language = current_language()
        self.clear(section.title)
        for note in section.notes:
            self.text(readable(note, section.prefix, language))
        for rule_id, text in section.rules.items():
            heading = rule_heading(rule_id)  # "Rule 3", never the code R-TEL-3
            marked = rule_id == rule
            head = f"[b][color=ff5050]{heading}[/color][/b]" if marked else f"[b]{heading}[/b]"
            self.text(readable(text, section.prefix, language), markup=head + "  ")
        self.button(tr("All rules"), lambda: self.open(None))
