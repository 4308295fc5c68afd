"""Strigoi turns announced: the engine's explanation, LED cues that match the events, and the
three outputs at once (voice, LEDs on a simulated board, MQTT game event on a real broker)."""

from __future__ import annotations

import json
import random
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.app.devices.leds import show_cue
from companion.app.story.announce import Announcer, strigoi_announcement
from companion.app.story.announcement import Announcement, LedCue
from companion.boardfile import load_board_file
from companion.catalog import load_catalog
from companion.engine.explain import hero_name
from companion.engine.game import events as e
from companion.engine.game.context import GameRules
from companion.engine.game.emitter import started_state
from companion.engine.game.flow import decide
from companion.engine.game.legal import legal_commands
from companion.engine.game.setup import new_game
from companion.engine.game.state import GameState
from firmware_bridge.board import SimulatedBoard, node_ids, room_node
from firmware_bridge.mqtt_link import MqttLink
from tests.support.processes import limit
from tests.support.standins.hardware_helpers import wait_for

RULES = GameRules(load_board_file(), load_catalog())
SEATS = [("roel", "L1"), ("matthew", "L2"), ("attila", "L3")]


def strigoi_steps(count: int) -> list[tuple[GameState, list[e.Event]]]:
    """(state before, events) of Strigoi steps from random games, attacks among them."""
    found: list[tuple[GameState, list[e.Event]]] = []
    for seed in range(50):
        rng = random.Random(seed)
        state = started_state(new_game(RULES, seed, SEATS))
        while state.phase != "over" and len(found) < count:
            command = rng.choice(legal_commands(RULES, state))
            events, after = decide(RULES, state, command)
            if any(isinstance(x, e.TokenDrawn) and x.stack == "strigoi" for x in events):
                found.append((state, events))
            state = after
        if len(found) >= count:
            break
    return found


def _step_events(events: list[e.Event]) -> list[e.Event]:
    """The events of the step itself: after its task is done, up to the next task done."""
    start = next(
        (
            i
            for i, x in enumerate(events)
            if isinstance(x, e.TaskDone) and x.kind == "strigoi_resolve"
        ),
        len(events),
    )
    end = next(
        (i for i, x in enumerate(events) if i > start and isinstance(x, e.TaskDone)), len(events)
    )
    return events[start:end]


def test_announcements_match_the_events_they_announce() -> None:
    attacks = 0
    for before, events in strigoi_steps(120):
        made = strigoi_announcement(RULES, before, events)
        step = _step_events(events)  # a curse or collapse may follow in the same command
        moved = [x for x in step if isinstance(x, e.StrigoiMoved)]
        attacked = [x for x in step if isinstance(x, e.StrigoiAttacked)]
        if made is None:  # the drawn token's Strigoi is not on the board
            assert not moved and not attacked
            continue
        assert made.reasons and made.headline
        if moved:
            assert made.facts["to"] == moved[0].room
        destination = room_node(str(made.facts["to"]))
        assert made.leds[0] == LedCue(
            destination, colour=made.leds[0].colour, pattern="pulse", brightness=230
        )
        if attacked:
            attacks += 1
            assert made.facts["hero"] == attacked[0].hero
            assert made.facts["wounds"] == attacked[0].wounds
            assert hero_name(attacked[0].hero) in made.headline  # by its printed name
        else:
            assert made.facts["hero"] is None
            assert all(cue.target == "ring" for cue in made.leds)
    assert attacks >= 3


