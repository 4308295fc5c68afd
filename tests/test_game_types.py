"""Every event and command kind is part of the unions the log and the boundary decode."""

from __future__ import annotations

import typing

from companion.engine.game import commands as c
from companion.engine.game import events as e


def test_every_event_kind_is_decodable() -> None:
    assert set(e.Event.__subclasses__()) == set(typing.get_args(e.AnyEvent))


def test_every_command_kind_is_decodable() -> None:
    assert set(c.Command.__subclasses__()) == set(typing.get_args(c.AnyCommand))
