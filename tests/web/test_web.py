"""The table view's feed and web server without a browser (issue 30): the views equal the
engine, no hand in any public view, seat tokens (one hero, revocable, ending with the game),
and every malformed or unauthorised request refused with a clear message, nothing changed.
The browser itself: tests/web/test_web_browser.py."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.web.feed import REFUSALS
from companion.app.web.seat_guide import option_key
from companion.app.web.seats import ENDED_KEPT, GAME_ENDED, REVOKED, UNKNOWN, Seat, SeatTokens
from companion.app.web.views import xy
from companion.app.words import i18n
from companion.engine.explain import hero_name
from companion.engine.game import commands as c
from tests.support.processes import limit
from tests.support.web_table import WebTable


@pytest.fixture
def table(tmp_path: Path) -> Iterator[WebTable]:
    with WebTable(tmp_path, always=i18n.LANGUAGES) as t:  # the tests read every language's view
        t.call(lambda: t.service.new_game(seed=11))
        t.settle()
        yield t


def view(t: WebTable, language: str = "en") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(t.server.snapshot.tables[language])
    return data


def request(
    url: str, body: bytes | None = None, content_type: str = "application/json", method: str = ""
) -> tuple[int, dict[str, Any]]:
    sent = urllib.request.Request(url, data=body, method=method or ("POST" if body else "GET"))
    if body is not None:
        sent.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(sent, timeout=limit(10)) as answer:
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as refused:
        text = refused.read()
        try:
            return refused.code, json.loads(text)
        except ValueError:
            return refused.code, {"text": text.decode(errors="replace")}


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def game_now(t: WebTable) -> tuple[int, bytes]:
    """The head and the whole state, to show a refusal changed nothing."""
    import msgspec

    return t.call(
        lambda: (t.service.session.head, msgspec.json.encode(t.service.session.state))  # type: ignore[union-attr]
    )


# ----- the views ---------------------------------------------------------------------------------
def test_the_table_view_shows_the_engine_figures_round_and_books(table: WebTable) -> None:
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    fortress = table.call(lambda: table.service.session.rules.fortress)  # type: ignore[union-attr]
    shown = view(table)
    assert shown["round"] == state.round == 1
    figures = {f["id"]: tuple(f["c"]) for f in shown["board"]["figures"]}
    assert figures == {h.hero: h.at for h in state.heroes if h.at is not None}
    for f in shown["board"]["figures"]:
        assert (f["x"], f["y"]) == xy(f["c"])
    rooms = {r["id"]: r for r in shown["board"]["rooms"]}
    for room, platform in fortress.platforms.items():
        turn = state.rotations.get(room, fortress.rooms[room].rotation)
        assert rooms[room]["rotation"] == turn
        assert [b["l"] for b in rooms[room]["books"]] == list(platform.books)


def test_the_views_come_in_the_four_languages(table: WebTable) -> None:
    statuses = {lang: view(table, lang)["status"] for lang in i18n.LANGUAGES}
    assert len(set(statuses.values())) == 4, statuses
    assert view(table, "de")["words"]["log"] == i18n.catalog("de").gettext("Game log")
    # the table's own language did not move
    assert i18n.current_language() == table.call(lambda: table.service.language)


def test_no_public_view_holds_a_hand_or_a_secret_choice(table: WebTable) -> None:
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    hero = state.heroes[0]
    card = hero.hand[0]
    title = table.service.catalog.card(card).title
    table.call(lambda: table.service.execute(c.ChooseCard(hero=hero.hero, card=card)))
    table.settle()
    for language in i18n.LANGUAGES:
        raw = table.server.snapshot.tables[language].decode()
        assert card not in raw and title not in raw  # R-RND-1: secret until all are revealed
        assert '"hand":' not in raw
    assert view(table)["heroes"][0]["chosen"] is True


def test_the_feed_names_who_still_chooses_a_card(table: WebTable) -> None:
    """R-RND-1: "Waiting for every player to choose a card." even after some had chosen; the
    feed names the heroes still choosing, in every language, never a chosen one."""
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    first, *others = state.heroes
    assert others
    assert view(table)["waiting"] == "Waiting for every player to choose a card."
    table.call(lambda: table.service.execute(c.ChooseCard(hero=first.hero, card=first.hand[0])))
    table.settle()
    for language in i18n.LANGUAGES:
        waiting = view(table, language)["waiting"]
        assert hero_name(first.hero) not in waiting, (language, waiting)
        for hero in others:
            assert hero_name(hero.hero) in waiting, (language, waiting)
    names = [hero_name(h.hero) for h in others]
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    counted = "a card" if len(names) == 1 else "their cards"
    assert view(table)["waiting"] == f"Waiting for {said} to choose {counted}."


# ----- seat tokens -------------------------------------------------------------------------------
def test_seat_tokens_one_hero_revocable_ending_with_the_game() -> None:
    tokens = SeatTokens()
    roel = tokens.issue("g1", "roel")
    assert tokens.issue("g1", "roel") == roel  # the same link shown again
    attila = tokens.issue("g1", "attila")
    assert tokens.seat(roel) == Seat("g1", "roel") and tokens.seat(attila) == Seat("g1", "attila")
    assert tokens.revoke("roel") and tokens.seat(roel) == REVOKED
    assert tokens.issue("g1", "roel") != roel  # a new link after a revocation
    tokens.game("g2")
    assert tokens.seat(attila) == GAME_ENDED
    assert tokens.seat("not a token!") == UNKNOWN
    assert tokens.seat("A" * 22) == UNKNOWN


def test_seat_tokens_are_kept_and_come_back_as_they_were() -> None:
    """Issue 41, item 3: every change is handed to `keep` (the table service stores it with
    the settings); a new SeatTokens restored from it opens the same seats and knows the same
    endings; no game loaded ends nothing; what is not a token's form is left out."""
    kept: list[dict[str, Any]] = []
    tokens = SeatTokens(keep=kept.append)
    roel = tokens.issue("g1", "roel")
    attila = tokens.issue("g1", "attila")
    tokens.revoke("attila")
    tokens.game(None)  # Home, or a restart before the resume: the links wait
    assert len(kept) == 3 and tokens.seat(roel) == Seat("g1", "roel")
    again = SeatTokens()
    assert again.restore(json.loads(json.dumps(kept[-1]))) == 1  # as stored: JSON
    assert again.seat(roel) == Seat("g1", "roel") and again.seat(attila) == REVOKED
    again.game("g2")
    assert again.seat(roel) == GAME_ENDED
    garbage: list[object] = [
        None,
        [],
        {"active": {"x": ["g1", "roel"]}},
        {"active": {"A" * 22: "g1"}},
        {"ended": {"B" * 22: "stolen"}},
        {"active": {"C" * 22: ["", "roel"]}},
    ]
    for saved in garbage:
        fresh = SeatTokens()
        assert fresh.restore(saved) == 0 and fresh.active() == {} and fresh.ended() == {}


