"""A stranger on the Wi-Fi, as tests and benchmarks/web.py play one: many connections held open
to the phones' server, from many client addresses (the whole of 127.0.0.0/8 is this machine),
some idle, some with a request's headers sent half and never finished; any the server closes
are opened again at once, as an attacker would."""

from __future__ import annotations

import contextlib
import resource
import selectors
import socket
import threading
import time
from dataclasses import dataclass, field

HALF_REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def raise_file_limit(wanted: int) -> None:
    """This process may hold `wanted` files (up to its hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


@dataclass
class Flood:
    """`held` idle connections and `half_open` half-sent requests to `port`, spread over
    `addresses` client addresses 127.77.x.y; kept up by a thread until `stop`."""

    port: int
    held: int = 1000
    half_open: int = 900
    addresses: int = 100
    host: str = "127.0.0.1"
    reopened: int = 0
    _sockets: dict[socket.socket, int] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def source(self, n: int) -> str:
        n %= self.addresses
        return f"127.77.{n // 200}.{n % 200 + 1}"

    def _open(self, n: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        with contextlib.suppress(OSError):
            sock.bind((self.source(n), 0))
            sock.connect_ex((self.host, self.port))
            self._sockets[sock] = n
            return
        sock.close()

    def start(self) -> Flood:
        raise_file_limit(self.held + self.half_open + 512)
        for n in range(self.held + self.half_open):
            self._open(n)
        self._thread = threading.Thread(target=self._keep_up, name="flood", daemon=True)
        self._thread.start()
        return self

    def _keep_up(self) -> None:
        sent: set[socket.socket] = set()
        with selectors.DefaultSelector() as selector:
            registered: set[socket.socket] = set()
            while not self._stop.is_set():
                for sock in list(self._sockets):
                    if sock not in registered:
                        selector.register(sock, selectors.EVENT_READ | selectors.EVENT_WRITE)
                        registered.add(sock)
                for key, events in selector.select(0.2):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    n = self._sockets[sock]
                    if events & selectors.EVENT_WRITE and sock not in sent:
                        sent.add(sock)
                        if n >= self.held:  # half of a request, never the rest
                            with contextlib.suppress(OSError):
                                sock.send(HALF_REQUEST)
                        selector.modify(sock, selectors.EVENT_READ)
                    elif events & selectors.EVENT_READ:
                        try:
                            data = sock.recv(65536)
                        except OSError:
                            data = b""
                        if not data:  # closed by the server: open it again
                            selector.unregister(sock)
                            registered.discard(sock)
                            sent.discard(sock)
                            del self._sockets[sock]
                            sock.close()
                            self.reopened += 1
                            self._open(n)
                            time.sleep(0.001)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        for sock in list(self._sockets):
            sock.close()
        self._sockets.clear()

    def __enter__(self) -> Flood:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
