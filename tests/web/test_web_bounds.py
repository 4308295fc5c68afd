"""The phones' server within bounds and answering only to the table's own names (issue 38):
caps on connections and streams, slow requests closed, a phone that stops reading dropped, a
seat's pace, a choice answered with the truth while the table is busy, foreign Host refused,
the headers that keep other sites out, HEAD on the stream. The same server under a flood, run
as `serve --web` with the 1,024 files of a systemd service: tests/web/test_web_flood.py."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.web.feed import PendingChoice, Snapshot
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for
from tests.support.web_table import WebTable
from ui.web.guard import ChoiceRate, Limits, Refusals, budget
from ui.web.names import SECURITY_HEADERS, allowed, own_names
from ui.web.server import TableWebServer

SMALL = Limits(
    connections=20,
    per_address=4,
    streams=6,
    streams_per_address=2,
    header_s=1.0,
    body_s=1.0,
    write_s=1.0,
)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    with WebTable(tmp_path, limits=SMALL) as t:
        t.call(lambda: t.service.new_game(seed=11))
        t.settle()
        yield t


def port_of(t: WebTable) -> int:
    return t.server.port


def raw(port: int, request: bytes, source: str = "127.0.0.1", seconds: float = 10) -> bytes:
    """Send `request` as it is and read the answer until the server closes or goes quiet."""
    with socket.create_connection(("127.0.0.1", port), limit(10), (source, 0)) as sock:
        sock.sendall(request)
        sock.settimeout(limit(seconds))
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except TimeoutError:
            pass
        return got


def get(
    port: int, path: str, host: str = "", source: str = "127.0.0.1", method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    answer = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=limit(10), source_address=(source, 0)
    )
    try:
        answer.putrequest(method, path, skip_host=True)
        answer.putheader("Host", host or f"127.0.0.1:{port}")
        answer.endheaders()
        got = answer.getresponse()
        body = got.read(2000) if not path.startswith("/events") else got.read1(2000)
        return got.status, {k.lower(): v for k, v in got.getheaders()}, body
    finally:
        answer.close()


def seat_link(t: WebTable) -> tuple[str, str, str]:
    """A seat's token, its hero and a card of its hand."""
    state = t.call(lambda: t.service.session.state)  # type: ignore[union-attr]
    hero = state.heroes[0]
    link = t.call(lambda: t.feed.seat_link(hero.hero))
    assert link is not None
    return link.rsplit("/", 1)[1], hero.hero, hero.hand[0]


def choose(port: int, token: str, card: str) -> tuple[int, dict[str, object]]:
    answer = http.client.HTTPConnection("127.0.0.1", port, timeout=limit(60))
    try:
        body = json.dumps({"card": card})
        answer.request(
            "POST", f"/api/seat/{token}/choose", body, {"Content-Type": "application/json"}
        )
        got = answer.getresponse()
        return got.status, json.loads(got.read())
    finally:
        answer.close()


# ----- the table's own names --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("host", "taken"),
    [
        ("127.0.0.1:8080", True),
        ("10.42.0.1", True),
        ("[::1]:8080", True),
        ("localhost:8080", True),
        ("LOCALHOST.", True),
        ("viewer3.localhost:8421", True),
        ("localhost.evil.example", False),
        ("evil.example", False),
        ("evil.example:8080", False),
        ("127.0.0.1.evil.example", False),
        ("", False),
    ],
)
def test_a_host_is_one_of_the_tables_names_or_an_address(host: str, taken: bool) -> None:
    assert allowed(host, own_names()) is taken
    assert allowed(f"{socket.gethostname()}.local", own_names())
    assert allowed("armata.home:80", own_names(["armata.home"]))


@pytest.mark.parametrize("path", ["/", "/events", "/static/app.js", "/events/seat/" + "a" * 22])
def test_a_foreign_host_gets_nothing_of_the_table(table: WebTable, path: str) -> None:
    status, _headers, body = get(port_of(table), path, host="evil.example")
    assert status == 421, body
    assert b"Armata" not in body and b"event:" not in body


