"""The text size steps (companion/app/session/text_size.py): at least 100, 125, 150 and 175 %,
walked in order by the round screen's quick control, and the words older logs stored read as
what they meant."""

from __future__ import annotations

from companion.app.session.text_size import STEPS, next_step, percent, scale


def test_the_steps_are_those_the_play_test_asked_for_smallest_first() -> None:
    assert {100, 125, 150, 175} <= set(STEPS)
    assert list(STEPS) == sorted(STEPS) and STEPS[0] == 100


def test_the_words_of_older_versions_keep_their_size() -> None:
    assert percent("normal") == 100 and scale("normal") == 1.0
    assert percent("large") == 125 and scale("large") == 1.25


def test_every_step_reads_back_as_itself_and_anything_else_as_the_first() -> None:
    assert [percent(step) for step in STEPS] == list(STEPS)
    assert [scale(step) for step in STEPS] == [step / 100 for step in STEPS]
    for unknown in (None, "huge", 130, 1.5, True, {"a": 1}):
        assert percent(unknown) == 100


def test_the_quick_control_walks_every_step_and_comes_back() -> None:
    seen, at = [], 100
    for _ in STEPS:
        at = next_step(at)
        seen.append(at)
    assert seen == [*STEPS[1:], STEPS[0]]
    assert next_step("large") == 150  # from an older log's word on
