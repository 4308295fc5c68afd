"""Widgets the screens share: button rows, check rows, option groups, scrolling lists, glyphs."""
