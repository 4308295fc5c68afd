"""`python -m companion.app.words.catalogs`: extract the messages of the sources into
`locale/armata.pot` and merge them into each language's catalog, as babel.cfg says, without
source locations (a catalog changes only where a message does, so branches merge). New
messages arrive untranslated: every language's must be filled in (the tests check it)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

from companion.app.words.i18n import LANGUAGES, LOCALE_DIR

ROOT = LOCALE_DIR.parents[3]
#: the markers of translatable text besides gettext's own (ngettext among them): tr, the engine's
#: templates N_, counted templates Np_ and counted messages ntr
KEYWORDS = ("-k", "tr", "-k", "N_", "-k", "Np_:1,2", "-k", "ntr:1,2")
TEMPLATE = LOCALE_DIR / "armata.pot"


def run(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], cwd=ROOT, check=True)


def without_locations(path: Path, language: str | None) -> None:
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    with path.open("wb") as target:
        write_po(target, catalog, width=0, no_location=True, ignore_obsolete=True)


#: the header line every extraction renews: a catalog whose messages did not change keeps its own
_DATE = re.compile(rb'^"POT-Creation-Date: .*\\n"$', re.MULTILINE)


def main() -> int:
    files = [TEMPLATE, *(LOCALE_DIR / lang / "LC_MESSAGES" / "armata.po" for lang in LANGUAGES)]
    before = {path: path.read_bytes() for path in files if path.exists()}
    run("extract", "-F", "companion/app/words/babel.cfg", *KEYWORDS, "--no-wrap", "--no-location",
        "-o", str(TEMPLATE.relative_to(ROOT)), ".")  # fmt: skip
    run("update", "-D", "armata", "-i", str(TEMPLATE.relative_to(ROOT)),
        "-d", str(LOCALE_DIR.relative_to(ROOT)), "--no-wrap")  # fmt: skip
    for language in LANGUAGES:
        without_locations(LOCALE_DIR / language / "LC_MESSAGES" / "armata.po", language)
    for path, old in before.items():
        if _DATE.sub(b"", path.read_bytes()) == _DATE.sub(b"", old):
            path.write_bytes(old)  # only the date changed: no change at all
    return 0


if __name__ == "__main__":
    sys.exit(main())
