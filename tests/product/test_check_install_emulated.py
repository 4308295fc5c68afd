"""The emulated install check (hardware/pi/check-install-emulated.sh, issue 42 item 6) takes
tens of minutes a base and root, so it is run by hand (hardware/pi/README.md); here only its
arguments and its plan (`--dry-run`: nothing built, nothing mounted, no root needed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.processes import limit

SCRIPT = Path(__file__).resolve().parents[2] / "hardware" / "pi" / "check-install-emulated.sh"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=limit(30)
    )


@pytest.mark.parametrize("suite", ["trixie", "bookworm"])
def test_the_dry_run_names_the_base_the_roots_and_the_phases(suite: str, tmp_path: Path) -> None:
    done = run(suite, "--dry-run", "--cache", str(tmp_path), "--app-seconds", "45")
    assert done.returncode == 0, done.stderr
    plan = done.stdout
    assert f"Debian {suite} arm64" in plan and "not Pi OS's own archive" in plan
    assert f"{tmp_path}/base-{suite}-arm64 (built now)" in plan
    assert f"{tmp_path}/install-{suite}-arm64 (a fresh copy of the base)" in plan
    assert "app (45 s under Xvfb)" in plan
    assert "cpu:      cortex-a72" in plan  # a Pi 4's processor, not qemu's slow default "max"
    assert not list(tmp_path.iterdir())  # a dry run changes nothing


def test_a_built_base_is_reused_and_again_installs_over_the_last_root(tmp_path: Path) -> None:
    (tmp_path / "base-trixie-arm64").mkdir()
    (tmp_path / "base-trixie-arm64" / ".armata-base-ready").touch()
    plan = run("trixie", "--dry-run", "--cache", str(tmp_path), "--again").stdout
    assert "base-trixie-arm64 (present, reused)" in plan
    assert "install-trixie-arm64 (the last run's, installed over)" in plan


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((), "which base: trixie"),
        (("stretch",), "unknown argument stretch"),
        (("trixie", "bookworm"), "one base at a time"),
        (("trixie", "--again", "--fresh"), "not both"),
        (("trixie", "--app-seconds", "soon"), "--app-seconds needs a whole number"),
        (("trixie", "--ref", "no-such-ref-anywhere"), "--ref no-such-ref-anywhere: no such commit"),
        (("trixie", "--cache"), "--cache needs a folder"),
        (("trixie", "--cpu"), "--cpu needs a model"),
    ],
)
def test_wrong_arguments_are_refused_with_a_reason(args: tuple[str, ...], said: str) -> None:
    ends_wanting = args[-1:] in (("--cache",), ("--cpu",))  # --dry-run would be its value
    done = run(*args) if ends_wanting else run(*args, "--dry-run")
    assert done.returncode != 0
    assert said in done.stderr, done.stderr
    assert "base:" not in done.stdout  # refused before any plan


def test_help_prints_the_usage() -> None:
    done = run("--help")
    assert done.returncode == 0
    assert "check-install-emulated.sh trixie|bookworm" in done.stderr
