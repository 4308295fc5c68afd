"""The game for observers off the table: its public form (no seed, no stack order, no secret
choice, R-RND-1), the feed after each command, and the MQTT game topics on a real broker."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app.devices.mqtt_feed import GameFeed
from companion.app.devices.nodes import broker_status
from companion.app.session.game import GameSession
from companion.engine.game import commands as c
from companion.engine.game.public import public_event_data, public_state_data
from companion.store.gamelog import GameLog
from firmware_bridge.access import broker_access, parse_address
from firmware_bridge.errors import BrokerAccessError
from firmware_bridge.mqtt_link import GamePublisher
from tests.support.standins.hardware_helpers import Broker, Listener, wait_for

pytestmark = pytest.mark.slow  # a real broker

SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


@pytest.fixture
def session(tmp_path: Path) -> GameSession:
    return GameSession.start(GameLog(tmp_path / "game.db"), 11, SEATS)


def test_the_public_state_hides_what_decides_future_draws(session: GameSession) -> None:
    data = public_state_data(session.state)
    assert "seed" not in data and "draws" not in data
    for name, stack in session.state.stacks.items():
        assert "draw" not in data["stacks"][name]
        assert data["stacks"][name]["left"] == len(stack.draw) > 0
    assert "seed" not in json.dumps(public_event_data(session.log.events(session.game_id)[0]))


@pytest.mark.rule("R-RND-1")
def test_a_chosen_card_stays_secret_until_all_are_revealed(session: GameSession) -> None:  # R-RND-1
    session.execute(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))
    hidden = public_state_data(session.state)
    assert [h["chosen"] for h in hidden["heroes"]] == ["", None, None]
    for hero in ("matthew", "attila"):
        session.execute(next(x for x in session.legal_commands() if getattr(x, "hero", "") == hero))
    assert session.state.phase != "initiative"
    shown = public_state_data(session.state)
    assert shown["heroes"][0]["chosen"] == "roel/prayer-in-the-dark"


def test_the_feed_sends_each_event_then_the_state_and_counts_refusals(
    session: GameSession,
) -> None:
    sent: list[tuple[str, dict[str, object], bool]] = []
    accept = [True]
    feed = GameFeed(
        lambda leaf, payload, retain: sent.append((leaf, json.loads(payload), retain)) or accept[0]
    )
    events = session.execute(c.ChooseCard(hero="roel", card="roel/prayer-in-the-dark"))
    feed.after_command(session.state, events)
    assert [(leaf, m["type"], retain) for leaf, m, retain in sent] == [
        *([("event", "event", False)] * len(events)),
        ("state", "state", True),
    ]
    assert sent[0][1]["event"] == "card_chosen" and sent[0][1]["card"] == ""
    accept[0] = False
    feed.state(session.state)
    assert (feed.sent, feed.failed) == ({"event": len(events), "state": 1}, {"state": 1})


@pytest.fixture
def connected(broker_factory) -> Iterator[tuple[Broker, GamePublisher]]:  # type: ignore[no-untyped-def]
    """A real broker and the app's game publisher, connected to it."""
    broker = broker_factory({"t1": []})
    publisher = GamePublisher("127.0.0.1", broker.port, "t1", *broker.app("t1"))
    publisher.start_publishing()
    try:
        wait_for(publisher.connected.is_set, 10, "the broker")
        yield broker, publisher
    finally:
        publisher.stop()


def test_the_game_topics_on_a_real_broker_with_a_late_subscriber(
    session: GameSession, connected: tuple[Broker, GamePublisher]
) -> None:
    broker, publisher = connected
    live = Listener(broker, "t1", "armata/t1/game/event", 1)
    try:
        feed = GameFeed(publisher.publish_game)
        rng = random.Random(3)
        expected: list[str] = []
        for _ in range(25):
            events = session.execute(rng.choice(session.legal_commands()))
            feed.after_command(session.state, events)
            expected += [public_event_data(x)["event"] for x in events]
        wait_for(lambda: len(live.messages) == len(expected), 10, "every event")
        assert [m["event"] for _t, m, _r in live.messages] == expected  # in order, QoS 1
        late = Listener(broker, "t1", "armata/t1/game/state", 2)
        wait_for(lambda: bool(late.messages), 10, "the retained state")
        [(_topic, message, retained)] = late.messages
        assert retained and message["state"] == json.loads(
            json.dumps(public_state_data(session.state))
        )
        late.stop()
    finally:
        live.stop()


def test_events_published_while_the_broker_is_away_arrive_after_it_is_back(
    session: GameSession, connected: tuple[Broker, GamePublisher]
) -> None:
    broker, publisher = connected
    broker.stop()
    wait_for(lambda: not publisher.connected.is_set(), 10, "the cut")
    assert "not connected" in broker_status(publisher)
    feed = GameFeed(publisher.publish_game)
    feed.state(session.state)  # queued by paho: the table plays on
    assert not feed.failed
    broker.start()
    wait_for(publisher.connected.is_set, 15, "the reconnect")
    assert broker_status(publisher).endswith("connected.")
    late = Listener(broker, "t1", "armata/t1/game/state", 1)
    wait_for(lambda: bool(late.messages), 10, "the queued state")
    assert late.messages[0][1]["state"]["round"] == session.state.round
    late.stop()


def test_broker_access_names_the_file_and_the_missing_field(tmp_path: Path) -> None:
    good = tmp_path / "credentials.json"
    good.write_text(json.dumps({"port": 1883, "users": {"app.t1": "secret"}}))
    access = broker_access("pi.local:1883", good, "app.t1")
    assert (access.host, access.port, access.username, access.password) == (
        "pi.local",
        1883,
        "app.t1",
        "secret",
    )
    with pytest.raises(BrokerAccessError, match=r"users\.app\.t2: missing"):
        broker_access("pi.local:1883", good, "app.t2")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(BrokerAccessError, match=r"broken\.json: not JSON"):
        broker_access("pi.local:1883", broken, "app.t1")
    with pytest.raises(BrokerAccessError, match="cannot read"):
        broker_access("pi.local:1883", tmp_path / "absent.json", "app.t1")
    for address in ("pi.local", ":1883", "pi.local:http", "pi.local:70000"):
        with pytest.raises(BrokerAccessError, match="expected HOST:PORT"):
            parse_address(address)
    assert broker_status(None).startswith("Broker: none set up")
