"""Pi buttons, buzzer and status LED on gpiozero's MockFactory (no GPIO here)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.pi.controls import PiControls, PinConfig, PinConfigError, load_pins
from tests.support.standins.hardware_helpers import wait_for


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    mock = MockFactory()
    yield mock
    mock.reset()


def test_the_shipped_pin_file_loads() -> None:
    config = load_pins()
    assert (config.confirm, config.undo, config.next) == (17, 27, 22)


def test_bad_pin_files_name_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "pins.json"
    bad.write_text('{"confirm": 99}')
    with pytest.raises(PinConfigError, match=r"\$\.confirm"):
        load_pins(bad)
    bad.write_text('{"confirm": 17, "undo": 17}')
    with pytest.raises(PinConfigError, match="share a pin"):
        load_pins(bad)


def test_buttons_report_their_names_once_per_press(factory: MockFactory) -> None:
    pressed: list[str] = []
    controls = PiControls(PinConfig(bounce_s=0), pressed.append, pin_factory=factory)
    try:
        for expected, pin in (("confirm", 17), ("undo", 27), ("next", 22)):
            factory.pin(pin).drive_low()  # pressed: the button pulls the pin to ground
            factory.pin(pin).drive_high()
            wait_for(lambda expected=expected: pressed[-1:] == [expected], 2, expected)
        assert pressed == ["confirm", "undo", "next"]
    finally:
        controls.close()


def test_status_led_and_buzzer(factory: MockFactory) -> None:
    controls = PiControls(PinConfig(), lambda name: None, pin_factory=factory)
    try:
        controls.show_status("ready")
        assert factory.pin(23).state
        controls.show_status("off")
        assert not factory.pin(23).state
        controls.beep(times=2, length_s=0.01)
        time.sleep(0.2)
        buzzer = factory.pin(18)
        buzzer.assert_states([False, True, False, True, False])
    finally:
        controls.close()


def test_the_simulated_pins_remember_only_their_last_changes() -> None:
    """The embedded default's status LED blinks on mock pins while a node is silent: their
    history stays bounded however long the table runs."""
    from companion.app.devices.controls import KEEP_STATES, open_controls

    controls = open_controls(lambda name: None, mock=True)
    try:
        assert controls.devices is not None and controls.mock is not None
        led = controls.devices.status
        for _ in range(KEEP_STATES * 5):
            led.toggle()
        states = controls.mock.pin(controls.devices.config.status_led).states
        assert len(states) == KEEP_STATES
        assert states[-1].state == led.is_lit  # the latest change is among those kept
    finally:
        controls.close()
