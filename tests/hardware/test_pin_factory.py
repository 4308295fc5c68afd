"""The pin factory is chosen for the board (issue 32): lgpio alone on a Pi 5 (RPi.GPIO cannot
drive its RP1 chip), gpiozero's documented order on earlier Pis, none on a machine that is not a
Pi; when no factory opens the pins the app runs on and the Hardware screen says why. The board
identities are /proc/device-tree/model files of real boards (tests/data/device-tree)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from companion.app.devices.controls import open_controls
from companion.app.devices.voice import Silent
from companion.app.service import TableService
from hardware.pi.pin_factory import (
    PinFactoryUnavailable,
    board_model,
    factory_order,
    open_pin_factory,
)
from tests.conftest import ROOT

MODELS = ROOT / "tests" / "data" / "device-tree"
EVERY = ("lgpio", "rpigpio", "pigpio", "native")


@pytest.mark.parametrize(
    ("fixture", "model", "order"),
    [
        ("pi5-model", "Raspberry Pi 5 Model B Rev 1.0", ("lgpio",)),
        ("cm5-model", "Raspberry Pi Compute Module 5 Rev 1.0", ("lgpio",)),
        ("pi4-model", "Raspberry Pi 4 Model B Rev 1.4", EVERY),
        ("pi-zero-2-model", "Raspberry Pi Zero 2 W Rev 1.0", EVERY),
        ("qemu-model", None, ()),
        ("missing", None, ()),
    ],
)
def test_the_factories_tried_follow_the_board(
    fixture: str, model: str | None, order: tuple[str, ...]
) -> None:
    assert board_model(MODELS / fixture) == model
    assert factory_order(model) == order


def test_a_pi5_takes_lgpio_and_never_falls_back_to_rpigpio() -> None:
    tried: list[str] = []

    def make(name: str) -> Factory:
        tried.append(name)
        raise ImportError(f"No module named {name!r}")

    with pytest.raises(PinFactoryUnavailable) as error:
        open_pin_factory(MODELS / "pi5-model", make)
    assert tried == ["lgpio"]
    assert "Raspberry Pi 5 Model B Rev 1.0" in str(error.value)
    assert "lgpio: ImportError" in str(error.value)


def test_a_pi4_takes_the_first_factory_that_opens() -> None:
    tried: list[str] = []
    mock = MockFactory()

    def make(name: str) -> Factory:
        tried.append(name)
        if name == "lgpio":
            raise ImportError("No module named 'lgpio'")
        return mock

    try:
        assert open_pin_factory(MODELS / "pi4-model", make) == ("rpigpio", mock)
    finally:
        mock.close()
    assert tried == ["lgpio", "rpigpio"]


def test_without_a_factory_the_app_runs_on_and_the_hardware_screen_says_why(
    tmp_path: Path,
) -> None:
    controls = open_controls(lambda name: None, mock=False, model_file=MODELS / "qemu-model")
    assert controls.devices is None
    assert controls.off is not None and "not a Raspberry Pi" in controls.off
    service = TableService(tmp_path, lambda call: call(), speaker=Silent(), controls=controls)
    try:
        lines = service.troubles.lines()
    finally:
        service.close()
    assert any(line.startswith("The Pi's buttons do not work: ") for line in lines), lines


def test_the_embedded_default_has_working_mock_buttons(tmp_path: Path) -> None:
    service = TableService(tmp_path, lambda call: call(), speaker=Silent())
    try:
        assert service.controls.mock is not None and service.controls.off is None
        assert not service.troubles
    finally:
        service.close()
