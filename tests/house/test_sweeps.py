"""The screenshot sweeps' plan (tests/support/sweeps.py) is a covering design: every pair of screen,
language and display-and-text size is shot at least once, at a quarter of the full product."""

from __future__ import annotations

import itertools

from tests.support import sweeps


def shots() -> set[tuple[str, str, tuple[str, str]]]:
    """(screen, language, (display, text)) of every planned screenshot."""
    found = set()
    for config in sweeps.CONFIGS:
        for shot in sweeps.planned(*config):
            screen, _, lang = shot.rpartition("-")
            found.add((screen, lang, config))
    return found


def test_every_pair_of_screen_language_and_size_is_shot() -> None:
    planned = shots()
    screens, langs, configs = sweeps.SCREENS, sweeps.LANGS, sweeps.CONFIGS
    assert {(s, lang) for s, lang, _ in planned} == set(itertools.product(screens, langs))
    assert {(s, c) for s, _, c in planned} == set(itertools.product(screens, configs))
    assert {(lang, c) for _, lang, c in planned} == set(itertools.product(langs, configs))


def test_the_plan_is_a_quarter_of_the_full_product() -> None:
    planned = shots()
    full = len(sweeps.SCREENS) * len(sweeps.LANGS) * len(sweeps.CONFIGS)
    assert len(planned) == len(sweeps.SCREENS) * len(sweeps.CONFIGS) == full // 4


def test_every_display_and_text_size_of_the_old_sweeps_is_kept_and_every_step_seen() -> None:
    assert set(sweeps.CONFIGS) == {
        ("800x480", "normal"), ("1024x600", "normal"), ("1280x720", "normal"),
        ("1280x800", "normal"), ("720x1280", "normal"), ("800x480", "large"),
        ("1024x600", "large"), ("1280x720", "large"), ("720x1280", "large"),
    } | {("720x1280", "150")}  # fmt: skip
    assert len(sweeps.SCREENS) == len(set(sweeps.SCREENS)) == 31


def test_every_kind_of_card_is_shot_in_every_language_and_every_language_at_every_size() -> None:
    planned = {
        (kind, lang, config)
        for config in sweeps.CARD_CONFIGS
        for kind, langs in sweeps.card_languages(*config).items()
        for lang in langs
    }
    kinds, langs, configs = sweeps.CARDS, sweeps.LANGS, sweeps.CARD_CONFIGS
    assert {(k, lang) for k, lang, _ in planned} == set(itertools.product(kinds, langs))
    assert {(k, c) for k, _, c in planned} == set(itertools.product(kinds, configs))
    assert {(lang, c) for _, lang, c in planned} == set(itertools.product(langs, configs))
    assert all("en" in langs for c in configs for langs in sweeps.card_languages(*c).values())


def test_the_driver_shoots_the_kinds_of_card_the_plan_names() -> None:
    from tests.ui_driver.story_scripts import SHOTS

    assert tuple(SHOTS) == sweeps.CARDS


def test_the_wizard_and_the_crowded_board_see_every_language_and_size_at_both_text_sizes() -> None:
    planned = {
        (size, run.removesuffix("-large"), "large" if run.endswith("-large") else "normal")
        for size in sweeps.PANEL_SIZES
        for run in sweeps.text_runs(size)
    }
    sizes, langs, texts = sweeps.PANEL_SIZES, sweeps.LANGS, ("normal", "large")
    assert {(s, lang) for s, lang, _ in planned} == set(itertools.product(sizes, langs))
    assert {(s, t) for s, _, t in planned} == set(itertools.product(sizes, texts))
    assert {(lang, t) for _, lang, t in planned} == set(itertools.product(langs, texts))
    assert len(planned) == len(sizes) * len(langs)
