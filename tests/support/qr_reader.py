"""Test helper: what a phone's camera reads off a QR code (zbar's zbarimg, Debian's
zbar-tools), from a screenshot or a picture of a terminal's code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def scanned(picture: Path) -> str:
    """The text a QR reader reads off `picture`."""
    assert shutil.which("zbarimg"), "zbarimg missing: run ./setup.sh test"
    done = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(picture)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()