def test_only_the_latest_endings_are_remembered() -> None:
    tokens = SeatTokens()
    first = tokens.issue("g0", "roel")
    for number in range(1, ENDED_KEPT + 2):
        tokens.issue(f"g{number}", "roel")
        tokens.game(f"g{number}")
    assert len(tokens.ended()) == ENDED_KEPT and tokens.seat(first) == UNKNOWN


def test_a_seat_view_shows_its_hero_only(table: WebTable) -> None:
    link = table.call(lambda: table.feed.seat_link("roel"))
    assert link is not None and link.startswith(table.address + "seat/")
    table.settle()
    token = token_of(link)
    seat = json.loads(table.server.snapshot.seats[token]["en"])["seat"]
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    hand = state.hero("roel").hand
    assert sorted(x["id"] for x in seat["hand"]) == sorted(hand)
    catalog = table.call(lambda: table.service.session.rules.catalog)  # type: ignore[union-attr]
    shown = [catalog.card(x["id"]).initiative for x in seat["hand"]]
    assert shown == sorted(shown)  # by initiative, as on the touchscreen
    assert seat["choices"] == state.hero("roel").hand
    others = [h for h in state.heroes if h.hero != "roel"]
    raw = table.server.snapshot.seats[token]["en"].decode()
    assert all(card not in raw for h in others for card in h.hand)


