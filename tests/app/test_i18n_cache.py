"""The compiled catalogs follow the .po's content, not its age: another checkout (CI's fresh
clone) compiling an older catalog later must not shadow this one's translations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.app.words import i18n

PO = (
    'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    'msgid "Back"\nmsgstr "{}"\n'
)


def _write(folder: Path, text: str) -> Path:
    po = folder / "fr" / "LC_MESSAGES" / "armata.po"
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_text(PO.format(text), encoding="utf-8")
    return po


def test_a_newer_compiled_catalog_of_other_content_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(i18n, "_compiled", tmp_path / "compiled")
    first, second = tmp_path / "checkout-1", tmp_path / "checkout-2"
    old = _write(first, "Retour (ancien)")
    new = _write(second, "Retour")
    monkeypatch.setattr(i18n, "LOCALE_DIR", second)
    os.utime(new, (1_000, 1_000))  # this checkout's catalog is older on disk ...
    monkeypatch.setattr(i18n, "LOCALE_DIR", first)
    assert i18n.catalog("fr").gettext("Back") == "Retour (ancien)"  # ... than one compiled later
    monkeypatch.setattr(i18n, "LOCALE_DIR", second)
    assert i18n.catalog("fr").gettext("Back") == "Retour"
    assert old.exists()


def test_french_punctuation_never_starts_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """French puts a space before ? ! : ; — compiled as a no-break space, so a narrow button
    never shows "Pourquoi" over a lone "?"; the .po keeps plain spaces for the translators."""
    monkeypatch.setattr(i18n, "_compiled", tmp_path / "compiled")
    shipped = i18n.catalog("fr")
    assert shipped.gettext("Why?") == "Pourquoi\u00a0?"
    assert shipped.gettext(
        "{hero} takes a fight marker: tap a room to zoom in, then its space."
    ).startswith("{hero} prend un marqueur de combat\u00a0: touchez")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    _write(tmp_path, "« Retour » : oui ; non ! vraiment ?")
    assert i18n.catalog("fr").gettext("Back") == (
        "«\u00a0Retour\u00a0»\u00a0: oui\u00a0; non\u00a0! vraiment\u00a0?"
    )
    assert "\u00a0" not in (tmp_path / "fr" / "LC_MESSAGES" / "armata.po").read_text()