def test_one_announcement_reaches_screen_voice_leds_and_mqtt(broker_factory) -> None:  # type: ignore[no-untyped-def]
    nodes = node_ids(RULES.fortress.rooms)
    broker = broker_factory({"t1": []})
    link = MqttLink("127.0.0.1", broker.port, "t1", *broker.app("t1"))
    link.start(lambda source, payload: None, lambda source, up: None)
    received: list[dict[str, object]] = []
    listener = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="screen-2")
    listener.username_pw_set(*broker.screen("t1", 1))
    listener.on_message = lambda c, u, m: received.append(json.loads(m.payload))
    listener.connect("127.0.0.1", broker.port)
    listener.subscribe("armata/t1/game/event", 1)
    listener.loop_start()
    board = SimulatedBoard(nodes).start()
    banners: list[tuple[Announcement, str]] = []
    spoken: list[str] = []
    done = threading.Event()
    try:
        wait_for(lambda: all(h.online for h in board.bridge.health()), 10, "the board")
        wait_for(link.connected.is_set, 10, "the broker")
        announcer = Announcer(
            banner=lambda made, words: banners.append((made, words)),
            speak=spoken.append,
            led=lambda cue: show_cue(board.bridge, cue),
            publish=lambda payload: done.set() if link.publish_game("event", payload) else None,
        )
        before, events = next(
            (b, ev)
            for b, ev in strigoi_steps(200)
            if any(isinstance(x, e.StrigoiAttacked) for x in ev)
        )
        made, *after = announcer.after_command(RULES, before, events)
        assert made.kind == "strigoi_step"  # the story's first item (a skipped curse may follow)
        assert banners[0] == (made, made.headline) and spoken[0] == made.headline
        assert len(banners) == len(spoken) == 1 + len(after)
        assert board.bridge.wait_acked(limit(5))
        destination = board.nodes[made.leds[0].node].showing()
        assert destination["ring"]["pattern"] == "pulse"  # type: ignore[index]
        segments = [cue for cue in made.leds if cue.target == "segment"]
        assert segments, "an attack shows its line"
        shown = board.nodes[segments[0].node].showing()["segments"]
        assert shown[segments[0].direction]["pattern"] == "chase"  # type: ignore[index]
        wait_for(lambda: bool(received), 5, "the MQTT game event")
        assert received[0]["kind"] == "strigoi_step" and received[0]["headline"] == made.headline
        assert [r["code"] for r in received[0]["why"]] == [r.code for r in made.reasons]  # type: ignore[index, union-attr]
    finally:
        board.stop()
        link.stop()
        listener.disconnect()
        listener.loop_stop()


def test_the_words_follow_the_players_language_the_event_stays_english() -> None:
    before, events = next(
        (b, ev) for b, ev in strigoi_steps(200) if any(isinstance(x, e.StrigoiAttacked) for x in ev)
    )
    said: list[str] = []
    published: list[bytes] = []
    announcer = Announcer(
        banner=lambda made, words: None,
        speak=said.append,
        led=lambda cue: None,
        publish=published.append,
        translate=lambda template: "«" + template + "»",  # stands in for a catalog
    )
    made, *_ = announcer.after_command(RULES, before, events)
    assert said[0].startswith("«") and said[0] != made.headline
    assert json.loads(published[0])["headline"] == made.headline  # data stays English
    assert made.facts["target_cell"] is not None and made.facts["token"]


@pytest.mark.rule("R-TEL-1")
def test_the_supreme_strigoi_is_announced_though_no_token_is_drawn() -> None:  # R-TEL-1
    from companion.engine.game import commands as c
    from tests.engine.test_rules_deviations import supreme_table

    t = supreme_table()
    room = t.state.strigoi["supreme"]
    t.place("charles", t.neighbour_into(t.rules.fortress.centre(room)))
    before = t.state
    events, after = decide(t.rules, before, c.Stay(hero="charles"))
    if after.tasks and after.tasks[0].kind == "fight_choice":  # the Supreme is in reach: pass
        before = after
        events, after = decide(t.rules, before, c.SkipFight(hero="charles"))
    assert not any(isinstance(x, e.TokenDrawn) and x.stack == "strigoi" for x in events)
    made = strigoi_announcement(t.rules, before, events)
    assert made is not None and made.facts["strigoi"] == "supreme" and made.facts["token"] is None
    moved = [x for x in events if isinstance(x, e.StrigoiMoved)]
    assert made.facts["to"] == (moved[0].room if moved else room)
    assert made.headline and "Supreme" in made.headline