def test_a_phone_makes_the_secret_choice_with_the_touchscreens_command(table: WebTable) -> None:
    token = token_of(table.call(lambda: table.feed.seat_link("roel")) or "")
    table.settle()
    card = table.call(lambda: table.service.session.state.hero("roel").hand[2])  # type: ignore[union-attr]
    status, answer = request(
        f"{table.address}api/seat/{token}/choose", json.dumps({"card": card}).encode()
    )
    assert (status, answer) == (200, {"ok": True})
    last = table.call(lambda: table.service.session.history()[-1].command)  # type: ignore[union-attr]
    assert last == c.ChooseCard(hero="roel", card=card)
    table.settle()
    seat = json.loads(table.server.snapshot.seats[token]["en"])["seat"]
    hand = table.call(lambda: table.service.session.state.hero("roel").hand)  # type: ignore[union-attr]
    # chosen; any other card of the hand may replace it until all have chosen (R-RND-1)
    assert seat["chosen"]["id"] == card and seat["choices"] == [x for x in hand if x != card]
    again = request(f"{table.address}api/seat/{token}/choose", json.dumps({"card": card}).encode())
    assert again[0] == 409 and "cannot be chosen" in again[1]["error"]


BAD_BODIES = [
    (b"{not json", "application/json", 400),
    (b'{"card": 3}', "application/json", 400),
    (b'{"card": "x", "hero": "attila"}', "application/json", 400),  # no other hero, ever
    (b"[]", "application/json", 400),
    (b'{"option": 3}', "application/json", 400),
    (b"{}", "application/json", 400),  # neither a card nor an option
    (b"card=roel", "application/x-www-form-urlencoded", 415),
    (b'{"card": "' + b"x" * 2000 + b'"}', "application/json", 413),
]


@pytest.mark.parametrize(("body", "kind", "status"), BAD_BODIES)
def test_malformed_choices_are_refused_and_change_nothing(
    table: WebTable, body: bytes, kind: str, status: int
) -> None:
    token = token_of(table.call(lambda: table.feed.seat_link("roel")) or "")
    table.settle()
    before = game_now(table)
    got, answer = request(f"{table.address}api/seat/{token}/choose", body, kind)
    assert got == status
    assert answer.get("ok") is False and answer["error"]
    assert game_now(table) == before


def test_unauthorised_choices_are_refused_and_change_nothing(table: WebTable) -> None:
    roel = token_of(table.call(lambda: table.feed.seat_link("roel")) or "")
    table.settle()
    state = table.call(lambda: table.service.session.state)  # type: ignore[union-attr]
    attila_card = state.hero("attila").hand[0]
    attila_choice = c.ChooseCard(hero="attila", card=attila_card)
    roel_protects = c.Protect(hero="roel", sources=["card"])
    before = game_now(table)
    url = table.address + "api/seat/{}/choose"
    cases = [
        (url.format(roel), {"card": attila_card}, 409, "cannot be chosen"),  # another's card
        (url.format(roel), {"card": "roel/no-such-card"}, 409, "cannot be chosen"),
        # a private decision's key: only this seat's, only while the game waits for it
        (url.format(roel), {"option": option_key(attila_choice)}, 409, "not yours to make"),
        (url.format(roel), {"option": option_key(roel_protects)}, 409, "not yours to make"),
        (url.format(roel), {"option": '{"type": "Pass"}'}, 409, "not yours to make"),
        (url.format("A" * 22), {"card": attila_card}, 403, "not known"),  # a guessed token
        (url.format("bad!token"), {"card": attila_card}, 403, "not known"),  # no token's form
    ]
    for address, body, status, said in cases:
        got, answer = request(address, json.dumps(body).encode())
        assert got == status, (address, answer)
        assert said in json.dumps(answer)
    assert request(table.address + f"api/seat/{roel}/choose")[0] == 405  # a GET
    assert request(table.address + "api/anything", b"{}")[0] == 404
    assert game_now(table) == before
    assert table.server.refused >= 3


def test_a_revoked_or_old_game_token_is_refused(table: WebTable) -> None:
    roel = token_of(table.call(lambda: table.feed.seat_link("roel")) or "")
    attila = token_of(table.call(lambda: table.feed.seat_link("attila")) or "")
    table.settle()
    card = table.call(lambda: table.service.session.state.hero("roel").hand[0])  # type: ignore[union-attr]
    table.call(lambda: table.feed.revoke("roel"))
    table.settle()
    before = game_now(table)
    got, answer = request(
        f"{table.address}api/seat/{roel}/choose?lang=de", json.dumps({"card": card}).encode()
    )
    assert got == 403
    assert answer["error"] == i18n.catalog("de").gettext(
        "This phone link was revoked on the touchscreen."
    )
    assert game_now(table) == before
    status, refused = request(f"{table.address}events/seat/{roel}")
    assert status == 403 and "revoked" in refused["error"]
    table.call(lambda: table.service.new_game(seed=12))  # another game: its tokens end
    table.settle()
    status, refused = request(f"{table.address}events/seat/{attila}")
    assert status == 403 and "ended" in refused["error"]


