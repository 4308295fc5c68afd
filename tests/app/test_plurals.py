"""Real plurals (issue 29): no counted word is written "wound(s)", "Wunde(n)", "ferita/e" or
"blessure(s)" in any catalog or source string; each counted message has every plural form its
language declares, and the engine's counted templates and the waiting texts pick the right one."""

from __future__ import annotations

import ast
import re

import pytest
from babel.messages.pofile import read_po

from companion.app.words import i18n
from companion.app.words.wording import describe, waiting_sentence
from companion.engine.explain import Reason
from companion.engine.game.tasks import ProtectTask
from tests.conftest import ROOT

LOCALE = ROOT / "companion" / "app" / "words" / "locale"
#: a word with its plural ending in brackets or after a slash: wound(s), Wunde(n), ferita/e
BRACKETED = re.compile(r"\w\((?:s|n|en|e|es|i)\)|\w/(?:e|i|s|n)\b")


def catalog_texts() -> list[tuple[str, str]]:
    found = []
    for path in [LOCALE / "armata.pot", *sorted(LOCALE.glob("*/LC_MESSAGES/armata.po"))]:
        with path.open("rb") as po:
            for message in read_po(po):
                for text in (message.id, message.string):
                    for part in text if isinstance(text, tuple) else (text,):
                        if part:
                            found.append((path.parent.parent.name, part))
    return found


def source_strings() -> list[tuple[str, str]]:
    found = []
    for package in ("companion", "ui"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found.append((str(path.relative_to(ROOT)), node.value))
    return found


def test_no_bracketed_plural_in_any_catalog() -> None:
    bad = [(where, text) for where, text in catalog_texts() if BRACKETED.search(text)]
    assert bad == []


def test_no_bracketed_plural_in_any_source_string() -> None:
    bad = [
        (where, text)
        for where, text in source_strings()
        if BRACKETED.search(text) and not text.startswith(('"""', "#")) and "\n" not in text
    ]
    assert bad == []


def test_the_check_sees_a_bracketed_plural() -> None:
    for text in ("1 wound(s)", "1 Wunde(n)", "1 ferita/e", "2 blessure(s)", "Belohnung(en)"):
        assert BRACKETED.search(text), text
    for text in ("1 wound", "2 wounds", "(the lit edge)", "Roel (initiative 6)", "A/B"):
        assert not BRACKETED.search(text), text


@pytest.mark.parametrize("language", ["en", "de", "it", "fr"])
def test_every_counted_message_has_each_plural_form_of_its_language(language: str) -> None:
    with (LOCALE / language / "LC_MESSAGES" / "armata.po").open("rb") as po:
        catalog = read_po(po, locale=language)
    forms = catalog.num_plurals
    for message in catalog:
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple) and len(message.string) == forms
            assert all(message.string), (language, message.id)


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 wound: card damage 1", "2 wounds: card damage 2"),
        ("de", "1 Verletzung: Kartenschaden 1", "2 Verletzungen: Kartenschaden 2"),
        ("it", "1 ferita: danno della carta 1", "2 ferite: danno della carta 2"),
        ("fr", "1 blessure : dégâts de la carte 1", "2 blessures : dégâts de la carte 2"),
    ],
)
def test_a_strigois_wounds_are_counted_in_each_language(language: str, one: str, two: str) -> None:
    i18n.set_language(language)
    try:
        for wounds, expected in ((1, one), (2, two)):
            reason = Reason("R-LOS-4", "wounds", {"wounds": wounds, "damage": wounds, "bonus": 0})
            text = reason.text(i18n.tr, None, i18n.ngettext).replace("\u00a0", " ")
            assert text.startswith(expected), text
        waiting = waiting_sentence(
            ProtectTask(hero="roel", wounds=1), i18n.tr, plural=i18n.ngettext
        )
        assert "(" not in waiting and "1" in waiting
    finally:
        i18n.set_language("en")


def test_without_a_translation_the_engine_counts_in_english() -> None:
    one = Reason("R-LOS-4", "wounds", {"wounds": 1, "damage": 1, "bonus": 0}).text()
    assert one == "1 wound: card damage 1 + token bonus 0"
    assert (
        describe(ProtectTask(hero="roel", wounds=3))
        == "Roel to block up to 3 wounds with Protection"
    )
