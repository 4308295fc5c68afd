"""Every event and command kind is part of the unions the log and the boundary decode."""

from __future__ import annotations

import typing

from companion.engine.game import commands as c
from companion.engine.game import events as e
from companion.engine.game.fold import FOLDS, apply
from companion.engine.game.tasks import TASK_TYPES, AnyTask, Task
from companion.errors import UnknownEvent


def test_every_event_kind_is_decodable() -> None:
    kinds = {k for k in e.Event.__subclasses__() if k.__module__ == e.__name__}
    assert kinds == set(typing.get_args(e.AnyEvent))


def test_every_command_kind_is_decodable() -> None:
    assert set(c.Command.__subclasses__()) == set(typing.get_args(c.AnyCommand))


def test_every_event_kind_has_a_fold() -> None:
    assert set(typing.get_args(e.AnyEvent)) <= set(FOLDS)
    assert all(callable(fold) for fold in FOLDS.values())


def test_an_unknown_event_is_refused_and_leaves_the_state_alone() -> None:
    class Stray(e.Event, tag="stray"):
        pass

    from companion.engine.game.state import GameState

    state = GameState(seed=1, players=2, heroes=[], rotations={})
    try:
        apply(state, Stray())
    except UnknownEvent as error:
        assert "no fold for" in str(error)
    else:  # pragma: no cover - the assertion below reports it
        raise AssertionError("an unknown event was folded")
    assert state.event_count == 0


def test_every_task_variant_is_decodable_and_named_by_its_kind() -> None:
    variants = set(typing.get_args(AnyTask))
    assert variants == set(Task.__subclasses__())
    assert {t.kind for t in variants} == set(TASK_TYPES) and len(TASK_TYPES) == len(variants)
    for kind, variant in TASK_TYPES.items():  # the log's tag is the kind's value
        assert variant.__struct_config__.tag == kind.value
