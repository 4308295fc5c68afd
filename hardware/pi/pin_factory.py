"""Which gpiozero pin factory opens the Pi's pins, chosen from the board's model.

gpiozero 2 tries lgpio, RPi.GPIO, pigpio and its native factory in turn and keeps the first that
imports. On a Pi 5 only lgpio can drive the pins (the GPIO sits behind the RP1 chip: RPi.GPIO
fails with "Cannot determine SOC peripheral base address"), so a Pi 5 without lgpio would fall
back to a factory that cannot work. Here the choice is explicit: lgpio alone on a Pi 5,
gpiozero's documented order on earlier Pis, and a clear error naming every factory tried and why
it failed when none opens. The embedded default never comes here: it uses `MockFactory`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from gpiozero.pins import Factory

from companion.errors import CompanionError

MODEL_FILE = Path("/proc/device-tree/model")
#: gpiozero's factories by name: module and class
FACTORIES = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
#: models whose GPIO sits behind the RP1 chip (lgpio only)
RP1_MODELS = ("Raspberry Pi 5", "Raspberry Pi 500", "Raspberry Pi Compute Module 5")


class PinFactoryUnavailable(CompanionError, RuntimeError):
    """No pin factory could open the pins; the message names each one tried and why."""


def board_model(model_file: Path = MODEL_FILE) -> str | None:
    """The board's model as the device tree names it ("Raspberry Pi 5 Model B Rev 1.0"), or
    None on a machine that is not a Pi."""
    try:
        text = model_file.read_bytes().decode("utf-8", "replace").rstrip("\x00\n ")
    except OSError:
        return None
    return text if text.startswith("Raspberry Pi") else None


def factory_order(model: str | None) -> tuple[str, ...]:
    """The factories to try, in order, for a board model (None: not a Pi, none)."""
    if model is None:
        return ()
    if model.startswith(RP1_MODELS):
        return ("lgpio",)
    return tuple(FACTORIES)


def _make(name: str) -> Factory:
    module, cls = FACTORIES[name]
    factory: Callable[[], Factory] = getattr(importlib.import_module(module), cls)
    return factory()


def open_pin_factory(
    model_file: Path = MODEL_FILE, make: Callable[[str], Factory] = _make
) -> tuple[str, Factory]:
    """The first factory of `factory_order` that opens (its name and itself)."""
    model = board_model(model_file)
    order = factory_order(model)
    if not order:
        raise PinFactoryUnavailable("this machine is not a Raspberry Pi (no GPIO pins)")
    failures = []
    for name in order:
        try:
            return name, make(name)
        except Exception as exc:  # ImportError, or the library's own error on this board
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
    raise PinFactoryUnavailable(
        f"no pin factory opens the pins of a {model}: " + "; ".join(failures)
    )


__all__ = [
    "FACTORIES",
    "MODEL_FILE",
    "PinFactoryUnavailable",
    "board_model",
    "factory_order",
    "open_pin_factory",
]
