"""`python -m companion nodes list | flash [NODE…] | test NODE`: the board's USB nodes from the
Pi (issue 43; hardware/BUILD.md). Stop the app first: it holds the serial ports."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from companion.app.devices.firmware import shipped_version
from companion.errors import NodeError

EXIT_FAILED = 1  # a node differs, failed or was not found


def cmd_nodes_list(args: argparse.Namespace) -> int:
    from companion.app.devices.node_scan import TRANSPORT, NodeScan

    with NodeScan(args.serial_glob) as scan:
        found = scan.wait(args.wait)
        scan.wait_rtt(found)
        found = scan.found()
        drops = dict(scan.bridge.drops.counts)
    shipped = shipped_version()
    if not found:
        print(f"no node said hello on {args.serial_glob} within {args.wait:g} s")
        return EXIT_FAILED
    print(f"{'node':<10} {'transport':<9} {'port':<16} {'version':<8} health")
    differ = 0
    for node, h in sorted(found.items()):
        version = h.version or "?"
        if h.version != shipped:
            differ += 1
            version += " *"
        rtt = "" if h.rtt_ms is None else f", round trip {h.rtt_ms:.1f} ms"
        faults = f", {h.faults} faults (last: {h.last_fault})" if h.faults else ""
        errors = ", ".join(f"{k} {v}" for k, v in sorted(h.errors.items()))
        state = "online" if h.online else f"offline ({h.offline_reason})"
        print(
            f"{node:<10} {TRANSPORT:<9} {h.source or '?':<16} {version:<8} {state}{rtt}"
            f"{faults}{', errors: ' + errors if errors else ''}"
        )
    if differ:
        print(f"* not the firmware this release ships ({shipped}): python -m companion nodes flash")
    if drops.get("unknown_node"):
        print(f"{drops['unknown_node']} messages from nodes this board does not have (their ids)")
    return EXIT_FAILED if differ else 0


def cmd_nodes_flash(args: argparse.Namespace) -> int:
    from companion.app.devices.flashing import flash_fresh, flash_nodes

    if (args.port is None) != (args.config is None):
        raise NodeError("a fresh board needs both --port and --config")
    if args.port is not None:
        if args.nodes:
            raise NodeError("--port flashes the one board on it: name no node")
        results = [flash_fresh(args.port, args.config)]
    else:
        results = flash_nodes(args.serial_glob, args.nodes, wait_s=args.wait)
    if not results:
        print(f"no node said hello on {args.serial_glob}: nothing flashed")
        return EXIT_FAILED
    for r in results:
        if r.ok:
            print(f"{r.node}: flashed, runs firmware {r.after} (was {r.before or '?'})")
        else:
            print(f"{r.node}: NOT flashed: {r.problem}")
    failed = [r.node for r in results if not r.ok]
    if failed:
        print(f"failed: {' '.join(failed)}", file=sys.stderr)
    return EXIT_FAILED if failed else 0


def cmd_nodes_test(args: argparse.Namespace) -> int:
    from companion.app.devices.bringup import bring_up

    result = bring_up(
        args.serial_glob, args.node, wait_s=args.wait, tag_wait_s=args.tag_wait, report=_say
    )
    print(f"{args.node}: {'passed' if result.ok else 'FAILED'}")
    return 0 if result.ok else EXIT_FAILED


def _say(text: str) -> None:
    print(text, flush=True)  # a prompt must reach whoever holds the tag at once


def add_nodes_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from companion.app.devices.node_scan import DEFAULT_GLOB, DEFAULT_WAIT_S

    nodes = sub.add_parser("nodes", help="the board's USB nodes: list, flash, test")
    verbs = nodes.add_subparsers(dest="nodes_command")

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--serial-glob", default=DEFAULT_GLOB, help=f"the nodes' ports (default {DEFAULT_GLOB})"
        )
        parser.add_argument(
            "--wait",
            type=float,
            default=DEFAULT_WAIT_S,
            help=f"seconds to wait for the nodes' hellos (default {DEFAULT_WAIT_S:g})",
        )

    listing = verbs.add_parser("list", help="each node: transport, port, firmware, health")
    common(listing)
    listing.set_defaults(func=cmd_nodes_list)
    flash = verbs.add_parser(
        "flash", help="copy the shipped firmware to each node with mpremote, verify, restart"
    )
    flash.add_argument("nodes", nargs="*", metavar="NODE", help="node ids (default: all found)")
    flash.add_argument(
        "--port", help="a fresh board (MicroPython only, no hello) on this port; with --config"
    )
    flash.add_argument(
        "--config", type=Path, help="its config.json (hardware/firmware/config.example.json)"
    )
    common(flash)
    flash.set_defaults(func=cmd_nodes_flash)
    test = verbs.add_parser("test", help="bring-up: light the ring, read a tag on each reader")
    test.add_argument("node", metavar="NODE")
    test.add_argument("--tag-wait", type=float, default=30.0, help="seconds per reader")
    common(test)
    test.set_defaults(func=cmd_nodes_test)
