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
