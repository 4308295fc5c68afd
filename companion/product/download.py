"""A release archive fetched over the network for `python -m companion update URL`: the
release's published checksum (`<archive>.sha256`, hardware/pi/release.py) first, then the
archive itself, streamed to a `.partial` file with a size cap and hashed on the way; kept only
when its SHA-256 is the published one. urllib only (the standard library): an update needs
nothing the table does not have."""

from __future__ import annotations

import hashlib
import re
import urllib.error
import urllib.request
from http.client import HTTPResponse
from pathlib import Path
from urllib.parse import unquote, urlsplit

from companion.errors import UpdateError

#: a release archive is far smaller (about 3 MB); a bigger download is refused as it comes
MAX_BYTES = 200 * 1024 * 1024
TIMEOUT_S = 60.0
CHUNK = 1 << 16
RELEASE_NAME = re.compile(r"armata-companion-[0-9][0-9A-Za-z.+-]*\.tar\.gz")


def is_url(text: str) -> bool:
    return text.startswith(("https://", "http://"))


def fetch_release(url: str, into: Path, max_bytes: int = MAX_BYTES) -> Path:
    """The archive at `url` in `into`, its checksum checked; UpdateError (and nothing left in
    `into`) when it cannot be fetched, is too big, or is not the published one."""
    parts = urlsplit(url)
    name = unquote(Path(parts.path).name)
    if parts.scheme not in ("https", "http") or not RELEASE_NAME.fullmatch(name):
        raise UpdateError(f"{url}: not a release archive's address (armata-companion-*.tar.gz)")
    published = _published_sum(f"{url}.sha256", name)
    into.mkdir(parents=True, exist_ok=True)
    target = into / name
    partial = into / f".{name}.partial"
    digest = hashlib.sha256()
    try:
        with _open(url) as answer, partial.open("wb") as out:
            size = 0
            while chunk := answer.read(CHUNK):
                size += len(chunk)
                if size > max_bytes:
                    raise UpdateError(f"{url}: more than {max_bytes} bytes, not a release")
                digest.update(chunk)
                out.write(chunk)
        if digest.hexdigest() != published:
            raise UpdateError(f"{url}: its SHA-256 is not the one published in {name}.sha256")
        return partial.replace(target)
    except (OSError, urllib.error.URLError) as exc:
        raise UpdateError(f"{url}: cannot be downloaded ({exc})") from None
    finally:
        partial.unlink(missing_ok=True)


def _published_sum(url: str, name: str) -> str:
    """The hex digest `<url>` publishes for `name` (`sha256sum`'s line: digest, two spaces,
    name)."""
    try:
        with _open(url) as answer:
            text = bytes(answer.read(4096)).decode("ascii")
    except (OSError, urllib.error.URLError, UnicodeDecodeError) as exc:
        raise UpdateError(f"{url}: the release's checksum cannot be read ({exc})") from None
    for line in text.splitlines():
        fields = line.split()
        if (
            len(fields) == 2
            and fields[1].lstrip("*") == name
            and re.fullmatch(r"[0-9a-f]{64}", fields[0].lower())
        ):
            return fields[0].lower()
    raise UpdateError(f"{url}: no SHA-256 for {name} in it")


def _open(url: str) -> HTTPResponse:
    """The answer to a GET of `url` (an HTTP error status raises URLError's HTTPError)."""
    answer: HTTPResponse = urllib.request.urlopen(url, timeout=TIMEOUT_S)
    return answer
