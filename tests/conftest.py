"""Shared fixtures: the default fortress and small situations built on it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.fortress import Fortress

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
PYTHON = sys.executable


@pytest.fixture(scope="session")
def fortress() -> Fortress:
    return load_board_file()


@pytest.fixture(scope="session")
def damage() -> dict[str, int]:
    return load_catalog().damage()


@pytest.fixture
def broker_factory(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Start real brokers: `broker_factory({"t1": ["room-a", ...]})`; stopped after the test."""
    from tests.hardware_helpers import Broker

    started: list[Broker] = []

    def start(tables: dict[str, list[str]]) -> Broker:
        broker = Broker(tmp_path / f"broker{len(started)}", tables)
        broker.start()
        started.append(broker)
        return broker

    yield start
    for broker in started:
        broker.stop()