def test_the_table_stream_sends_the_view_at_once(table: WebTable) -> None:
    with urllib.request.urlopen(table.address + "events?lang=it", timeout=limit(10)) as stream:
        lines = [stream.readline() for _ in range(6)]
    assert lines[0] == b"event: hello\n"
    assert lines[3] == b"event: view\n"
    shown = json.loads(lines[4].removeprefix(b"data: "))
    assert shown["status"] == view(table, "it")["status"]


def events(stream: Any, count: int) -> list[tuple[str, bytes]]:
    """The next `count` events of a Server-Sent Events stream but pings: (name, data)."""
    found: list[tuple[str, bytes]] = []
    name = ""
    while len(found) < count:
        line = stream.readline()
        if line.startswith(b"event: "):
            name = line[7:].strip().decode()
        elif line.startswith(b"data: ") and name != "ping":
            found.append((name, line[6:].rstrip(b"\n")))
    return found


def merged(whole: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """A patch applied as the page applies it (ui/web/static/app.js)."""
    out = {**whole}
    for key, value in patch.items():
        if key == "board":
            out["board"] = {**whole["board"], **value}
        elif key != "base":
            out[key] = value
    return out


def test_after_the_whole_view_a_page_gets_only_what_changed(table: WebTable) -> None:
    with urllib.request.urlopen(table.address + "events?lang=de", timeout=limit(10)) as stream:
        (_, _boot), (kind, data) = events(stream, 2)
        assert kind == "view"
        shown = json.loads(data)
        for _ in range(6):  # commands that move figures, choose cards, turn platforms
            table.call(
                lambda: table.service.execute(table.service.session.legal_commands()[0])  # type: ignore[union-attr]
            )
            table.settle()
            kind, data = events(stream, 1)[0]
            assert kind == "patch", kind
            patch = json.loads(data)
            assert patch["base"] == shown["version"] and patch["version"] > shown["version"]
            assert "spaces" not in patch.get("board", {})  # the 600 spaces did not change
            assert len(data) < len(table.server.snapshot.tables["de"]) / 3
            shown = merged(shown, patch)
            # the page's view, patched, is the whole view of that version
            if table.server.snapshot.version == patch["version"]:
                assert shown == view(table, "de")
    # a page that connects now gets the whole view, not a patch it could not apply
    with urllib.request.urlopen(table.address + "events?lang=de", timeout=limit(10)) as stream:
        (_, _boot), (kind, data) = events(stream, 2)
        assert kind == "view" and json.loads(data) == view(table, "de")


def test_a_page_that_missed_a_version_gets_the_whole_view(table: WebTable) -> None:
    from ui.web.server import Viewer

    table.call(lambda: table.service.execute(table.service.session.legal_commands()[0]))  # type: ignore[union-attr]
    table.settle()  # a view after the game's first: a patch exists
    viewer = Viewer("en", None)
    server = table.server
    snapshot = server.snapshot
    assert "en" in snapshot.patches and snapshot.base == snapshot.version - 1
    whole = snapshot.tables["en"]
    assert server._frame(viewer, whole, snapshot.base).startswith(b"event: patch\n")
    assert (
        server._frame(viewer, whole, snapshot.base - 1) == b"event: view\ndata: " + whole + b"\n\n"
    )
    assert server._frame(viewer, whole, -1).startswith(b"event: view\n")  # a new stream


def test_a_busy_port_gives_way_to_a_free_one(table: WebTable) -> None:
    from ui.web.server import TableWebServer

    second = TableWebServer("127.0.0.1", table.server.port)
    try:
        address = second.start()
        assert second.port != table.server.port and address.endswith(f":{second.port}/")
    finally:
        second.stop()


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], ("127.0.0.1", 8421)),  # the embedded default: this machine only
        (["--kiosk"], ("0.0.0.0", 8421)),  # the Pi: its local network
        (["--web", "0.0.0.0:9000"], ("0.0.0.0", 9000)),
        (["--web", "off"], None),
    ],
)
def test_where_the_table_view_listens(argv: list[str], expected: object) -> None:
    from ui.__main__ import build_parser, web_address

    parser = build_parser()
    assert web_address(parser, parser.parse_args(argv)) == expected


