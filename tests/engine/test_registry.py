"""The task registry (issue 17): every kind of task has its module with a handler (or runs by
itself), a legal-command generator, rules that exist, a text in every language and a section
of the rules reference — so none of them can drift from the others."""

from __future__ import annotations

import random

import pytest
from babel.messages.pofile import read_po

from companion.app.words.wording import TASK_TEXTS, WAITING_TEXTS
from companion.engine.game import REGISTRY, TASK_TYPES, TaskKind, legal_commands
from companion.engine.game.rules.base import no_commands
from companion.rules_text import section_of
from tests.conftest import ROOT
from tests.support.table import Table

AUTOMATIC = {
    TaskKind.START_TURN,
    TaskKind.STRIGOI_RESOLVE,
    TaskKind.WOUNDS,
    TaskKind.END_TURN,
    TaskKind.CURSE,
    TaskKind.END_ROUND,
}
ABILITIES = ("Protection", "Heal", "Retrieval", "Mechanics", "Stealth", "Pack", "Leap")
ABILITIES += ("Recovery", "Gates of Hell", "Destruction")


def test_every_kind_has_its_module_and_variant() -> None:
    assert set(REGISTRY) == set(TaskKind) == set(TASK_TYPES)
    for kind, rule in REGISTRY.items():
        assert rule.kind == kind and rule.task is TASK_TYPES[kind] and rule.task.kind == kind
        assert rule.task.__module__ == "companion.engine.game.tasks"


@pytest.mark.parametrize("kind", list(TaskKind))
def test_a_kind_is_decided_by_a_person_or_runs_by_itself(kind: TaskKind) -> None:
    rule = REGISTRY[kind]
    if kind in AUTOMATIC:
        assert rule.auto is not None and not rule.handlers and rule.legal is no_commands
    else:
        assert rule.auto is None and rule.handlers and rule.legal is not no_commands


@pytest.mark.parametrize("kind", list(TaskKind))
def test_each_kind_cites_rules_that_exist(kind: TaskKind) -> None:
    rule = REGISTRY[kind]
    assert rule.rules
    for cited in rule.rules:
        if cited.startswith("R-ABL"):
            name = cited.removeprefix("R-ABL").strip()
            assert name == "" or name in ABILITIES, cited
            assert section_of("R-ABL").notes
        else:
            assert cited in section_of(cited).rules, cited
    assert section_of(rule.section).title  # the Rules button opens it


def test_each_kind_has_a_text_in_every_language() -> None:
    assert set(TASK_TEXTS) == set(TaskKind) == set(WAITING_TEXTS)
    for language in ("de", "it", "fr"):
        path = ROOT / "companion/app/words/locale" / language / "LC_MESSAGES" / "armata.po"
        with path.open("rb") as po:
            catalog = read_po(po, locale=language)
        for kind, text in WAITING_TEXTS.items():
            found = catalog.get(text)
            assert found is not None and found.string and "fuzzy" not in found.flags, (
                language,
                kind,
            )


def test_the_rules_screen_takes_its_sections_from_the_registry() -> None:
    from ui.screens.rules import TASK_SECTIONS

    assert {kind: rule.section for kind, rule in REGISTRY.items()} == TASK_SECTIONS


def test_every_legal_command_has_its_handler_in_the_kind_that_lists_it() -> None:
    """Legality and application live side by side: a generator never lists a command its own
    kind cannot apply (the simulator also checks each listed command is accepted)."""
    seen: set[TaskKind] = set()
    for seed in range(30):
        table = Table(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            state = table.state
            if state.phase == "over":
                break
            task = state.tasks[0]
            options = legal_commands(table.rules, state)
            assert options, task
            handlers = REGISTRY[task.kind].handlers
            assert all(type(x) in handlers for x in options), task
            seen.add(task.kind)
            table.do(rng.choice(options))
    assert len(seen) >= 10
