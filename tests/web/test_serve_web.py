"""The headless table's browser view (`python -m companion serve --web`, issue 30), as a
process: it prints the table view's address and a QR code on the terminal, a seat link and its
code on request (`phone HERO`), and a real headless Chromium page follows the game the buttons
play; a seat page shows its hero's hand and makes the choice, which the table then says. The
printed codes are read back by a QR reader (zbarimg)."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from companion.app.web.qr import qr_terminal
from tests.conftest import IN_CI, PYTHON, ROOT
from tests.support.browser import chromium, have_chromium, page_state, refused_by_policy
from tests.support.processes import limit
from tests.support.qr_reader import scanned
from tests.support.standins.hardware_helpers import wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not have_chromium() and not IN_CI, reason="needs chromium and chromium-driver"
    ),
]

#: a terminal code's characters: (top module light, bottom module light); light is printed
HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def terminal_code_png(lines: list[str], path: Path, scale: int = 6) -> Path:
    """A terminal code (segno's compact blocks) as a black-on-white image for a QR reader: a
    portable bitmap (PBM), which zbarimg reads."""
    rows: list[list[bool]] = []  # True: dark
    for line in lines:
        top = [not HALVES[ch][0] for ch in line]
        bottom = [not HALVES[ch][1] for ch in line]
        rows += [top, bottom]
    if all(rows[-1]):  # the last line's lower half lies outside the code (an odd count)
        rows.pop()
    width = len(rows[0]) * scale
    body = []
    for row in rows:
        line = " ".join("1" if dark else "0" for dark in row for _ in range(scale))
        body += [line] * scale
    path.write_text(f"P1\n{width} {len(rows) * scale}\n" + "\n".join(body) + "\n")
    return path


def test_a_terminal_code_read_back_is_its_text(tmp_path: Path) -> None:
    link = "http://192.168.1.20:8421/seat/abcdefghijklmnopqrstuv"
    lines = qr_terminal(link).splitlines()
    assert scanned(terminal_code_png(lines, tmp_path / "code.pbm")) == link


class Served:
    """`serve --keys --web 127.0.0.1:0` as a process; its output lines collected as they come."""

    def __init__(
        self,
        data: Path,
        *extra: str,
        web: str = "127.0.0.1:0",
        inside: Sequence[str] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        """`inside`: the command that runs serve (`ip netns exec NAME`), if any; `env` adds to
        the environment (a stand-in first on PATH)."""
        self.process = subprocess.Popen(
            [
                *inside,
                *(PYTHON, "-m", "companion", "serve", "--data", str(data), "--silent"),
                *("--keys", "--seed", "7", "--web", web, *extra),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_line(self, pattern: str, after: int = 0, seconds: float = 20) -> int:
        """The index of the first line from `after` on that matches `pattern`."""
        found: list[int] = []

        def seen() -> bool:
            found[:] = [
                i for i in range(after, len(self.lines)) if re.search(pattern, self.lines[i])
            ]
            return bool(found)

        wait_for(seen, seconds, f"a line {pattern!r} from serve; got {self.lines[-5:]}")
        return found[0]

    def code_after(self, index: int) -> list[str]:
        """The terminal code printed on the lines after `index` (once printed whole: segno's
        last line is a row of upper halves)."""
        code: list[str] = []

        def whole() -> bool:
            code.clear()
            for line in self.lines[index + 1 :]:
                if not line or set(line) - set(HALVES):
                    break
                code.append(line)
            return bool(code) and set(code[-1]) == {"▀"}

        wait_for(whole, 20.0, f"a whole code after line {index}")
        return code

    def close(self) -> tuple[int, str]:
        assert self.process.stdin is not None
        self.process.stdin.close()  # the end of input: the table stops once all is said
        try:
            code = self.process.wait(limit(30))
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self._reader.join(limit(5))
        assert self.process.stderr is not None
        return code, self.process.stderr.read()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    table = Served(tmp_path)
    try:
        yield table
    finally:
        if table.process.poll() is None:
            table.process.kill()
            table.process.wait()


def test_serve_prints_its_address_and_codes_and_a_browser_follows(
    served: Served, tmp_path: Path
) -> None:
    at = served.wait_line(r"^Table view in a browser: http://127\.0\.0\.1:\d+/$")
    address = served.lines[at].split(": ", 1)[1]
    code = served.code_after(at)
    assert code, served.lines
    assert scanned(terminal_code_png(code, tmp_path / "address.pbm")) == address
    table = chromium(1024, 768)
    seat = chromium(360, 780)
    try:
        table.get(address)
        wait_for(lambda: page_state(table)["live"], 20.0, "the page live")
        assert page_state(table)["round"] == 0  # no game yet
        served.send("c")  # Confirm: a new game
        said = served.wait_line(r"^said: Waiting for ")
        waiting = served.lines[said].split("said: ", 1)[1]  # the whole sentence, on the page too
        wait_for(lambda: page_state(table)["round"] == 1, 20.0, "round 1 on the page")
        assert waiting in page_state(table)["text"]
        shown = page_state(table)["version"]

        # a seat link on request, its code read back, opened by that player's phone
        served.send("phone roel")
        at = served.wait_line(r"^http://127\.0\.0\.1:\d+/seat/", said)
        link = served.lines[at]
        assert link.startswith(address + "seat/")
        assert scanned(terminal_code_png(served.code_after(at), tmp_path / "seat.pbm")) == link
        seat.get(link)
        wait_for(lambda: page_state(seat)["hands"] > 0, 20.0, "Roel's hand on the phone")
        assert "Roel" in page_state(seat)["text"]
        assert page_state(table)["hands"] == 0  # the table's page never shows a hand

        # the phone makes Roel's secret choice: the table takes it as a button press would
        mark = len(served.lines)
        seat.find_elements(By.CSS_SELECTOR, ".hand-card button.choose")[0].click()
        wait_for(
            lambda: bool(seat.find_elements(By.CSS_SELECTOR, ".hand-card.picked")),
            20.0,
            "the choice taken",  # the chosen card marked; the others offered until the reveal
        )
        wait_for(lambda: page_state(table)["version"] > shown, 20.0, "the table page follows")
        assert not any(
            line.startswith("said: ") and "refused" in line for line in served.lines[mark:]
        )

        # the others choose in secret (never read out); the buttons still act and the page
        # follows: Undo takes Roel's choice back and says so without naming the card
        shown = page_state(table)["version"]
        served.send("u")
        served.wait_line(r"^announced: Roel's card choice is undone\.$", mark)
        wait_for(lambda: page_state(table)["version"] > shown, 20.0, "the page after Undo")

        # the pages work within their Content-Security-Policy: nothing of theirs is refused
        assert refused_by_policy(table) == [] and refused_by_policy(seat) == []

        served.send("revoke roel")
        served.wait_line(r"^Phone link revoked\.$", mark)
        wait_for(lambda: not page_state(seat)["seatShown"], 20.0, "the phone's seat closed")
        assert "revoked" in page_state(seat)["text"]

        # the table stops: the page says it may be behind, never that it is live
        code_, errors = served.close()
        assert code_ == 0, errors
        wait_for(lambda: page_state(table)["behind"], 30.0, "the page behind")
        assert not page_state(table)["live"]
    finally:
        table.quit()
        seat.quit()


def test_serve_answers_only_to_its_own_names_and_those_it_is_given(tmp_path: Path) -> None:
    """A page elsewhere that points its own name at the table (DNS rebinding) gets nothing."""
    table = Served(tmp_path, "--web-name", "armata.home")
    try:
        at = table.wait_line(r"^Table view in a browser: http://127\.0\.0\.1:\d+/$")
        port = int(table.lines[at].rsplit(":", 1)[1].strip("/"))
        answers = {}
        for host in ("armata.home", f"localhost:{port}", f"127.0.0.1:{port}", "evil.example"):
            asked = http.client.HTTPConnection("127.0.0.1", port, timeout=limit(10))
            asked.putrequest("GET", "/", skip_host=True)
            asked.putheader("Host", host)
            asked.endheaders()
            answers[host] = asked.getresponse().status
            asked.close()
        assert answers == {
            "armata.home": 200,
            f"localhost:{port}": 200,
            f"127.0.0.1:{port}": 200,
            "evil.example": 421,
        }
    finally:
        code, errors = table.close()
    assert code == 0, errors


def test_a_seat_page_comes_back_by_itself_after_serve_restarts(tmp_path: Path) -> None:
    """Issue 41, item 3: seat links are kept with the game. A phone's seat page opened before
    `serve` stops (a power cut, an update) waits, says why while the game is not resumed, and
    shows its hand again once it is, with no rescan and no reload; a revoked link stays
    revoked."""
    from tests.support.standins.hardware_helpers import free_port

    port, data = free_port(), tmp_path / "data"
    address = f"http://127.0.0.1:{port}/"
    first = Served(data, web=f"127.0.0.1:{port}")
    seat = chromium(360, 780)
    second: Served | None = None
    try:
        first.wait_line(rf"^Table view in a browser: {re.escape(address)}$")
        first.send("c")  # a new game
        said = first.wait_line(r"^said: Waiting for ")
        first.send("phone roel")
        at = first.wait_line(r"^http://127\.0\.0\.1:\d+/seat/", said)
        link = first.lines[at]
        first.send("phone attila")
        at = first.wait_line(r"^http://127\.0\.0\.1:\d+/seat/", at + 1)
        attila = first.lines[at]
        first.send("revoke attila")
        first.wait_line(r"^Phone link revoked\.$", at)
        seat.get(link)
        wait_for(lambda: page_state(seat)["hands"] > 0, 20.0, "Roel's hand on the phone")
        hand = page_state(seat)["hands"]
        code, errors = first.close()  # the table stops: its process ends
        assert code == 0, errors
        wait_for(lambda: not page_state(seat)["live"], 30.0, "the page knows it is behind")

        second = Served(data, web=f"127.0.0.1:{port}")  # started again, nothing resumed yet
        second.wait_line(rf"^Table view in a browser: {re.escape(address)}$")
        waiting = "comes back by itself when the touchscreen resumes it"
        wait_for(lambda: waiting in page_state(seat)["text"], 30.0, "the page says it waits")
        assert not page_state(seat)["live"] and page_state(seat)["seatShown"]
        status, revoked = http_get(f"{attila.replace('/seat/', '/events/seat/')}?lang=en")
        assert status == 403 and "revoked" in revoked
        second.send("c")  # Confirm: the saved game is resumed
        second.wait_line(r"^said: The game goes on\.$")
        wait_for(lambda: page_state(seat)["live"], 30.0, "the page live again")
        wait_for(lambda: page_state(seat)["hands"] == hand, 20.0, "Roel's hand again")
        assert "Roel" in page_state(seat)["text"] and seat.current_url == link  # no rescan
        code, errors = second.close()
        assert code == 0, errors
    finally:
        seat.quit()
        for table in (first, second):
            if table is not None and table.process.poll() is None:
                table.process.kill()
                table.process.wait()


def http_get(url: str) -> tuple[int, str]:
    """A GET's status and body (an error's too)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=limit(10)) as answer:
            return answer.status, answer.read(2000).decode(errors="replace")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(errors="replace")
