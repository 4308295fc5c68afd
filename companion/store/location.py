"""Where the app keeps its data: `$ARMATA_DATA_DIR`, else `~/.armata-companion`."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    return Path(os.environ.get("ARMATA_DATA_DIR", Path.home() / ".armata-companion"))


def default_database() -> Path:
    """The game log the touchscreen app writes."""
    return data_dir() / "companion.db"