@pytest.mark.parametrize("given", ["8421", "host:", "host:99999", ":80x"])
def test_a_wrong_web_address_is_refused_by_name(given: str) -> None:
    from ui.__main__ import build_parser, web_address

    parser = build_parser()
    with pytest.raises(SystemExit):
        web_address(parser, parser.parse_args(["--web", given]))


def test_announcements_and_encounters_come_as_cards_in_words(table: WebTable) -> None:
    """A Strigoi's step and a drawn encounter token are shown as cards, in the players' words
    (the engine's reasons rendered, the token as printed)."""
    import random

    from companion.app.words.names import room_name, token_phrase
    from companion.engine.game import events as e

    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(300):
        outcome = table.call(
            lambda: table.service.execute(rng.choice(table.service.session.legal_commands()))  # type: ignore[union-attr]
        )
        table.settle()
        cards = view(table)["cards"]
        step = next((a for a in outcome.announced if a.kind == "strigoi_step"), None)
        if step is not None:
            assert cards[0]["kind"] == "strigoi_step"
            if step.facts["to"] != step.facts["from"]:  # a jump names where it lands
                assert room_name(str(step.facts["to"])) in " ".join(cards[0]["lines"])
            assert cards[0]["why"]
            seen.add("step")
        drawn = [
            x for x in outcome.events if isinstance(x, e.TokenDrawn) and x.stack in ("red", "grey")
        ]
        if drawn:
            encounter = [c for c in cards if c["kind"] == "encounter"]
            assert [c["lines"][0] for c in encounter] == [  # a story item (issue 40)
                f"{hero_name(str(a.facts['hero']))} flips "
                f"{token_phrase(table.service.catalog, str(a.facts['token']))}."
                for a in outcome.announced
                if a.kind == "encounter"
            ]
            assert len(encounter) == len(drawn)
            seen.add("encounter")
        if seen == {"step", "encounter"}:
            break
    assert seen == {"step", "encounter"}
    table.call(lambda: table.service.undo())
    table.settle()
    # undo: the cards of the step taken back go; the undo's own item says what it took back
    assert [c["kind"] for c in view(table)["cards"]] == ["undone"]


@pytest.mark.parametrize(
    ("address", "only_here"),
    [
        ("http://127.0.0.1:8421/", True),
        ("http://localhost:8421/", True),
        ("http://[::1]:8421/", True),
        ("http://192.168.1.20:8421/", False),
        ("http://armata.local:8421/", False),
    ],
)
def test_a_loopback_address_is_said_to_work_on_this_machine_only(
    address: str, only_here: bool
) -> None:
    """Found by a new player: the Phones code showed 127.0.0.1, which a phone cannot reach."""
    from companion.app.web.qr import only_this_machine

    assert only_this_machine(address) is only_here


def test_a_heros_wounds_read_as_players_say_them(table: WebTable) -> None:
    """Not "Wounds: wound without Stealth, shock" (token names in a list, issue 29 playtest):
    how many wounds, with a real plural, then what they do in whole sentences (R-WND-1), as
    the touchscreen's cards say it."""
    from companion.app.words.names import token_name

    hero = table.wound_first_hero(("wound-no-stealth", "wound-shock-1"))
    name = hero_name(hero)
    shown = next(h for h in view(table)["heroes"] if h["id"] == hero)
    assert shown["wounds_said"] == f"{name} has 2 wounds. Until healed, {name} cannot use Stealth."
    others = [h for h in view(table)["heroes"] if h["id"] != hero]
    assert others[0]["wounds_said"] == f"{hero_name(others[0]['id'])} has no wounds."
    for language in sorted(i18n.LANGUAGES):
        said = next(h for h in view(table, language)["heroes"] if h["id"] == hero)["wounds_said"]
        with i18n.translating(i18n.catalog(language)):
            names = [token_name(table.service.catalog, t) for t in ("wound-no-stealth",)]
        assert said[0].isupper() and said.endswith(".") and "2" in said, (language, said)
        assert said.count(".") == 2 and not any(n in said for n in names), (language, said)


