"""The touch guard's areas on a clock the test turns (ui/widgets/touch_guard.py): a touch on an
area that changed is held back for HOLD_S, one beside it is not, and none after the hold."""

from __future__ import annotations

from ui.widgets.touch_guard import HOLD_S, MovedAreas


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_moved_area_holds_touches_back_for_a_moment_and_only_there() -> None:
    clock = Clock()
    areas = MovedAreas(clock)
    assert areas.quiet() and not areas.holds(50, 50)
    # a list moved up by 48 px: where it was and where it is now
    areas.moved((0, 100, 300, 200), (0, 148, 300, 200))
    assert not areas.quiet()
    assert areas.holds(10, 110) and areas.holds(10, 340)  # the old place, the new place
    assert not areas.holds(10, 90) and not areas.holds(310, 200)  # beside them: at once
    clock.now += HOLD_S - 0.01
    assert areas.holds(10, 110)
    clock.now += 0.02
    assert not areas.holds(10, 110) and areas.quiet()


def test_a_later_change_holds_from_its_own_moment_and_empty_areas_hold_nothing() -> None:
    clock = Clock()
    areas = MovedAreas(clock)
    areas.moved((0, 0, 100, 100), None, (0, 0, 0, 48))  # a strip closed to nothing: no area
    clock.now += HOLD_S * 0.75
    areas.moved((0, 0, 100, 100))
    clock.now += HOLD_S * 0.5  # past the first change's hold, inside the second's
    assert areas.holds(50, 50)
    assert not areas.holds(50, 120)


def test_the_hold_is_the_documented_moment() -> None:
    # 0.4 s: longer than a finger already on its way takes to land, shorter than reading a
    # changed screen before a deliberate tap (touch_guard.py)
    assert HOLD_S == 0.4 and MovedAreas.hold_s == HOLD_S
