"""Update from a USB stick (issue 42, item 2): Settings' action through the table service
checks the release archive on the stick and hands it over; the path unit's
`python -m companion update --requested` then updates as the command line does, on a staged
install with real releases (the helpers and fixture of tests/product/test_pi_update.py)."""

from __future__ import annotations

import queue
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.app.devices.usb import folder_drives
from companion.app.devices.voice import Silent
from companion.app.service import TableService, UsbOutcome
from tests.product.test_pi_update import OPT, Table, table  # noqa: F401  (the fixture)
from tests.support.processes import limit
from tests.support.standins.pi_releases import PACKAGES, exports, release_python

pytestmark = pytest.mark.slow  # real releases installed and checked


def asked(service: TableService, posted: queue.Queue[Callable[[], None]], archive: Path
          ) -> UsbOutcome:  # fmt: skip
    told: list[UsbOutcome] = []
    service.usb_update(archive, told.append)
    end = time.monotonic() + limit(120)
    while not told:
        assert time.monotonic() < end
        try:
            posted.get(timeout=0.1)()
        except queue.Empty:
            continue
    return told[0]


def test_an_update_from_the_stick_is_handed_over_and_installed(
    table: Table,  # noqa: F811
) -> None:
    stick = table.scratch / "sticks" / "STICK"
    stick.mkdir(parents=True)
    archive = Path(shutil.copy(table.archive("1.1.0"), stick))
    data = table.log.parent
    posted: queue.Queue[Callable[[], None]] = queue.Queue()
    service = TableService(data, posted.put, speaker=Silent(),
                           usb=lambda: folder_drives(stick.parent))  # fmt: skip
    try:
        service.start()
        assert [c.name for c in service.usb_releases()] == [archive.name]
        done = asked(service, posted, archive)
    finally:
        service.close()
    assert done.ok, done.text
    assert "Version 1.1.0 is being installed" in done.text
    request = data / "updates" / "request"
    assert Path(request.read_text().strip()) == data / "updates" / archive.name
    assert table.current() == "1.0.0"  # nothing switched by the kiosk itself
    # what armata-companion-update.path starts, as root
    ran = subprocess.run(
        [release_python(table.root), "-m", "companion", "update", "--requested",
         "--root", str(table.root), "--watch", "2", "--packages-from", str(PACKAGES)],
        cwd=table.root / OPT / "current", env=table.standins.env(),
        capture_output=True, text=True, timeout=limit(900),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert table.current() == "1.1.0"
    assert not request.exists() and not (data / "updates" / archive.name).exists()
    said = (data / "updates" / "last-update.txt").read_text()
    assert "version 1.1.0 is running" in said
    assert exports(table.log) == table.games
    # the same archive again: refused on the touchscreen's side (not newer than 1.1.0 would be
    # said by the new version; here the request is simply gone, nothing runs twice)
    again = subprocess.run(
        [release_python(table.root), "-m", "companion", "update", "--requested",
         "--root", str(table.root)],
        cwd=table.root / OPT / "current", env=table.standins.env(),
        capture_output=True, text=True, timeout=limit(120),
    )  # fmt: skip
    assert again.returncode == 0 and "no update was asked for" in again.stdout
