"""A redraw out of files is a logged, counted fault and the game goes on; any other error still
ends the app (issue 38). Through Kivy's own ExceptionManager, which its clock and event loop
ask when a callback raises."""

from __future__ import annotations

import errno
import logging
import os

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.base import ExceptionManager

from ui.redraw_faults import RedrawFaults, is_exhaustion

FONT = ValueError("Couldn't open font /usr/share/fonts/Roboto-Bold.ttf: Too many open files")


@pytest.mark.parametrize(
    ("error", "passing"),
    [
        (FONT, True),
        (OSError(errno.EMFILE, "Too many open files"), True),
        (OSError(errno.ENFILE, "File table overflow"), True),
        (MemoryError(), True),
        (OSError(errno.ENOENT, "No such file"), False),
        (ValueError("a wrong state"), False),
        (KeyError("hero"), False),
    ],
)
def test_only_a_process_out_of_files_or_memory_is_survived(
    error: BaseException, passing: bool
) -> None:
    assert is_exhaustion(error) is passing
    told: list[tuple[str, BaseException]] = []
    handler = RedrawFaults(lambda where, e: told.append((where, e)))
    handler.install()
    try:
        answer = ExceptionManager.handle_exception(error)
    finally:
        handler.uninstall()
    assert answer == (ExceptionManager.PASS if passing else ExceptionManager.RAISE)
    assert told == ([("the touchscreen's redraw", error)] if passing else [])


def test_a_run_of_failed_redraws_is_one_log_line_now_and_then(
    caplog: pytest.LogCaptureFixture,
) -> None:
    told: list[tuple[str, BaseException]] = []
    handler = RedrawFaults(lambda where, e: told.append((where, e)))
    handler.install()
    try:
        with caplog.at_level(logging.ERROR, logger="ui.redraw_faults"):
            for _ in range(600):  # ten seconds of frames
                assert ExceptionManager.handle_exception(FONT) == ExceptionManager.PASS
    finally:
        handler.uninstall()
        handler.uninstall()  # a second time does nothing
    assert len(told) == 600 and handler.survived == 600  # every one counted and told
    assert len(caplog.records) == 1 and caplog.records[0].exc_info is not None
    assert handler not in ExceptionManager.handlers
