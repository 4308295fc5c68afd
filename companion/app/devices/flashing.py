"""`python -m companion nodes flash`: the shipped firmware onto each connected USB node, safely.

For each node: the node is asked (`open_repl`) to let mpremote in, the app lets go of the
ports, and then, one mpremote call per step:
1. stage: an empty `.next/` folder on the node's flash;
2. copy every firmware file into `.next/`, then read back each file's sha256 and compare;
3. swap: the running firmware moves to `.prev/`, `.next/` takes its place (renames only);
4. verify the files in place the same way, then reset the node.
Any step before the swap failing leaves the old firmware untouched (`.next/` is all it wrote);
a failed swap or check after it moves `.prev/` back. Either way the node is reset, so it runs
its old firmware again, and named. The others are still flashed. The node's config.json is
never touched. Finally every node is awaited: its hello must name the shipped version."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.app.devices.mpremote import Mpremote
from companion.app.devices.node_scan import DEFAULT_WAIT_S, NodeScan
from companion.errors import FlashError, NodeError
from firmware_bridge.errors import BadId
from firmware_bridge.ids import check_id
from hardware.shipped_firmware import FirmwareFile, firmware_files, firmware_version

log = logging.getLogger(__name__)

STAGE = ".next"
PREVIOUS = ".prev"
#: how long a node lets Ctrl-C in after `open_repl`: mpremote's turn comes after the others'
REPL_WINDOW_S = 300
ACK_WAIT_S = 3.0
#: after its reset a node boots and says hello within seconds; USB re-enumerates first
BACK_WAIT_S = 20.0

#: MicroPython, run on the node by `mpremote exec`: remove a file or folder tree
_RM = """import os
def rm(p):
    try:
        if os.stat(p)[0] & 0x4000:
            for n in os.listdir(p):
                rm(p + '/' + n)
            os.rmdir(p)
        else:
            os.remove(p)
    except OSError:
        pass
