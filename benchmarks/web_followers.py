"""The followers of benchmarks/web.py (and the pages of benchmarks/ui.py): Chromium pages or
lightweight SSE clients in a process of their own, and what each noted of the views it got."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from selenium import webdriver

#: the lightweight clients' process
CLIENTS = Path(__file__).with_name("sse_clients.py")
STREAM = "/events?lang=en"


# ----- the followers: Chromium pages or lightweight clients -----------------------------------
@dataclass
class Marks:
    """One follower's notes, view version -> when (ms since the epoch): its event arrived (a
    page: its handler ran), and for a page the frame showing it."""

    arrived: dict[int, float]
    drawn: dict[int, float] | None = None  # None: a client, which draws nothing

    def reached(self) -> dict[int, float]:
        """Where the follower is done with a version: drawn (a page) or received (a client)."""
        return self.drawn if self.drawn is not None else self.arrived


class Followers(Protocol):
    count: int

    def open(self, port: int) -> None:
        """Follow the server at `port` (each stream open when this returns)."""

    def marks(self) -> list[Marks]:
        """What each follower noted so far."""

    def close(self) -> None: ...


def numbered(times: dict[str, float]) -> dict[int, float]:
    return {int(version): at for version, at in times.items()}


def open_pages(driver: webdriver.Chrome, port: int, count: int) -> list[str]:
    """`count` windows on the server at `port` (one Chromium); their handles. Each page under
    its own name (Chromium takes any *.localhost for the loopback): a browser keeps at most 6
    connections to one host, and each page holds one open stream, as separate phones would.
    (benchmarks/ui.py opens its pages here too.)"""
    handles = [driver.current_window_handle]
    driver.get(f"http://viewer0.localhost:{port}/")
    for n in range(1, count):
        driver.switch_to.new_window("window")
        driver.get(f"http://viewer{n}.localhost:{port}/")
        handles.append(driver.current_window_handle)
    return handles


def close_pages(driver: webdriver.Chrome, handles: list[str]) -> None:
    for handle in handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(handles[0])
    driver.get("about:blank")


class Pages:
    """`count` windows of one Chromium (`open_pages`)."""

    def __init__(self, driver: webdriver.Chrome, count: int) -> None:
        self.driver = driver
        self.count = count
        self.handles: list[str] = []

    def open(self, port: int) -> None:
        self.handles = open_pages(self.driver, port, self.count)

    def _read(self, handle: str, what: str) -> dict[int, float]:
        """The page's `window.armata<what>`."""
        self.driver.switch_to.window(handle)
        found: dict[str, float] = self.driver.execute_script(f"return window.armata{what} || {{}}")
        return numbered(found)

    def marks(self) -> list[Marks]:
        return [Marks(self._read(h, "ArrivedAt"), self._read(h, "ShownAt")) for h in self.handles]

    def close(self) -> None:
        if self.handles:
            close_pages(self.driver, self.handles)
            self.handles = []


class SseClients:
    """`count` lightweight SSE clients in a process of their own (benchmarks/sse_clients.py)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.process: subprocess.Popen[str] | None = None

    def open(self, port: int) -> None:
        url = f"http://127.0.0.1:{port}{STREAM}"
        self.process = subprocess.Popen(
            [sys.executable, str(CLIENTS), url, str(self.count)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        said = self.process.stdout.readline().strip()
        if said != "ready":
            self.close()
            raise RuntimeError(f"the SSE clients: {said or 'ended without a word'}")

    def marks(self) -> list[Marks]:
        assert self.process is not None
        out, _ = self.process.communicate("stop\n", timeout=60)
        if self.process.returncode != 0:
            raise RuntimeError(f"the SSE clients ended with {self.process.returncode}")
        return [Marks(numbered(times)) for times in json.loads(out)]

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def latencies(sent: dict[int, float], marks: list[Marks]) -> tuple[list[float], int]:
    """Milliseconds from each send to each follower being done; how many it never reached."""
    found, missed = [], 0
    for mark in marks:
        reached = mark.reached()
        for version, at in sent.items():
            if version in reached:
                found.append(reached[version] - at)
            else:
                missed += 1
    return found, missed


def draws(marks: list[Marks], versions: set[int]) -> list[float]:
    """Each page's handler -> frame drawn, for `versions` (ms)."""
    return [
        mark.drawn[v] - mark.arrived[v]
        for mark in marks
        if mark.drawn is not None
        for v in sorted(versions)
        if v in mark.drawn and v in mark.arrived
    ]
