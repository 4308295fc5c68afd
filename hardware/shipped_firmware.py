"""The node firmware this release ships (hardware/firmware/): its version and the files
`python -m companion nodes flash` copies to a node. The version is read from the firmware's own
source (`armata_node/version.py`), never repeated here, so the app, the simulator and the nodes
cannot disagree about what "the shipped firmware" is."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.errors import FirmwareFileError

FIRMWARE_DIR = Path(__file__).resolve().parent / "firmware"
VERSION_FILE = FIRMWARE_DIR / "armata_node" / "version.py"
_VERSION = re.compile(r'^VERSION = "(?P<version>[0-9]{1,4}(\.[0-9]{1,4}){1,2})"$', re.MULTILINE)


@dataclass(frozen=True)
class FirmwareFile:
    """One file of the firmware: where it is here, and its path on the node's flash."""

    local: Path
    remote: str  # relative to the node's root: "main.py", "armata_node/node.py"

    def sha256(self) -> str:
        return hashlib.sha256(self.local.read_bytes()).hexdigest()


def firmware_version(folder: Path = FIRMWARE_DIR) -> str:
    """The VERSION line of `folder`/armata_node/version.py; FirmwareFileError without one."""
    path = folder / "armata_node" / "version.py"
    found = _VERSION.search(path.read_text(encoding="utf-8"))
    if found is None:
        raise FirmwareFileError(f'{path}: no line VERSION = "<major>.<minor>"')
    return found["version"]


def firmware_files(folder: Path = FIRMWARE_DIR) -> list[FirmwareFile]:
    """main.py and every module of armata_node/, in a stable order. The node's own
    config.json (and ca.der) are its own: never part of the firmware."""
    files = [FirmwareFile(folder / "main.py", "main.py")]
    files += [
        FirmwareFile(path, f"armata_node/{path.name}")
        for path in sorted((folder / "armata_node").glob("*.py"))
    ]
    return files


def firmware_digest(folder: Path = FIRMWARE_DIR) -> str:
    """One sha256 over every firmware file's path and bytes: changes when any of them does."""
    digest = hashlib.sha256()
    for item in firmware_files(folder):
        digest.update(item.remote.encode() + b"\0" + item.local.read_bytes() + b"\0")
    return digest.hexdigest()