"""
_TOP = ("main.py", "armata_node")  # what the firmware is on the flash: moved as a whole
STAGE_CODE = _RM + f"rm('{STAGE}')\nos.mkdir('{STAGE}')\nos.mkdir('{STAGE}/armata_node')\n"
SWAP_CODE = (
    _RM
    + f"rm('{PREVIOUS}')\nos.mkdir('{PREVIOUS}')\n"
    + f"for n in {_TOP!r}:\n"
    + "    try:\n"
    + f"        os.rename(n, '{PREVIOUS}/' + n)\n"
    + "    except OSError:\n"
    + "        pass\n"
    + f"    os.rename('{STAGE}/' + n, n)\n"
    + f"rm('{STAGE}')\n"
)
ROLLBACK_CODE = (
    _RM
    + f"for n in {_TOP!r}:\n"
    + "    try:\n"
    + f"        os.stat('{PREVIOUS}/' + n)\n"
    + "    except OSError:\n"
    + "        continue\n"
    + "    rm(n)\n"
    + f"    os.rename('{PREVIOUS}/' + n, n)\n"
)


@dataclass
class FlashResult:
    node: str
    port: str
    before: str  # the version its hello named before ("" none)
    after: str = ""  # the version of its hello once back ("" none, or not back)
    problem: str = ""  # "" when flashed and back with the shipped version

    @property
    def ok(self) -> bool:
        return not self.problem


def write_firmware(mp: Mpremote, files: Sequence[FirmwareFile], config: Path | None = None) -> None:
    """Steps 1-4 on one node (FlashError at the step that failed, the old firmware back in
    place when it can be), then the reset. `config`: a fresh board's config.json, copied
    once the firmware is in place."""
    try:
        _write(mp, files)
        if config is not None:
            mp.copy("config", [(config, "config.json")])
    except FlashError:
        try:
            mp.reset()  # back to the firmware it had
        except FlashError as again:
            log.warning("%s: reset after a failed flash: %s", mp.port, again)
        raise
    mp.reset()


def _write(mp: Mpremote, files: Sequence[FirmwareFile]) -> None:
    mp.exec("stage", STAGE_CODE)
    mp.copy("copy", [(f.local, f"{STAGE}/{f.remote}") for f in files])
    _verify(mp, "verify copy", files, STAGE + "/")
    mp.exec("swap", SWAP_CODE)
    try:
        _verify(mp, "verify", files, "")
    except FlashError:
        mp.exec("roll back", ROLLBACK_CODE)
        raise


def _verify(mp: Mpremote, step: str, files: Sequence[FirmwareFile], prefix: str) -> None:
    digests = mp.sha256(step, [prefix + f.remote for f in files])
    for item, digest in zip(files, digests, strict=True):
        if digest != item.sha256():
            raise FlashError(step, f"{prefix}{item.remote} differs from the shipped file")


Report = Callable[[str], None]


def flash_nodes(
    scan_pattern: str,
    nodes: Sequence[str] = (),
    *,
    wait_s: float = DEFAULT_WAIT_S,
    back_wait_s: float = BACK_WAIT_S,
    report: Report = print,
    program: str | None = None,
) -> list[FlashResult]:
    """Flash `nodes` (all found when empty) on the ports of `scan_pattern`; one result each,
    in the order asked (or by id). A node named but not found is a result with its problem."""
    files, shipped = firmware_files(), firmware_version()
    results: dict[str, FlashResult] = {}
    with NodeScan(scan_pattern) as scan:
        found = scan.wait(wait_s, nodes or None)
        targets = list(nodes) or sorted(found)
        for node in targets:
            health = found.get(node)
            if health is None or health.source is None:
                results[node] = FlashResult(node, "", "", problem="said no hello on any port")
                continue
            results[node] = FlashResult(node, health.source, health.version)
        asked = {n: scan.bridge.open_repl(n, REPL_WINDOW_S) for n in targets if n in found}
        deadline = time.monotonic() + ACK_WAIT_S
        while time.monotonic() < deadline and any(
            scan.bridge.outcome(n, seq) is None for n, seq in asked.items()
        ):
            time.sleep(0.02)
        for node, seq in asked.items():
            answer = scan.bridge.outcome(node, seq)
            if answer is None or answer:
                results[node].problem = (
                    f"did not let mpremote in ({answer or 'no answer to open_repl'}): its "
                    "firmware predates it; flash it by hand once (hardware/BUILD.md)"
                )
    for node in targets:
        result = results[node]
        if result.problem:
            continue
        report(f"{node} ({result.port}): writing firmware {shipped} ...")
        try:
            write_firmware(Mpremote(result.port, program), files)
        except FlashError as exc:
            result.problem = f"{exc}; it keeps its old firmware"
    back = [n for n in targets if results[n].port]
    if back:
        with NodeScan(scan_pattern) as scan:
            found = scan.wait(back_wait_s, back)
        for node in back:
            result = results[node]
            health = found.get(node)
            if health is None:
                if not result.problem:
                    result.problem = f"no hello within {back_wait_s:g} s after its reset"
                continue
            result.after = health.version
            if not result.problem and health.version != shipped:
                result.problem = f"came back with firmware {health.version or '(none named)'}"
    return [results[n] for n in targets]


def node_config(path: Path) -> str:
    """The node id of a config.json for a fresh board; NodeError when it cannot be one."""
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise NodeError(f"{path}: not a node config ({exc})") from None
    if not isinstance(config, dict) or config.get("kind") not in ("room", "card_reader"):
        raise NodeError(f"{path}: a node config needs kind room or card_reader")
    try:
        return check_id(f"{path}: node", config.get("node"))
    except BadId as exc:
        raise NodeError(str(exc)) from None


def flash_fresh(
    port: str,
    config: Path,
    *,
    back_wait_s: float = BACK_WAIT_S,
    report: Report = print,
    program: str | None = None,
) -> FlashResult:
    """A board with MicroPython and nothing else (it says no hello): the shipped firmware and
    its `config` onto the board on `port`, verified the same way, then its first hello."""
    node = node_config(config)
    result = FlashResult(node, port, "")
    report(f"{node} ({port}): writing firmware {firmware_version()} and {config.name} ...")
    try:
        write_firmware(Mpremote(port, program), firmware_files(), config)
    except FlashError as exc:
        result.problem = str(exc)
        return result
    with NodeScan(port) as scan:
        health = scan.wait(back_wait_s, [node]).get(node)
    if health is None:
        result.problem = f"no hello within {back_wait_s:g} s after its reset"
    else:
        result.after = health.version
        if health.version != firmware_version():
            result.problem = f"came back with firmware {health.version or '(none named)'}"
    return result
