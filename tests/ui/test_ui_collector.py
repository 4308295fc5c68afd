"""Python's cycle collector runs on Kivy's thread only (ui/collector.py): CPython collects on
whichever thread's allocation crosses its thresholds, and what it frees there is mostly Kivy's
(widgets, canvases, GL buffers and textures, all in reference cycles). The app turns the
automatic collector off and makes the same collections on Kivy's clock."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from ui.collector import due_generation

THRESHOLDS = (700, 10, 10)  # CPython's defaults


@pytest.mark.parametrize(
    ("count", "due"),
    [
        ((0, 0, 0), None),
        ((700, 9, 9), None),  # at the threshold: not yet (CPython collects past it)
        ((701, 0, 0), 0),
        ((5000, 3, 2), 0),  # a frame that made many objects: still the young generation
        ((701, 11, 0), 1),  # ten young collections since the middle one's: the middle
        ((701, 11, 11), 2),  # and ten of those since the last full one: everything
        ((701, 3, 11), 2),  # the oldest past its threshold wins
        ((10, 50, 50), None),  # nothing is due while the young generation is under its own
    ],
)
def test_the_generation_due_is_the_one_cpython_would_collect(
    count: tuple[int, int, int], due: int | None
) -> None:
    assert due_generation(count, THRESHOLDS) == due


def test_a_threshold_of_zero_means_never() -> None:
    assert due_generation((10**6, 100, 100), (0, 10, 10)) is None


@pytest.mark.slow
def test_no_collection_runs_on_any_thread_but_kivys_while_games_are_played(
    tmp_path: Path,
) -> None:
    """Two games by touch while another thread allocates as the readers do. Before this fix
    that thread ran about one collection in four, and they freed the games' Kivy objects
    there (VBOs, vertex batches, textures' bindings, colours, observable lists)."""
    from tests.ui.test_ui import ui

    report = ui("collections", "15", data=tmp_path, timeout_s=600)
    assert "error" not in report, report["error"]
    found = report["collections"]
    assert found["elsewhere"] == [], found  # the busy thread collected nothing
    assert found["automatic"] is False  # the automatic collector is off while the app runs
    main = threading.main_thread().name
    runs = {(thread, generation): n for thread, generation, n in found["runs"]}
    assert set(thread for thread, _ in runs) == {main}, runs
    assert runs.get((main, 0), 0) >= 5, runs  # young collections go on, on the clock
    assert runs.get((main, 2), 0) >= 2, runs  # and the full one after each game (idle release)
