"""Lightweight Server-Sent Event clients for benchmarks/web.py: `count` streams read by plain
aiohttp in one asyncio loop (no browser), each noting when every event arrived (`time.time()`,
the benchmark's own clock: one machine). They run in a process of their own, as phones are
devices of their own: the clients never take the server's interpreter lock or its loop.

    python benchmarks/sse_clients.py URL COUNT

Prints `ready` once every stream has had its first event (or `failed: ...` and exits 1); then,
on a line on stdin, stops and prints one JSON line: for each client, view version -> when its
event's last byte arrived (ms since the epoch). Events are only split as they arrive and parsed
after the stop, so a client's own work never delays the next one's read."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import aiohttp

#: how long every client may take to connect and get its first event
CONNECT_S = 30.0
#: what a stream said: (ms since the epoch its last chunk arrived, the event's raw lines)
Events = list[tuple[float, bytes]]


async def follow(
    session: aiohttp.ClientSession, url: str, events: Events, first: asyncio.Event
) -> None:
    """One client: read the stream until cancelled or closed, noting each event."""
    try:
        async with session.get(url, headers={"Accept": "text/event-stream"}) as response:
            response.raise_for_status()
            buffer = b""
            async for chunk in response.content.iter_any():
                at = time.time() * 1000
                *complete, buffer = (buffer + chunk).split(b"\n\n")
                events.extend((at, event) for event in complete)
                if events:
                    first.set()
    finally:
        first.set()  # closed or failed: the start does not wait for it (`failures` says why)


def version(event: bytes) -> int | None:
    """The view version a `view` or `patch` event brings (a bare event's data is the number
    itself); None for any other event (`hello`, `ping`)."""
    name, data = b"message", []
    for line in event.split(b"\n"):
        if line.startswith(b"event:"):
            name = line[6:].strip()
        elif line.startswith(b"data:"):
            data.append(line[5:].removeprefix(b" "))
    if name not in (b"view", b"patch"):
        return None
    value = json.loads(b"\n".join(data))
    return value if isinstance(value, int) else int(value["version"])


def arrivals(events: Events) -> dict[int, float]:
    """View version -> when it first arrived."""
    found: dict[int, float] = {}
    for at, event in events:
        number = version(event)
        if number is not None:
            found.setdefault(number, at)
    return found


def failures(tasks: list[asyncio.Task[None]]) -> list[str]:
    """Why the clients that ended did (a refusal, a reset); empty while all read."""
    return [
        repr(task.exception())
        for task in tasks
        if task.done() and not task.cancelled() and task.exception() is not None
    ]


async def run(url: str, count: int) -> int:
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=CONNECT_S, sock_read=None)
    connector = aiohttp.TCPConnector(limit=0)  # aiohttp's default: 100 connections at most
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        logs: list[Events] = [[] for _ in range(count)]
        firsts = [asyncio.Event() for _ in range(count)]
        tasks = [
            asyncio.create_task(follow(session, url, log, first))
            for log, first in zip(logs, firsts, strict=True)
        ]
        try:
            await asyncio.wait_for(asyncio.gather(*(f.wait() for f in firsts)), CONNECT_S)
        except TimeoutError:
            print("failed: not every client had its first event in time", flush=True)
            return 1
        if failed := failures(tasks):
            print(f"failed: {len(failed)} clients: {failed[0]}", flush=True)
            return 1
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps([arrivals(log) for log in logs]), flush=True)
    return 0


def main() -> int:
    url, count = sys.argv[1], int(sys.argv[2])
    return asyncio.run(run(url, count))


if __name__ == "__main__":
    sys.exit(main())
