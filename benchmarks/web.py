"""The table view's speed, our part apart from the browsers' drawing (issue 41, item 6). A
scripted game on the table service (tests/support/web_table.py), a command every quarter second;
the clock starts when the service begins a command (as a tap starts it; not when this script
posted it to the service's thread: that hop is the benchmark's own). One machine, one clock.

1. Command -> event received by 1, 10 and 100 lightweight SSE clients (benchmarks/sse_clients.py:
   plain aiohttp in one asyncio loop, in a process of its own as phones are devices of their
   own; no browser): the command, the views' build, the server's fan-out and the socket, which
   is what the Pi does for the phones. Baseline in the same run: a bare aiohttp server pushing a
   tiny event to as many clients of the same kind. Goal: p99 <= 50 ms with 100 clients.
2. One page of Debian's headless Chromium (Selenium): command -> frame drawn, and the page's own
   share, its event's handler -> the frame showing the patch (the page's own timestamps,
   `window.armataArrivedAt` and `armataShownAt`), against a bare page that writes the number it
   is sent, timed the same way. Goal: that p99 <= 1.5x the bare page's.
3. Ten Chromium pages, as information (no goal): here they draw on the same two cores as the
   server; on a table each phone draws on its own processor.

Also: the same with 1,000 hostile connections held open (issue 38), and the command plus the
views' build on the service's thread (the touchscreen's) with no follower, 10 pages and 100
clients: the followers must not slow the touchscreen down. Each figure is split: the command
(its durable commit), the views' build, the server's fan-out, the event arriving, the page's
frame; and the bytes sent a command (patches: only what changed).

    python benchmarks/web.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from aiohttp import web
from selenium import webdriver
from stats import percentile
from web_followers import Followers, Marks, Pages, SseClients, draws, latencies

from tests.support.browser import chromium, have_chromium
from tests.support.standins.flood import Flood
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from ui.web.guard import Limits

GOAL_CLIENTS = 100
GOAL_CLIENTS_MS = 50.0
GOAL_DRAW_RATIO = 1.5
CLIENT_COUNTS = (1, 10, GOAL_CLIENTS)
#: the ten pages are one Chromium on one address (phones each have their own): room for them
ONE_ADDRESS = Limits(per_address=64, streams_per_address=32)
#: a hundred clients on one address, and room in all for their streams
MANY_CLIENTS = Limits(connections=400, per_address=256, streams=200, streams_per_address=160)
#: a stranger on the Wi-Fi: connections held open and requests half sent (issue 38)
HOSTILE = 1000
PACE_S = 0.25  # one command every quarter second (players are slower)


@dataclass(frozen=True)
class Plan:
    """How many commands (or bare events) a run, one every `pace_s`."""

    count: int
    pace_s: float = PACE_S


#: the smoke test's run (tests/house/test_benchmark_smoke.py): every figure printed, quickly
QUICK = Plan(8, 0.2)
FULL = Plan(120)

BARE_PAGE = """<!doctype html><html><body><p id=n>0</p><script>
window.armataShownAt = {};
window.armataArrivedAt = {};
const source = new EventSource('/events');
source.addEventListener('view', (event) => {
  const n = Number(event.data);
  window.armataArrivedAt[n] = performance.timeOrigin + performance.now();
  document.getElementById('n').textContent = n;
  requestAnimationFrame(() => {
    window.armataShownAt[n] = performance.timeOrigin + performance.now();
  });
});
</script></body></html>"""


class BareServer:
    """An aiohttp server that pushes a number to every open stream: the transport alone. Each
    stream starts with `hello`, as the table's does."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.wakes: set[asyncio.Event] = set()
        self.number = 0
        self.port = 0
        self.closing = False
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        app = web.Application()
        app.add_routes([web.get("/", self._page), web.get("/events", self._events)])
        self.runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.5)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        ready.set()
        self.loop.run_forever()

    async def _page(self, _request: web.Request) -> web.Response:
        return web.Response(text=BARE_PAGE, content_type="text/html")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        wake = asyncio.Event()
        self.wakes.add(wake)
        try:
            await response.write(b"event: hello\ndata: bare\n\n")
            while True:
                await wake.wait()
                wake.clear()
                if self.closing:
                    break
                await response.write(f"event: view\ndata: {self.number}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.wakes.discard(wake)
        return response

    def push(self, number: int) -> None:
        def deliver() -> None:
            self.number = number
            for wake in self.wakes:
                wake.set()

        self.loop.call_soon_threadsafe(deliver)

    def close(self) -> None:
        async def stop() -> None:
            self.closing = True
            for wake in self.wakes:
                wake.set()
            await asyncio.sleep(0.05)
            await self.runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# ----- the runs --------------------------------------------------------------------------------
@dataclass
class Bare:
    """The bare transport's samples (ms)."""

    reached: list[float]  # push -> received (a client) or drawn (a page)
    draw: list[float]  # a page's handler -> frame drawn
    missed: int


def bare_run(followers: Followers, plan: Plan) -> Bare:
    """Numbers pushed by the bare server to `followers`, as the plan says."""
    server = BareServer()
    try:
        followers.open(server.port)
        wait_for(lambda: len(server.wakes) == followers.count, 10, "the bare streams")
        sent: dict[int, float] = {}
        for n in range(1, plan.count + 1):
            sent[n] = time.time() * 1000
            server.push(n)
            time.sleep(plan.pace_s)
        time.sleep(0.5)
        marks = followers.marks()
    finally:
        followers.close()
        server.close()
    reached, missed = latencies(sent, marks)
    return Bare(reached, draws(marks, set(sent)), missed)


@dataclass
class Run:
    """One run's samples (ms), each from the command's start unless said."""

    reached: list[float] = field(default_factory=list)  # command -> drawn / received (each)
    missed: int = 0
    service: list[float] = field(default_factory=list)  # command + view build, service thread
    command: list[float] = field(default_factory=list)  # the command (its durable commit)
    build: list[float] = field(default_factory=list)  # the views' build and encoding, after it
    fan_out: list[float] = field(default_factory=list)  # built -> written on every stream
    delivered: list[float] = field(default_factory=list)  # built -> each follower's event
    draw: list[float] = field(default_factory=list)  # a page's handler -> frame, per patch
    after: list[float] = field(default_factory=list)  # command done -> drawn / received
    sizes: list[int] = field(default_factory=list)  # bytes of the frame a page got, a command
    placed: list[float] = field(default_factory=list)  # command -> names placed on a new board


@dataclass
class Timeline:
    """Each view version's moments (ms since the epoch), and the versions sent as patches."""

    began: dict[int, float] = field(default_factory=dict)  # the command began: the tap's moment
    done: dict[int, float] = field(default_factory=dict)  # the command done
    built: dict[int, float] = field(default_factory=dict)  # the views built and pushed
    patched: set[int] = field(default_factory=set)
    #: versions sent with the names where they stood: the build placing them is the next one
    unsettled: set[int] = field(default_factory=set)


def play(table: WebTable, plan: Plan, seed: int, run: Run) -> Timeline:
    """Random legal commands on the service's thread, as the plan says."""
    rng = random.Random(seed)
    timeline = Timeline()

    def one() -> tuple[int, float, float]:
        session = table.service.session
        assert session is not None
        start = time.time()
        table.service.execute(rng.choice(session.legal_commands()))
        middle = time.time()
        table.feed._build()  # at once: the build the command posted then finds it made
        end = time.time()
        version = table.feed.version
        if table.feed.settling == version:  # a new board: its names are placed right after
            timeline.unsettled.add(version)
        timeline.began[version] = start * 1000
        timeline.done[version] = middle * 1000
        timeline.built[version] = end * 1000
        return version, (middle - start) * 1000, (end - middle) * 1000

    for _ in range(plan.count):
        if table.call(lambda: table.service.session.state.phase) == "over":  # type: ignore[union-attr]
            break
        version, command_ms, build_ms = table.call(one)
        run.command.append(command_ms)
        run.build.append(build_ms)
        run.service.append(command_ms + build_ms)
        snapshot = table.server.snapshot
        if snapshot.version == version:
            patch = snapshot.patches.get("en")
            if patch is not None:
                timeline.patched.add(version)
            run.sizes.append(len(patch if patch is not None else snapshot.tables.get("en", b"")))
        time.sleep(plan.pace_s)
    return timeline


def measure(run: Run, timeline: Timeline, written: dict[int, float], marks: list[Marks]) -> None:
    """The run's samples from its timeline, the server's writes and the followers' marks."""
    run.fan_out = [written[v] * 1000 - timeline.built[v] for v in timeline.began if v in written]
    run.reached, run.missed = latencies(timeline.began, marks)
    run.draw = draws(marks, timeline.patched)
    after = {v + 1: timeline.began[v] for v in timeline.unsettled}
    run.placed = latencies(after, marks)[0]
    for mark in marks:
        reached = mark.reached()
        for v in timeline.began:
            if v in reached:
                run.after.append(reached[v] - timeline.done[v])
            if v in mark.arrived:
                run.delivered.append(mark.arrived[v] - timeline.built[v])


def table_run(
    followers: Followers | None,
    plan: Plan,
    seed: int,
    hostile: int = 0,
    limits: Limits = ONE_ADDRESS,
) -> Run:
    """A scripted game of `plan.count` commands with `followers`; with `hostile` connections held
    open to the server the whole time (tests/support/standins/flood.py: held and half-sent
    requests from a hundred addresses, each reopened as soon as the server closes it)."""
    run = Run()
    with (
        tempfile.TemporaryDirectory() as data,
        WebTable(Path(data), limits=limits) as table,
        contextlib.ExitStack() as stack,
    ):
        table.call(lambda: table.service.new_game(seed=seed))
        table.settle()
        expected = 0
        if followers is not None:
            stack.callback(followers.close)
            followers.open(table.server.port)
            expected = followers.count
        wait_for(lambda: len(table.server._viewers) == expected, 10, "the streams")
        if hostile:
            held = hostile * 10 // 19
            flood = stack.enter_context(Flood(table.server.port, held, hostile - held))
            wait_for(lambda: flood.reopened > 0, 30, "the server refusing the flood")
        timeline = play(table, plan, seed, run)
        table.settle()
        time.sleep(0.5)
        marks = followers.marks() if followers is not None else []
        measure(run, timeline, table.server.written, marks)
    return run


# ----- the report ------------------------------------------------------------------------------
def figures(samples: list[float]) -> str:
    return (
        f"p50 {statistics.median(samples):7.2f} ms  p90 {percentile(samples, 0.9):7.2f} ms  "
        f"p99 {percentile(samples, 0.99):7.2f} ms"
    )


def row(label: str, samples: list[float], extra: str = "") -> None:
    print(f"{label:50} {figures(samples)}  {extra}".rstrip())


def plural(count: int, what: str) -> str:
    return f"{count} {what}{'s' if count != 1 else ''}"


def split(run: Run, where: str) -> None:
    """Where a run's time went; `where`: what the follower's event reached."""
    row("  of which: the command (durable commit)", run.command)
    row("  of which: the views built (languages followed)", run.build)
    row("  of which: built -> written on every stream", run.fan_out)
    row(f"  of which: built -> {where}", run.delivered)
    if run.placed:
        row("  and on a new board: command -> names placed", run.placed, "(the patch after)")


def sizes_row(run: Run) -> None:
    print(
        f"{'':50} bytes sent per command: p50 {statistics.median(run.sizes):.0f}, "
        f"max {max(run.sizes)} (a patch; a follower that connects gets the whole view)"
    )


def clients_section(plan: Plan) -> dict[int, tuple[Run, Bare]]:
    """Part 1: the lightweight clients, each count against the bare transport."""
    print("1. lightweight SSE clients (asyncio + aiohttp in their own process, no browser)")
    results: dict[int, tuple[Run, Bare]] = {}
    for clients in CLIENT_COUNTS:
        bare = bare_run(SseClients(clients), plan)
        run = table_run(SseClients(clients), plan, seed=5, limits=MANY_CLIENTS)
        results[clients] = (run, bare)
        many = plural(clients, "SSE client")
        row(
            f"command -> event received, {many}",
            run.reached,
            f"({len(run.reached)} events received, {run.missed} missed)",
        )
        row(
            f"  baseline: bare SSE push -> received, {clients}",
            bare.reached,
            f"({len(bare.reached)} events received, {bare.missed} missed)",
        )
        split(run, "event received (each client)")
        sizes_row(run)
    return results


def page_row(label: str, run: Run, bare: Bare) -> None:
    row(
        label,
        run.reached,
        f"baseline: bare SSE push -> page drawn p50 {statistics.median(bare.reached):.2f} ms, "
        f"p99 {percentile(bare.reached, 0.99):.2f} ms   "
        f"({len(run.reached)} views drawn, {run.missed} missed)",
    )


def draw_row(label: str, run: Run, bare: Bare) -> float:
    """The pages' handler -> frame against the bare page's; the ratio of the p99s."""
    ratio = percentile(run.draw, 0.99) / max(percentile(bare.draw, 0.99), 0.001)
    row(
        label,
        run.draw,
        f"bare page: p50 {statistics.median(bare.draw):.2f} ms, "
        f"p99 {percentile(bare.draw, 0.99):.2f} ms   p99 ratio {ratio:.2f}x",
    )
    return ratio


def pages_section(driver: webdriver.Chrome, plan: Plan, viewers: int) -> tuple[Run, Bare, float]:
    """Parts 2 and 3: `viewers` Chromium pages against bare pages; the draw ratio."""
    bare = bare_run(Pages(driver, viewers), plan)
    run = table_run(Pages(driver, viewers), plan, seed=5)
    many = plural(viewers, "viewer")
    page_row(f"command -> browser drawn, {many}", run, bare)
    split(run, "the page's handler")
    ratio = draw_row("  of which: the page's handler -> frame drawn", run, bare)
    sizes_row(run)
    row(f"command done -> browser drawn, {many}", run.after, "(the view's own share)")
    return run, bare, ratio


def verdict(met: bool) -> str:
    return "met" if met else "NOT MET"


def goals(clients: dict[int, tuple[Run, Bare]], draw_ratio: float, one: Run, bare: Bare) -> None:
    run, transport = clients[GOAL_CLIENTS]
    p99 = percentile(run.reached, 0.99)
    print(
        f"goal: command -> event received by {GOAL_CLIENTS} SSE clients, p99 <= "
        f"{GOAL_CLIENTS_MS:.0f} ms: {verdict(p99 <= GOAL_CLIENTS_MS)} (p99 {p99:.2f} ms; the "
        f"bare transport's {percentile(transport.reached, 0.99):.2f} ms)"
    )
    print(
        f"goal: one Chromium page's handler -> frame drawn per patch, p99 <= "
        f"{GOAL_DRAW_RATIO}x the bare page's: {verdict(draw_ratio <= GOAL_DRAW_RATIO)} "
        f"(p99 {percentile(one.draw, 0.99):.2f} ms against {percentile(bare.draw, 0.99):.2f} "
        f"ms: {draw_ratio:.2f}x)"
    )


def others(plan: Plan, one: Run, ten: Run, hundred: Run, hostile: Run) -> None:
    """The flood against the same page without it; the service's thread with followers
    against none."""
    row(
        f"command -> browser drawn, 1 viewer, {HOSTILE:,} hostile connections",
        hostile.reached,
        f"baseline: the same without them p50 {statistics.median(one.reached):.2f} ms, "
        f"p99 {percentile(one.reached, 0.99):.2f} ms   "
        f"({len(hostile.reached)} views drawn, {hostile.missed} missed)",
    )
    row(
        f"command + view build, service thread, {HOSTILE:,} hostile",
        hostile.service,
        f"baseline: the same without them p50 {statistics.median(one.service):.2f} ms, "
        f"p99 {percentile(one.service, 0.99):.2f} ms",
    )
    alone = table_run(None, plan, seed=5)
    for label, run in (("10 viewers", ten), (plural(GOAL_CLIENTS, "SSE client"), hundred)):
        row(
            f"command + view build, service thread, {label}",
            run.service,
            f"baseline: the same with no follower p50 {statistics.median(alone.service):.2f} "
            f"ms, p99 {percentile(alone.service, 0.99):.2f} ms",
        )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if not have_chromium():
        print("needs Debian's chromium and chromium-driver (./setup.sh test installs them)")
        return 1
    plan = QUICK if args.quick else FULL
    print(
        f"armata web benchmark - Python {platform.python_version()}, {platform.machine()}, "
        f"{plan.count} commands a run, one every {plan.pace_s * 1000:.0f} ms, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    clients = clients_section(plan)
    driver = chromium(1024, 768)
    try:
        print("2. one page of headless Chromium")
        one, bare_one, ratio = pages_section(driver, plan, 1)
        print("3. ten pages of headless Chromium, one browser (information: no goal)")
        ten, _, _ = pages_section(driver, plan, 10)
        print("also")
        hostile = table_run(Pages(driver, 1), plan, seed=5, hostile=HOSTILE)
        others(plan, one, ten, clients[GOAL_CLIENTS][0], hostile)
    finally:
        driver.quit()
    goals(clients, ratio, one, bare_one)
    return 0


if __name__ == "__main__":
    sys.exit(main())
