"""The Pi's own controls with gpiozero: Confirm, Undo and Next buttons, a buzzer and a status LED.

Pins come from `hardware/pi/pins.json` (BCM numbers), validated on load. Tests and machines
without GPIO pass gpiozero's `MockFactory` as `pin_factory`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import msgspec
from gpiozero import LED, Button, Buzzer
from gpiozero.pins import Factory

from companion.errors import CompanionError

PINS_FILE = Path(__file__).with_name("pins.json")
Pin = Annotated[int, msgspec.Meta(ge=2, le=27)]  # BCM GPIO 2-27 on the 40-pin header
BUTTONS = ("confirm", "undo", "next")


class PinConfigError(CompanionError, ValueError):
    """The pin file is malformed; the message names the field."""


class PinConfig(msgspec.Struct, forbid_unknown_fields=False):
    confirm: Pin = 17
    undo: Pin = 27
    next: Pin = 22
    buzzer: Pin = 18
    status_led: Pin = 23
    bounce_s: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.05

    def __post_init__(self) -> None:
        pins = [self.confirm, self.undo, self.next, self.buzzer, self.status_led]
        if len(set(pins)) != len(pins):
            raise PinConfigError("two controls share a pin")  # msgspec reports it with the path


def load_pins(path: Path = PINS_FILE) -> PinConfig:
    try:
        return msgspec.json.decode(path.read_bytes(), type=PinConfig)
    except (msgspec.ValidationError, msgspec.DecodeError, ValueError) as exc:
        raise PinConfigError(f"{path}: {exc}") from exc


class PiControls:
    def __init__(
        self,
        config: PinConfig,
        on_press: Callable[[str], None],
        pin_factory: Factory | None = None,
    ) -> None:
        self.config = config
        self.buttons: dict[str, Button] = {}
        for name in BUTTONS:
            button = Button(
                getattr(config, name), bounce_time=config.bounce_s, pin_factory=pin_factory
            )
            button.when_pressed = self._pressed(name, on_press)
            self.buttons[name] = button
        self.buzzer = Buzzer(config.buzzer, pin_factory=pin_factory)
        self.status = LED(config.status_led, pin_factory=pin_factory)

    @staticmethod
    def _pressed(name: str, on_press: Callable[[str], None]) -> Callable[[], None]:
        return lambda: on_press(name)

    def show_status(self, state: str) -> None:
        """ready: steady; busy: blinking; off: dark."""
        if state == "ready":
            self.status.on()
        elif state == "busy":
            self.status.blink(on_time=0.2, off_time=0.2)
        else:
            self.status.off()

    def beep(self, times: int = 1, length_s: float = 0.08) -> None:
        """A short beep per announcement (in the background)."""
        self.buzzer.beep(on_time=length_s, off_time=length_s, n=times, background=True)

    def close(self) -> None:
        for device in [*self.buttons.values(), self.buzzer, self.status]:
            device.close()
