"""An update over the network (issue 42): a release archive made by the project's own release
tool (`python -m hardware.pi.release`, its `.sha256` beside it) served by a local HTTP server;
`fetch_release` keeps it only whole and with the published checksum, and
`python -m companion update URL` installs it on a staged table as an archive on disk would be."""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from companion.errors import UpdateError
from companion.product.download import fetch_release
from tests.product.test_pi_update import OPT, Table, table  # noqa: F401  (the fixture)
from tests.support.processes import limit
from tests.support.standins.pi_releases import PACKAGES, exports, make_archive, make_tree

pytestmark = pytest.mark.slow  # a release tree copied and packed (~10 s); the update ~80 s


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A folder served over HTTP on a free local port: its address and the folder."""
    folder = tmp_path / "www"
    folder.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", folder
    finally:
        server.shutdown()
        server.server_close()
        thread.join(limit(10))


def release(tmp_path: Path, version: str, into: Path) -> Path:
    archive = make_archive(make_tree(tmp_path / f"tree-{version}", version), tmp_path / "dist")
    shutil.copy(archive.with_name(f"{archive.name}.sha256"), into)
    return Path(shutil.copy(archive, into))


def test_a_release_is_kept_only_whole_and_with_its_published_checksum(
    tmp_path: Path, served: tuple[str, Path]
) -> None:
    address, www = served
    archive = release(tmp_path, "1.1.0", www)
    digest, name = archive.with_name(f"{archive.name}.sha256").read_text().split()
    assert name == archive.name == "armata-companion-1.1.0.tar.gz"
    assert digest == hashlib.sha256(archive.read_bytes()).hexdigest()
    into = tmp_path / "updates"
    got = fetch_release(f"{address}/{archive.name}", into)
    assert got == into / archive.name and got.read_bytes() == archive.read_bytes()
    assert sorted(p.name for p in into.iterdir()) == [archive.name]  # no .partial left
    got.unlink()
    # too big for the cap: refused as it comes, nothing left
    with pytest.raises(UpdateError, match="more than 1000 bytes"):
        fetch_release(f"{address}/{archive.name}", into, max_bytes=1000)
    # the archive changed after its checksum was published
    with archive.open("ab") as changed:
        changed.write(b"\0")
    with pytest.raises(UpdateError, match="not the one published"):
        fetch_release(f"{address}/{archive.name}", into)
    # no checksum published; no such archive; an address that is no release's
    archive.with_name(f"{archive.name}.sha256").unlink()
    with pytest.raises(UpdateError, match="checksum cannot be read"):
        fetch_release(f"{address}/{archive.name}", into)
    with pytest.raises(UpdateError, match="checksum cannot be read"):
        fetch_release(f"{address}/armata-companion-9.9.9.tar.gz", into)
    with pytest.raises(UpdateError, match="not a release archive"):
        fetch_release(f"{address}/index.html", into)
    assert list(into.iterdir()) == []


def test_an_update_from_an_address_installs_the_release(
    table: Table,  # noqa: F811
    served: tuple[str, Path],
) -> None:
    address, www = served
    archive = table.archive("1.1.0")
    shutil.copy(archive.with_name(f"{archive.name}.sha256"), www)
    shutil.copy(archive, www)
    done = subprocess.run(
        [table.python("1.0.0"), "-m", "companion", "update", f"{address}/{archive.name}",
         "--root", str(table.root), "--watch", "2", "--packages-from", str(PACKAGES)],
        cwd=table.root / OPT / "current", env=table.standins.env(),
        capture_output=True, text=True, timeout=limit(900),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "its SHA-256 the published one" in done.stdout
    assert table.current() == "1.1.0"
    assert exports(table.log) == table.games
    assert not (table.log.parent / "updates" / archive.name).exists()  # removed after
