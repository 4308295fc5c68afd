"""`python -m firmware_bridge.simulated_nodes`: simulated board nodes, driven from stdin.

    python -m firmware_bridge.simulated_nodes [--dir DIR]          # PTYs: DIR/tty-<node>
    python -m firmware_bridge.simulated_nodes --mqtt HOST:PORT --table t1 --credentials FILE

Nodes default to one per room of the default fortress plus the card reader (`--nodes a,b` to
choose). Commands, one per line:
    place NODE UID [READER]   a tag is put on a reader     remove NODE [READER]
    press NODE BUTTON         a button press               leds [NODE]   what the LEDs show (JSON)
    nodes                     node ids and wires           quit
Every LED command a node applies is printed as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import TextIO

import msgspec

from firmware_bridge import protocol as p
from firmware_bridge.board import DEFAULT_ROOMS, node_ids
from firmware_bridge.errors import BadId
from firmware_bridge.ids import check_id
from firmware_bridge.node_sim import CARD_READER, PtyWire, SimNode


def _nodes(arg: str | None) -> list[SimNode]:
    ids = arg.split(",") if arg else node_ids(DEFAULT_ROOMS)
    return [SimNode(n, "card_reader" if n == CARD_READER else "room") for n in ids if n]


def run_commands(nodes: dict[str, SimNode], lines: TextIO, out: TextIO) -> None:
    def say(data: object) -> None:
        out.write(json.dumps(data, sort_keys=True) + "\n")
        out.flush()

    for raw in lines:
        words = raw.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        node = nodes.get(args[0]) if args else None
        try:
            if command == "quit":
                return
            if command == "nodes":
                say({"nodes": sorted(nodes)})
            elif command == "leds":
                chosen = [node] if node else list(nodes.values())
                say({n.node: n.showing() for n in chosen if n is not None})
            elif node is None:
                say({"error": f"unknown node in {raw.strip()!r}", "nodes": sorted(nodes)})
            elif command == "place" and len(args) >= 2:
                ok = node.place_tag(args[1].lower(), int(args[2]) if len(args) > 2 else 0)
                say({"placed": args[1], "node": node.node, "sent": ok})
            elif command == "remove":
                ok = node.remove_tag(int(args[1]) if len(args) > 1 else 0)
                say({"removed": ok, "node": node.node})
            elif command == "press" and len(args) >= 2:
                say({"pressed": args[1], "node": node.node, "sent": node.press(args[1])})
            else:
                say({"error": f"cannot read {raw.strip()!r}"})
        except (ValueError, msgspec.ValidationError) as exc:
            say({"error": str(exc)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="simulated board nodes")
    parser.add_argument("--nodes", help="comma-separated node ids")
    parser.add_argument("--dir", type=Path, help="where the PTY links go (serial)")
    parser.add_argument("--mqtt", help="HOST:PORT of the broker (instead of serial)")
    parser.add_argument("--table", default="t1")
    parser.add_argument("--credentials", type=Path, help="credentials.json from provisioning")
    args = parser.parse_args(argv)
    try:  # the one id rule, before any id becomes a topic or a login
        check_id("--table", args.table)
        for node_id in (args.nodes or "").split(","):
            if node_id:
                check_id("--nodes: node id", node_id)
    except BadId as error:
        parser.error(str(error))
    nodes = {n.node: n for n in _nodes(args.nodes)}

    def show(led: p.Led) -> None:
        sys.stdout.write(json.dumps({"led": msgspec.to_builtins(led)}) + "\n")
        sys.stdout.flush()

    for node in nodes.values():
        node.on_led = show
    wires: list[PtyWire] = []
    mqtt_wires = []
    if args.mqtt:
        from firmware_bridge.access import parse_address, password_of, read_users, tls_ca
        from firmware_bridge.errors import BrokerAccessError
        from firmware_bridge.mqtt_wire import MqttWire
        from firmware_bridge.topics import node_user

        if args.credentials is None:
            parser.error("--mqtt needs --credentials")
        try:
            host, port = parse_address(args.mqtt)
            users = read_users(args.credentials)
            ca = tls_ca(args.credentials, port)
            passwords = {
                n: password_of(users, args.credentials, node_user(args.table, n)) for n in nodes
            }
        except BrokerAccessError as error:
            parser.error(str(error))
        for node in nodes.values():
            user = node_user(args.table, node.node)
            on_mqtt = MqttWire(node, host, port, args.table, user, passwords[node.node], ca=ca)
            on_mqtt.start()
            mqtt_wires.append(on_mqtt)
        print(json.dumps({"mqtt": args.mqtt, "table": args.table, "nodes": sorted(nodes)}))
    else:
        directory = args.dir or Path(tempfile.mkdtemp(prefix="armata-nodes-"))
        directory.mkdir(parents=True, exist_ok=True)
        for node in nodes.values():
            on_pty = PtyWire(node, directory / f"tty-{node.node}")
            on_pty.plug()
            wires.append(on_pty)
        print(json.dumps({"serial": str(directory / "tty-*"), "nodes": sorted(nodes)}))
    sys.stdout.flush()
    try:
        run_commands(nodes, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        pass
    finally:
        for pty in wires:
            pty.close()
        for mqtt_wire in mqtt_wires:
            mqtt_wire.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
