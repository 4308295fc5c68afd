"""The Pi's own controls as the app uses them: Confirm, Undo and Next buttons, the buzzer and the
status LED (hardware/pi/controls.py, gpiozero).

On a Pi the pins of `hardware/pi/pins.json` are opened with the pin factory chosen for the board
(hardware/pi/pin_factory.py: lgpio on a Pi 5, gpiozero's order on earlier Pis). On
the embedded default (the simulated board) the same devices run on gpiozero's `MockFactory`, and
the simulated-table panel's three on-screen buttons drive those mock pins: the app takes the
same code path with or without a Pi. Pins that cannot be opened (no GPIO here, a pin in use, a
bad pin file) give one clear log line, the Hardware screen says so (`Controls.off`), and the app
runs on without them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPin

from hardware.pi.controls import BUTTONS, PINS_FILE, PiControls, PinConfig, load_pins
from hardware.pi.pin_factory import MODEL_FILE, open_pin_factory

log = logging.getLogger(__name__)

PRESS_S = 0.1  # how long an on-screen button holds its mock pin low
#: the state changes a mock pin remembers (gpiozero's remember every one)
KEEP_STATES = 64


class RecentMockPin(MockPin):  # type: ignore[misc]
    """gpiozero's mock pin, remembering only its last `KEEP_STATES` changes: the status LED
    blinks five times a second while a node is silent, and a table left on for days grew the
    history of every blink without end."""

    def _change_state(self, value: bool) -> bool:
        changed = bool(super()._change_state(value))
        if len(self.states) > KEEP_STATES:
            del self.states[: len(self.states) - KEEP_STATES]
        return changed


class Controls:
    """The buttons, buzzer and status LED, or nothing (every call then does nothing)."""

    def __init__(
        self,
        devices: PiControls | None,
        description: str,
        mock: MockFactory | None = None,
    ) -> None:
        self.devices = devices
        self.description = description
        #: why the Pi's buttons do nothing (None: they work)
        self.off = description if devices is None else None
        self.mock = mock  # the pins an on-screen button drives (the embedded default only)
        self.status = "off"
        self.beeps = 0

    @property
    def config(self) -> PinConfig | None:
        return self.devices.config if self.devices is not None else None

    def press(self, button: str) -> bool:
        """Press a button by driving its mock pin to ground and back (on-screen buttons of the
        simulated table). False without mock pins."""
        config = self.config
        if self.mock is None or config is None or button not in BUTTONS:
            return False
        pin = self.mock.pin(getattr(config, button))
        pin.drive_low()  # the button pulls the pin to ground: gpiozero calls when_pressed
        threading.Timer(PRESS_S, pin.drive_high).start()
        return True

    def show_status(self, state: str) -> None:
        """ready: steady (every node heard lately); busy: blinking; off: dark. Only changes
        are sent to the LED (blinking runs on gpiozero's own thread)."""
        if state == self.status:
            return
        self.status = state
        if self.devices is not None:
            self.devices.show_status(state)

    def beep(self, times: int = 1) -> None:
        self.beeps += times
        if self.devices is not None:
            self.devices.beep(times)

    def led_lit(self) -> bool | None:
        """Whether the status LED is lit right now (None without devices)."""
        if self.devices is None:
            return None
        return bool(self.devices.status.is_lit)

    def close(self) -> None:
        if self.devices is not None:
            self.devices.close()
        if self.mock is not None:
            self.mock.reset()


def open_controls(
    on_press: Callable[[str], None],
    mock: bool,
    pins_file: Path = PINS_FILE,
    model_file: Path = MODEL_FILE,
) -> Controls:
    """The controls on real pins (`mock` False: a Pi) or on gpiozero's MockFactory."""
    try:
        config = load_pins(pins_file)
    except Exception as exc:  # PinConfigError and an unreadable file alike: say it, run on
        log.warning("Pi controls off: %s", exc)
        return Controls(None, f"Pi controls off: {exc}")
    if mock:
        factory = MockFactory(pin_class=RecentMockPin)
        devices = PiControls(config, on_press, pin_factory=factory)
        what = "Pi controls on simulated pins (the table panel's buttons)"
        return Controls(devices, what, factory)
    try:
        name, factory = open_pin_factory(model_file)
        devices = PiControls(config, on_press, pin_factory=factory)
    except Exception as exc:  # no GPIO (not a Pi), no factory for it, a pin in use...
        log.warning("Pi controls off: the pins of %s cannot be opened: %s", pins_file, exc)
        return Controls(None, f"Pi controls off: {exc}")
    return Controls(devices, f"Pi controls on GPIO pins {pins_file.name} ({name})")
