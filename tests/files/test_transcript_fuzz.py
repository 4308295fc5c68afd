"""The transcript decoder keeps every error under the error root (issue 28, item 6): random bytes,
mutated valid transcripts and random expectations end in a problem naming the file (and the step
and field), never in an exception, and never in an "internal error" of the replay."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import TranscriptError
from companion.transcript import replay_bytes
from companion.transcript.expect import KEYS, check
from companion.transcript.model import Opened, decode

HAND_WRITTEN = Path(__file__).parents[1] / "transcripts"
#: small transcripts that use most verbs, set-ups and expectations
SEEDS = [
    json.loads((HAND_WRITTEN / name).read_text("utf-8"))
    for name in (
        "monster-lost-protected.json",
        "discard-after-protection-and-shock.json",
        "wild-reward-removed.json",
        "stealth-peek.json",
        "supreme.json",
    )
]
FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["Roel", "Charles", "Master", "contains", "one of", "east room", "wound"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from([*KEYS, "contains", "one of", "Roel", "Charles"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _paths(v, (*here, i))
    return found


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    doc = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        path = draw(st.sampled_from(paths))
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(json_values)
    raw = json.dumps(doc).encode()
    if draw(st.booleans()):  # damaged bytes as well
        at = draw(st.integers(0, max(0, len(raw) - 1)))
        raw = raw[:at] + draw(st.binary(max_size=3)) + raw[at + 1 :]
    return raw


def _replays_without_escape(raw: bytes) -> None:
    outcome = replay_bytes(raw, "fuzzed.json")
    for problem in outcome.problems:
        assert not (problem.error or "").startswith("internal error"), problem.line("fuzzed.json")


@FUZZ
@given(st.binary(max_size=200))
def test_random_bytes_are_a_problem_of_their_file(raw: bytes) -> None:
    _replays_without_escape(raw)
    with contextlib.suppress(TranscriptError):  # anything else escapes and fails the test
        decode(raw)


@FUZZ
@given(mutated())
def test_mutated_transcripts_are_a_problem_of_their_file(raw: bytes) -> None:
    _replays_without_escape(raw)


@FUZZ
@given(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=4))
def test_any_expectation_is_checked_or_refused_by_name(expect: dict[str, Any]) -> None:
    opened = Opened(decode(json.dumps(SEEDS[0]).encode()), None)
    from companion.engine.game.emitter import started_state

    state = started_state(opened.started)
    try:
        check(opened.rules, opened.names, state, expect, ["a headline"])
    except TranscriptError as exc:
        assert "field 'expect" in str(exc), exc
