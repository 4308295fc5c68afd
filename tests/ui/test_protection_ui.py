"""Issue 40, item 6, on the touchscreen under Xvfb (tests/ui_driver/protection_scripts.py): a
fight with Protection at large text, in English and German, at the smallest landscape and the
portrait display. The card that asks tells the wounds coming, not taken, and who may block;
the sources are ticked and the block committed by touch; the banner confirms what was blocked
and stays beside the next turn's line. Screenshots tests/artifacts/<size>-large/protection-
{ask,choose,blocked}-<lang>.png with every layout check."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.explain import hero_name
from tests.ui.test_placement_ui import CHECKS
from tests.ui.test_ui import ARTIFACTS, ui

pytestmark = pytest.mark.slow  # the app under Xvfb

#: per language: the attack told as coming, who may block, the block confirmed, a wound taken
WORDS = {
    "en": {
        "coming": "{hero}: {wounds} wound, unless blocked.",
        "asks": "{hero} may block with Protection: the app asks next.",
        "blocked": "{hero} blocks {wounds} wound with Protection.",
        "taken": ("takes 1 wound", "takes {wounds} wounds"),
    },
    "de": {
        "coming": "{hero} an: {wounds} Verletzung, falls nicht abgewehrt.",
        "asks": "{hero} darf mit Schutz abwehren: Die App fragt gleich.",
        "blocked": "{hero} wehrt {wounds} Verletzung mit Schutz ab.",
        "taken": ("erhält 1 Verletzung", "erhält {wounds} Verletzungen"),
    },
}


@pytest.mark.rule("R-LOS-2", "R-ABL Protection")
@pytest.mark.parametrize("size", ["800x480", "720x1280"])
def test_a_fight_with_protection_by_touch_at_large_text(tmp_path: Path, size: str) -> None:
    out = ARTIFACTS / f"{size}-large"
    report = ui("protection", str(out), "en", "de", data=tmp_path, size=size, timeout_s=400)
    assert report.get("error") is None, report.get("error")
    shown = report["protection"]
    for lang, words in WORDS.items():
        seen = shown[lang]
        hero, wounds = hero_name(seen["hero"]), shown["wounds"]
        assert wounds == 1, wounds  # the seed's attack (the plural forms: tests/app)
        ask = seen["ask"]
        assert ask["kind"] in ("strigoi_step", "fight", "curse")
        said = " ".join([*ask["figures"], ask["banner"]])
        # asked before the wound is told as taken (the play-test: "takes 1 wound" came first)
        assert words["coming"].format(hero=hero, wounds=wounds) in said, said
        assert not any(x.format(wounds=wounds) in said for x in words["taken"]), said
        assert words["asks"].format(hero=hero) in ask["todo"]
        # the block by touch, then its confirmation, in sight beside the next turn's line
        assert any(x.startswith("[  ] ") for x in seen["choose"]), seen["choose"]
        assert seen["committed"].startswith(f"{hero}: ")
        blocked = seen["blocked"]
        assert blocked["banner"].startswith(words["blocked"].format(hero=hero, wounds=wounds))
        assert "protect" in blocked["told"]
        for step in ("ask", "choose", "blocked"):
            screen = report["screens"][f"protection-{step}-{lang}"]
            assert Path(screen["png"]).stat().st_size > 5_000
            for check in CHECKS:
                assert screen[check] == [], (size, lang, step, check, screen[check])
