"""The README stays the players' page (issue 39, item 6): short, the two commands as its quick
start, the buttons it names as the app shows them, and every page it or docs/ links is there."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

from tests.conftest import ROOT

README = ROOT / "README.md"
#: what the README may link that is not a file of the repository
EXTERNAL = ("http://", "https://", "mailto:")


def section(text: str, heading: str) -> str:
    """The body of the `## heading` section, up to the next `## ` heading."""
    start = text.index(f"\n## {heading}\n") + len(heading) + 5
    end = text.find("\n## ", start)
    return text[start : end if end != -1 else len(text)]


def links(path: Path) -> list[str]:
    """The targets of the Markdown links of a page, outside its code blocks and code spans."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\]\(([^)\s]+)\)", text)


def anchors(path: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces
    as hyphens (a repeated heading's `-1` suffix is not needed here)."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower())
        found.add(slug.replace(" ", "-"))
    return found


def pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readme_is_short() -> None:
    count = len(README.read_text(encoding="utf-8").splitlines())
    assert count < 250, f"README.md has {count} lines: engineering notes belong in docs/"


def test_the_quick_start_is_the_two_commands() -> None:
    quick = section(README.read_text(encoding="utf-8"), "Quick start")
    blocks = re.findall(r"```\n(.*?)```", quick, flags=re.DOTALL)
    assert blocks[0].split("\n")[:-1] == ["./setup.sh run", "./setup.sh test"]
    assert (ROOT / "setup.sh").exists()


def test_the_first_game_names_the_buttons_as_the_app_shows_them() -> None:
    """Every bold word of "A first game" that is not a lead-in ending with a full stop is a
    message of the app's catalog, in English as the app shows it (companion/app/words/locale)."""
    with (ROOT / "companion/app/words/locale" / "armata.pot").open("rb") as pot:
        messages = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(pot) if m.id}
    first_game = section(README.read_text(encoding="utf-8"), "A first game")
    named = {" ".join(x.split()) for x in re.findall(r"\*\*([^*]+)\*\*", first_game)}
    buttons = {x for x in named if not x.endswith(".")}
    assert len(buttons) > 30  # the walk through a game names what the player taps
    assert sorted(buttons - messages) == []


def test_every_relative_link_resolves() -> None:
    broken = []
    for page in pages():
        for target in links(page):
            if target.startswith(EXTERNAL):
                continue
            file, _, anchor = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert broken == []


def test_the_readme_links_every_docs_page() -> None:
    linked = {target.partition("#")[0] for target in links(README)}
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in linked, f"README.md does not link docs/{page.name}"
    for guide in ("hardware/pi/README.md", "hardware/BUILD.md", "hardware/README.md"):
        assert guide in linked, guide


def test_the_moved_notes_are_in_docs() -> None:
    """What left the README (issue 39) stands in the pages it links."""
    docs = ROOT / "docs"
    assert "covering design" in (docs / "testing.md").read_text(encoding="utf-8")
    assert "| measure | median | p99 | goal | baseline (same run) |" in (
        docs / "benchmarks.md"
    ).read_text(encoding="utf-8")
    libraries = (docs / "libraries.md").read_text(encoding="utf-8")
    assert "**mpremote**" in libraries and "nodes flash" in libraries


def test_the_exit_codes_page_says_the_codes_the_program_returns() -> None:
    """The table a Pi owner's script reads (docs/game-log.md) against the codes themselves."""
    from companion.__main__ import EXIT_BAD_INPUT
    from companion.errors import LogDamaged, LogTooNew, LogUnreadable

    page = (ROOT / "docs" / "game-log.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\d) \| (.+) \|$", page, flags=re.MULTILINE))
    assert sorted(rows) == ["0", "1", "2", "3", "4", "5"]
    assert rows[str(EXIT_BAD_INPUT)].startswith("bad input")
    assert "damaged" in rows[str(LogDamaged.exit_code)]
    assert "newer version" in rows[str(LogTooNew.exit_code)]
    assert "cannot be opened" in rows[str(LogUnreadable.exit_code)]
    assert "[docs/game-log.md](docs/game-log.md)" in README.read_text(encoding="utf-8")