def test_a_seat_link_copied_with_a_full_stop_still_opens_its_seat(table: WebTable) -> None:
    """A link pasted from a chat ("…/seat/abc.") is led to the seat; a mangled one opens the
    page, whose stream says in the page's language that the link is not known here."""
    roel = token_of(table.call(lambda: table.feed.seat_link("roel")) or "")
    table.settle()
    for tail in (".", ")", ".)", ","):
        opened = urllib.request.urlopen(f"{table.address}seat/{roel}{tail}", timeout=limit(10))
        assert opened.status == 200 and opened.url.endswith(f"/seat/{roel}"), (tail, opened.url)
    mangled = "abc$def"
    with urllib.request.urlopen(f"{table.address}seat/{mangled}", timeout=limit(10)) as page:
        assert page.status == 200 and b"Armata Strigoi" in page.read()
    status, refused = request(f"{table.address}events/seat/{mangled}?lang=de")
    assert status == 403
    assert refused["error"] == i18n.catalog("de").gettext(REFUSALS["unknown"])
    assert refused["error"].startswith("Dieser Handy-Link")


def test_a_seat_link_waits_while_its_game_is_not_loaded(tmp_path: Path) -> None:
    """The table service keeps the links with the settings: a new service on the same game log
    (a restart) knows them; until the game is resumed a seat's stream is refused with 503 and
    why, in the page's language (the page asks again); then the seat opens again. Another
    game ends them."""
    with WebTable(tmp_path) as first:
        first.call(lambda: first.service.new_game(seed=5))
        link = first.call(lambda: first.feed.seat_link("roel")) or ""
        first.settle()
    stream = f"events/seat/{token_of(link)}"
    with WebTable(tmp_path) as second:
        second.settle()
        status, answer = request(f"{second.address}{stream}?lang=de")
        assert status == 503
        assert answer["error"] == i18n.catalog("de").gettext(REFUSALS["paused"])
        second.call(lambda: second.service.resume())
        second.settle()
        opened = urllib.request.urlopen(f"{second.address}{stream}", timeout=limit(10))
        assert opened.status == 200
        opened.close()
        second.call(lambda: second.service.new_game(seed=6))  # another game: the link ends
        second.settle()
        status, answer = request(f"{second.address}{stream}")
        assert status == 403 and answer["error"] == i18n.catalog("en").gettext(REFUSALS[GAME_ENDED])


def test_the_phones_log_says_what_each_step_led_to_as_the_touchscreens(table: WebTable) -> None:
    """Issue 41, item 5: one log. Played at random until a Strigoi step, the phones' log line
    of that step names the token drawn and says the step's card headline, as the touchscreen's
    Game log does (companion/app/story/game_log.py); the lines kept step by step after each
    command equal the ones folded again from the game's start; after an undo too."""
    import random

    from companion.app.story.cards import card_of
    from companion.app.story.game_log import StepResults
    from companion.app.web.views import log_view
    from companion.app.words.names import token_name
    from companion.engine.game import events as e

    rng = random.Random(7)
    catalog = table.service.catalog

    def folded() -> list[dict[str, Any]]:
        session = table.service.session
        assert session is not None
        fresh = StepResults({"en": i18n.catalog("en")})
        return log_view(session, catalog, lambda r: False, session.history(), fresh, "en")

    for _ in range(300):
        outcome = table.call(
            lambda: table.service.execute(rng.choice(table.service.session.legal_commands()))  # type: ignore[union-attr]
        )
        table.settle()
        step = next((a for a in outcome.announced if a.kind == "strigoi_step"), None)
        if step is not None:
            break
    assert step is not None
    newest = view(table)["log"][0]["text"]
    drawn = [x for x in outcome.events if isinstance(x, e.TokenDrawn) and x.stack == "strigoi"]
    # the step is led by its token (issue 40): the log says it as the voice did
    assert drawn and token_name(catalog, drawn[0].token) in newest
    assert card_of(catalog, step).words in newest
    in_phase = table.call(lambda: table.service.session.state.phase == "initiative")  # type: ignore[union-attr]
    if not in_phase:  # (during the choice the secret steps are hidden in both alike)
        assert [x["text"] for x in view(table)["log"]] == [x["text"] for x in table.call(folded)]
    table.call(lambda: table.service.undo())
    table.settle()
    assert view(table)["log"][0]["text"] != newest
    assert [x["text"] for x in view(table)["log"]][:5] == [x["text"] for x in table.call(folded)][
        :5
    ]
