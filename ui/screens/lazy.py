"""A ScreenManager whose screens not needed at start are built when first shown or asked for.

The first frame shows Home; Settings, History, the rules reference (and its Markdown parser),
the setup wizard and the rest cost memory and start time there for nothing. A screen named in
`later` behaves as if it had been added: `has_screen` says so, and `get_screen` or showing it
builds it (from its module, imported then) with the language and text size of that moment.
"""

from __future__ import annotations

from importlib import import_module

from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreens(ScreenManager):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        #: screen name -> "module:Class", for the screens not built yet
        self.later: dict[str, str] = {}

    def add_later(self, name: str, where: str) -> None:
        self.later[name] = where

    def get_screen(self, name: str) -> Screen:
        where = self.later.pop(name, None)
        if where is not None:
            module, _, cls = where.partition(":")
            self.add_widget(getattr(import_module(module), cls)(name=name))
        return super().get_screen(name)

    def has_screen(self, name: str) -> bool:
        return name in self.later or bool(super().has_screen(name))
