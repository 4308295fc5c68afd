"""The product's commands of `python -m companion`: update, backup, restore, import, report.
Each is registered here and runs from its own module."""

from __future__ import annotations

import argparse
from typing import Any


def add_product_commands(sub: Any) -> None:
    """Add the commands to `python -m companion`'s subparsers `sub`."""
    for register in _REGISTER:
        register(sub)


def _none(_sub: Any) -> None:
    return None


_REGISTER: list[Any] = [_none]


def namespace_path(args: argparse.Namespace, name: str) -> Any:
    return getattr(args, name, None)
