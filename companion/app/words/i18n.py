"""Translations: gettext catalogs (`locale/<lang>/LC_MESSAGES/armata.po` beside this module,
managed with Babel), compiled to .mo on first use, switchable at runtime. English is the source
language. Hero, card and room names are never translated (they stay as printed)."""

from __future__ import annotations

import gettext
import hashlib
import io
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from companion.engine.explain import N_ as N_
from companion.errors import UnknownLanguage  # one marker for engine and app templates

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "armata"
LANGUAGES = {"en": "English", "de": "Deutsch", "it": "Italiano", "fr": "Français"}
#: espeak-ng voice per language
VOICES = {"en": "en-gb", "de": "de", "it": "it", "fr": "fr-fr"}

_compiled = Path(tempfile.gettempdir()) / "armata-locale"
#: catalogs compiled when the release was installed (hardware/pi/install): read from here, so a
#: table never needs Babel at its start; a catalog not found there is compiled into `_compiled`
INSTALLED = LOCALE_DIR.with_name("locale-compiled")
#: part of the compiled catalog's key: a change to how a .po is compiled (French spacing) is a
#: new catalog even when the .po is not
COMPILED_FORM = b"3: French no-break spaces, units kept with their number\n"
_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_listeners: list[Callable[[str], None]] = []
#: a language for this thread only (`in_language`): the table view's words for each browser
_local = threading.local()


def catalog(language: str) -> gettext.NullTranslations:
    """The language's catalog. English is the source language; its small catalog only reworks
    the engine's templates around the names the table uses ("teleports from the north-west room"
    where the engine, with room ids, says "from NW")."""
    source = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == "en" and not source.exists():
        return gettext.NullTranslations()
    # compiled once per content of the .po: two checkouts (or a catalog edited while another
    # process runs) never share a stale .mo, as a cache keyed by language and time could
    text = source.read_bytes()
    key = hashlib.sha256(COMPILED_FORM + text).hexdigest()[:16]
    root = INSTALLED / key
    if not (root / language / "LC_MESSAGES" / f"{DOMAIN}.mo").exists():
        root = _compiled / key
        _compile(language, text, root)
    return gettext.translation(DOMAIN, root, languages=[language])


def compile_installed() -> int:
    """Compile every language's catalog into `INSTALLED` (the install does, once per release);
    how many were compiled (0: all were there)."""
    made = 0
    for language in LANGUAGES:
        source = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        if source.exists():
            text = source.read_bytes()
            key = hashlib.sha256(COMPILED_FORM + text).hexdigest()[:16]
            made += _compile(language, text, INSTALLED / key)
    return made


def _compile(language: str, text: bytes, root: Path) -> bool:
    """The .po's `text` compiled under `root`, unless there; whether it was compiled."""
    target = root / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if not target.exists():
        # Babel only here: a compiled catalog (every start but the first) needs none of it
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        target.parent.mkdir(parents=True, exist_ok=True)
        messages = read_po(io.BytesIO(text), locale=language)
        for message in messages:
            if not message.id:
                continue  # the header
            string = message.string
            empty = not any(string) if isinstance(string, tuple) else not string
            if language == "en" and empty:  # English is its own source
                own = message.id
                message.string = own if isinstance(own, str) else tuple(own)
            if isinstance(message.string, tuple):  # plural forms
                message.string = tuple(_no_break(language, s) for s in message.string)
            elif isinstance(message.string, str):
                message.string = _no_break(language, message.string)
        partial = target.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as mo:
            write_mo(mo, messages)
        partial.replace(target)  # atomic: a reader never sees half a catalog
        return True
    return False


#: French sets a space before ? ! : ; » and after «; a line must never break there (a lone "?"
#: opening a line on a narrow button). The .po keeps plain spaces for the translators.
_FRENCH_SPACE = re.compile(r"(?<=«) | (?=[?!:;»])")


#: a unit stays on its number's line: "(seit 3\u00a0s)", never "(seit 3" over "s)"
_UNIT_SPACE = re.compile(r"(?<=\}) (?=m?s\b)")


def _no_break(language: str, text: str) -> str:
    text = _UNIT_SPACE.sub("\u00a0", text)
    return _FRENCH_SPACE.sub("\u00a0", text) if language == "fr" else text


def set_language(language: str) -> None:
    global _current, _language
    if language not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    _current = catalog(language)
    _language = language
    for listener in list(_listeners):
        listener(language)


def current_language() -> str:
    return _language


def words_language() -> str:
    """The language `tr` answers in on this thread (a browser's, inside `translating`)."""
    local = getattr(_local, "catalog", None)
    if local is None:
        return _language
    found = local.info().get("language", _language)
    return found if found in LANGUAGES else _language


def capital_first(text: str) -> str:
    """`text` with a capital first letter, the rest as it is: a sentence or a heading that
    opens with a word written lower case mid-sentence ("north-east room")."""
    return text[:1].upper() + text[1:]


def decimal(value: float, places: int) -> str:
    """`value` with `places` decimals as the language writes it: "0.25" in English, "0,25" in
    German, Italian and French (Babel's locale data)."""
    from babel.numbers import format_decimal

    pattern = "0." + "0" * places if places > 0 else "0"
    return format_decimal(value, format=pattern, locale=words_language())


def count(value: int) -> str:
    """A whole number as the language writes it, grouped: "8,258", "8.258", "8 258"."""
    from babel.numbers import format_decimal

    return format_decimal(value, format="#,##0", locale=words_language())


def tr(message: str) -> str:
    return getattr(_local, "catalog", _current).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for `count` in the current language (its catalog's
    Plural-Forms): "1 wound", "2 wounds", never "wound(s)"."""
    return getattr(_local, "catalog", _current).ngettext(singular, plural, count)


def ntr(singular: str, plural: str, count: int) -> str:
    """A message with a count, in the language's plural form ("1 wound", "2 wounds"; French
    counts 0 as singular). Extracted with `-k ntr:1,2` (babel.cfg)."""
    return ngettext(singular, plural, count)


def on_change(listener: Callable[[str], None]) -> None:
    _listeners.append(listener)


@contextmanager
def translating(translations: gettext.NullTranslations) -> Iterator[None]:
    """Every `tr` of this thread through `translations` (a `catalog(language)`) meanwhile; the
    table's language and other threads are untouched: the browsers' views are made in each of
    the four languages on the service's thread."""
    before = getattr(_local, "catalog", None)
    _local.catalog = translations
    try:
        yield
    finally:
        if before is None:
            del _local.catalog
        else:
            _local.catalog = before
