"""`python3 -m hardware.pi.release [--out DIR]`: the release archive of this tree,
`armata-companion-<version>.tar.gz`, holding `armata-companion-<version>/` with exactly the
files the install places (hardware/pi/install/release.py: no tests, no caches, no builds).
Unpacked on a Pi it installs with `sudo armata-companion-<version>/hardware/pi/install.sh`, or
updates a running table with `sudo python -m companion update ARCHIVE`. Beside it
`<archive>.sha256` (as `sha256sum` writes it): published with the archive, it is what an update
over the network checks the download against (companion/product/download.py). Standard library
only."""

from __future__ import annotations

import argparse
import hashlib
import sys
import tarfile
from pathlib import Path

from hardware.pi.install.release import Source

TREE = Path(__file__).resolve().parents[2]


def make_archive(tree: Path, out: Path) -> Path:
    source = Source.read(tree)
    name = f"armata-companion-{source.version}"
    out.mkdir(parents=True, exist_ok=True)
    archive = out / f"{name}.tar.gz"
    partial = archive.with_name(archive.name + ".partial")

    def tidy(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with tarfile.open(partial, "w:gz") as packed:
        for relative in source.files():
            packed.add(tree / relative, f"{name}/{relative}", recursive=False, filter=tidy)
    partial.replace(archive)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    archive.with_name(f"{archive.name}.sha256").write_text(f"{digest}  {archive.name}\n")
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m hardware.pi.release", description=__doc__)
    parser.add_argument("--out", type=Path, default=TREE / "dist")
    args = parser.parse_args(argv)
    print(make_archive(TREE, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
