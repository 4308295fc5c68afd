"""Node firmware speed under the real MicroPython interpreter (the Unix port): the Pi's command
-> the node's answer, over the node's stdin/stdout as over USB, with two configured readers that
see no tag. Pings and full LED commands (acknowledged), p50/p99, next to a bare MicroPython echo
over the same pipes measured in the same run. Goal: p99 <= 100 ms (it was 6 s for a ping and
15 s for an LED command while the loop waited on its readers).

    python benchmarks/firmware.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from stats import percentile  # benchmarks/stats.py: the script's folder is on sys.path

from firmware_bridge import protocol as p
from tests.support.standins.firmware_host import MicroPythonNode, micropython, micropython_env

GOAL_MS = 100.0
ECHO = """
import sys, select
poll = select.poll()
poll.register(sys.stdin, select.POLLIN)
while True:
    poll.poll(-1)
    data = sys.stdin.buffer.read(1)
    if not data:
        break
    sys.stdout.buffer.write(data)
"""


def figures(label: str, samples: list[float], bare: list[float]) -> None:
    p99 = percentile(samples, 0.99)
    print(
        f"{label:38} p50 {statistics.median(samples):6.2f} ms  p99 {p99:6.2f} ms   "
        f"goal p99 <= {GOAL_MS:.0f} ms   baseline: bare MicroPython echo p50 "
        f"{statistics.median(bare):.2f} ms, p99 {percentile(bare, 0.99):.2f} ms   "
        f"({len(samples)} commands)"
    )


def through_firmware(node: MicroPythonNode, count: int, led: bool) -> list[float]:
    samples = []
    for i in range(count):
        seq = node.next_seq()
        if led:
            message: p.Message = p.Led(
                seq=seq, node=node.node, colour=f"#{i % 256:02x}8000", pattern="pulse"
            )
            sent = node.send(message)
            answered, _ = node.expect_timed(p.Ack, 5.0, ack=seq)
        else:
            sent = node.send(p.Ping(seq=seq, node=node.node, t=i))
            answered, _ = node.expect_timed(p.Pong, 5.0, t=i)
        samples.append((answered - sent) * 1000)
    return samples


def bare_echo(count: int, size: int) -> list[float]:
    """The same pipes and interpreter, a loop that only echoes bytes back: the floor."""
    process = subprocess.Popen(
        [micropython(), "-c", ECHO],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=micropython_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    samples = []
    payload = b"x" * size
    try:
        for _ in range(count):
            start = time.perf_counter()
            process.stdin.write(payload)
            process.stdin.flush()
            got = 0
            while got < size:
                got += len(os.read(process.stdout.fileno(), size - got))
            samples.append((time.perf_counter() - start) * 1000)
    finally:
        process.stdin.close()
        process.wait(timeout=5)
        process.stdout.close()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    count = 50 if args.quick else 500
    version = subprocess.run(
        [micropython(), "-c", "import sys; print(sys.version)"],
        capture_output=True,
        text=True,
        env=micropython_env(),
        check=True,
    ).stdout.strip()
    print(
        f"armata firmware benchmark - MicroPython {version} (Unix port), "
        f"Python {platform.python_version()}, {platform.machine()}"
    )
    with tempfile.TemporaryDirectory() as tmp, MicroPythonNode(Path(tmp)) as node:
        node.expect(p.Hello, 10.0)
        ping_size = len(p.encode_message(p.Ping(seq=2**31, node=node.node, t=count)))
        led_size = len(
            p.encode_message(p.Led(seq=2**31, node=node.node, colour="#ff8000", pattern="pulse"))
        )
        figures(
            "ping -> pong (2 readers, no tag)",
            through_firmware(node, count, led=False),
            bare_echo(count, ping_size),
        )
        figures(
            f"LED command ({led_size} B) -> ack",
            through_firmware(node, count, led=True),
            bare_echo(count, led_size),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