def test_an_absolute_target_naming_another_site_is_refused(table: WebTable) -> None:
    answer = raw(
        port_of(table),
        b"GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 421"), answer[:200]
    answer = raw(
        port_of(table),
        b"GET http://127.0.0.1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


def test_a_name_the_owner_adds_is_answered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMATA_WEB_NAMES", "armata.home, Table.Lan")
    with WebTable(tmp_path) as t:
        for host in ("armata.home", "table.lan:8080", "localhost"):
            assert get(port_of(t), "/", host=host)[0] == 200, host
        assert get(port_of(t), "/", host="other.lan")[0] == 421


# ----- headers ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path", ["/", "/seat/" + "a" * 22, "/static/app.js", "/static/style.css", "/nothing", "/events"]
)
def test_every_answer_carries_the_headers_that_keep_other_sites_out(
    table: WebTable, path: str
) -> None:
    _status, headers, _body = get(port_of(table), path)
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name.lower()) == value, (path, name, headers)
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_head_on_the_stream_answers_headers_only(table: WebTable) -> None:
    answer = raw(port_of(table), b"HEAD /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", seconds=3)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), answer[:300]
    assert b"text/event-stream" in head
    assert rest == b"", rest[:200]  # nothing of the stream after the headers


# ----- bounds ----------------------------------------------------------------------------------
def test_the_totals_keep_within_a_quarter_of_the_file_limit() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
        kept = budget(Limits(connections=5000, per_address=8000, streams=4000))
        assert kept.connections == 256 and kept.per_address == 256 and kept.streams == 256
        assert budget().connections <= 256
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_request_that_never_finishes_is_closed(table: WebTable) -> None:
    started = time.monotonic()
    answer = raw(port_of(table), b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", seconds=30)
    assert answer == b""  # closed, unanswered
    assert time.monotonic() - started < limit(30)
    wait_for(lambda: table.server.refusals.counts["slow requests closed"] >= 1, 10, "counted")


def test_a_kept_connection_that_goes_quiet_is_closed(table: WebTable) -> None:
    answer = raw(
        port_of(table), b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", seconds=30
    )
    assert answer.startswith(b"HTTP/1.1 200")  # answered, then closed when nothing more came


def test_an_address_over_its_cap_gets_the_too_many_phones_page_and_others_get_in(
    table: WebTable,
) -> None:
    port = port_of(table)
    held = [
        socket.create_connection(("127.0.0.1", port), limit(10)) for _ in range(SMALL.per_address)
    ]
    try:
        wait_for(lambda: table.server.guard.open >= SMALL.per_address, 10, "the connections held")
        refused = raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert refused.startswith(b"HTTP/1.1 503"), refused[:200]
        assert b"Too many phones" in refused and b"Zu viele Handys" in refused
        head = refused.split(b"\r\n\r\n", 1)[0].decode()
        for name, value in SECURITY_HEADERS.items():  # framing and referrer as every answer
            assert f"{name}: {value}" in head or name == "Content-Security-Policy", (name, head)
        assert "frame-ancestors 'none'" in head
        assert b'http-equiv="refresh" content="10"' in refused  # it asks again by itself
        status, _headers, body = get(port, "/", source="127.0.0.2")  # another phone
        assert status == 200 and b"Armata Strigoi" in body
    finally:
        for sock in held:
            sock.close()
    wait_for(lambda: table.server.guard.open == 0, 10, "the held ones closed")
    assert get(port, "/")[0] == 200  # the address is welcome again
    assert table.server.refusals.counts["connections over the cap of one address"] >= 1


def test_streams_over_the_cap_are_refused_in_the_phones_language(table: WebTable) -> None:
    port = port_of(table)
    streams = []
    try:
        for _ in range(SMALL.streams_per_address):
            sock = socket.create_connection(("127.0.0.1", port), limit(10))
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            sock.settimeout(limit(10))
            streams.append(sock)
            got = b""
            while b"event: hello" not in got:
                chunk = sock.recv(65536)
                assert chunk, got
                got += chunk
        status, _headers, body = get(port, "/events?lang=de", source="127.0.0.1")
        assert status == 503
        assert "Handys" in json.loads(body)["error"]
        assert get(port, "/events", source="127.0.0.3")[0] == 200  # another phone's stream
    finally:
        for sock in streams:
            sock.close()


def test_a_phone_that_stops_reading_is_dropped(tmp_path: Path) -> None:
    server = TableWebServer("127.0.0.1", 0, SMALL)
    server.start()
    server.push(Snapshot(1, {"en": b'"the table"'}))
    try:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        wait_for(lambda: len(server._viewers) == 1, 10, "the stream open")
        big = b'"' + b"x" * 400_000 + b'"'
        for version in range(2, 40):  # views the phone never reads
            server.push(Snapshot(version, {"en": big}))
            time.sleep(0.05)
            if server.refusals.counts["streams dropped: the phone stopped reading"]:
                break
        wait_for(
            lambda: server.refusals.counts["streams dropped: the phone stopped reading"] == 1,
            30,
            "the stream dropped",
        )
        wait_for(lambda: not server._viewers, 10, "the viewer gone")
        sock.close()
    finally:
        server.stop()


def test_a_seat_sending_choices_too_fast_is_slowed(table: WebTable) -> None:
    token, _hero, _card = seat_link(table)
    answers = [
        choose(port_of(table), token, "no-such-card")[0] for _ in range(SMALL.choices_burst + 2)
    ]
    assert answers[: SMALL.choices_burst] == [409] * SMALL.choices_burst
    assert 429 in answers[SMALL.choices_burst :]


def test_a_choice_rate_refills_with_time() -> None:
    now = [0.0]
    rate = ChoiceRate(Limits(choices_per_s=2.0, choices_burst=3), clock=lambda: now[0])
    assert [rate.allows("t") for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert rate.allows("t") and not rate.allows("t")
    assert rate.allows("other")


def test_refusals_are_one_line_now_and_then(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    refusals = Refusals(clock=lambda: now[0])
    with caplog.at_level("WARNING", logger="ui.web.guard"):
        for _ in range(10_000):
            refusals.count("connections over the cap")
            now[0] += 0.001  # ten thousand in ten seconds
    assert len(caplog.records) == 1
    assert refusals.counts["connections over the cap"] == 10_000


# ----- a choice's answer is the truth ---------------------------------------------------------
def test_a_pending_choice_is_taken_or_withdrawn_never_both() -> None:
    first, second = PendingChoice(), PendingChoice()
    assert first.take() and not first.withdraw()
    assert second.withdraw() and not second.take()


def test_a_choice_while_the_table_is_busy_is_answered_with_the_truth(table: WebTable) -> None:
    """The service is blocked 6 s (a slow commit, a long redraw): the phone's choice is either
    played and answered 200, or refused and never played — never "try again" for a card that
    then is in the game."""
    token, hero, card = seat_link(table)
    release = threading.Event()
    table.post(lambda: release.wait(6))  # the service's thread busy
    status, answer = choose(port_of(table), token, card)
    release.set()
    table.settle()
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    chosen = next(h for h in state.heroes if h.hero == hero).chosen
    if status == 200:
        assert chosen == card, answer
    else:
        assert status == 503 and chosen is None, (status, answer)
        assert "did not take your card" in str(answer["error"])
        # the phone chooses again, and now it is played
        assert choose(port_of(table), token, card)[0] == 200
        table.settle()
        state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
        assert next(h for h in state.heroes if h.hero == hero).chosen == card


def test_an_owner_may_let_one_address_keep_more_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.errors import InvalidOptions
    from ui.web.guard import from_environment

    monkeypatch.setenv("ARMATA_WEB_PAGES_PER_ADDRESS", "12")
    more = from_environment()
    assert (more.streams_per_address, more.per_address) == (12, 28)
    for wrong in ("many", "0"):
        monkeypatch.setenv("ARMATA_WEB_PAGES_PER_ADDRESS", wrong)
        with pytest.raises(InvalidOptions, match="ARMATA_WEB_PAGES_PER_ADDRESS"):
            from_environment()
