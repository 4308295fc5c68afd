"""Giving freed memory back when the table is idle (ui/memory.py): on glibc it really returns
pages, and the resident size after freeing a large heap drops."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import PYTHON, ROOT
from tests.processes import limit

pytestmark = pytest.mark.slow  # a memory probe process

PROBE = """
import json
from ui.memory import release_free_memory

def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

blocks = [bytearray(2000) for _ in range(40_000)]  # ~80 MB in small heap blocks
keep = blocks[-1]
before = rss_kb()
del blocks
freed = rss_kb()
gave_back = release_free_memory()
print(json.dumps({"before": before, "freed": freed, "after": rss_kb(), "gave_back": gave_back}))
"""


def test_freed_heap_memory_goes_back_to_the_system() -> None:
    done = subprocess.run(
        [PYTHON, "-c", PROBE],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=limit(60),
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["gave_back"] is True
    assert figures["after"] < figures["freed"] - 40_000  # at least 40 MB of the 80 returned
