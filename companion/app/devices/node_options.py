"""The command-line options that say where a table's nodes are and where its game is published,
shared by the touchscreen app (`python -m ui`) and the headless table (`python -m companion
serve`). Each program has its own broker login by default (`app.<table>` and `app.<table>.2`),
since the broker keeps one connection per login; `--login` picks another one that `provision
--apps` made (a second touchscreen, say)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_bridge.access import broker_access
from firmware_bridge.errors import BadId, BrokerAccessError
from firmware_bridge.ids import check_id, check_login
from firmware_bridge.topics import KIOSK_APP, SERVE_APP, app_user

if TYPE_CHECKING:  # paho-mqtt is imported only when a broker is set up
    from companion.app.devices.nodes import BoardHardware  # the nodes: only once a table starts
    from companion.engine.fortress import Fortress
    from firmware_bridge.mqtt_link import GamePublisher


def add_node_arguments(parser: argparse.ArgumentParser, app: int = KIOSK_APP) -> None:
    """`app`: which of the table's app logins this program uses unless `--login` says."""
    parser.add_argument(
        "--mqtt", metavar="HOST:PORT", help="publish the game on this broker (docs/protocol.md)"
    )
    parser.add_argument("--table", default="t1", help="the table id of the MQTT topics")
    parser.add_argument(
        "--login",
        help=f"the broker login (default: {app_user('t1', app).replace('t1', '<table>')}); "
        "one per device: two clients with one login cut each other off",
    )
    parser.set_defaults(app_login_number=app)
    parser.add_argument(
        "--credentials", type=Path, help="credentials.json from hardware/mosquitto/provision.py"
    )
    parser.add_argument(
        "--nodes",
        choices=("simulated", "serial", "mqtt"),
        default="simulated",
        help="the board's nodes: simulated (default), on USB serial, or on the --mqtt broker",
    )
    parser.add_argument(
        "--serial-glob", default="/dev/ttyACM*", help="the nodes' serial ports (--nodes serial)"
    )


def hardware_from_args(
    parser: argparse.ArgumentParser, args: argparse.Namespace, fortress: Fortress
) -> tuple[BoardHardware | None, GamePublisher | None]:
    """The nodes of `--nodes` (None: the simulated board) and the broker client of `--mqtt`
    (None without it: the game events stay in the app). With `--nodes mqtt` one client serves
    both. A bad broker setting ends the program through `parser.error`, naming the file and
    field."""
    rooms = fortress.rooms
    try:
        check_id("--table", args.table)
        login = args.login or app_user(args.table, args.app_login_number)
        role, table, *_number = check_login(login).split(".")
    except BadId as error:
        parser.error(str(error))
    if role != "app" or table != args.table:
        parser.error(f"--login {login}: not an app login of table {args.table} (app.{args.table}…)")
    if args.mqtt is None:
        if args.nodes == "mqtt":
            parser.error("--nodes mqtt needs --mqtt and --credentials")
        where, ca = None, None
    else:
        if args.credentials is None:
            parser.error("--mqtt needs --credentials")
        try:
            access = broker_access(args.mqtt, args.credentials, login)
        except BrokerAccessError as error:
            parser.error(str(error))
        where = (access.host, access.port, args.table, access.username, access.password)
        ca = access.ca  # the TLS listener of `provision --tls` when --mqtt names its port
    # the nodes' modules load only for real nodes: the simulated board is the table service's,
    # built after the touchscreen's first frame
    serial = None
    if args.nodes == "serial":
        from companion.app.devices.nodes import BoardHardware

        serial = BoardHardware.serial(rooms, args.serial_glob)
    if where is None:
        return serial, None
    from companion.app.devices.nodes import BoardHardware
    from firmware_bridge.mqtt_link import GamePublisher, MqttLink  # paho-mqtt: a broker is set

    if args.nodes == "mqtt":
        link = MqttLink(*where, ca=ca)
        return BoardHardware.mqtt(rooms, link), link
    return serial, GamePublisher(*where, ca=ca)


__all__ = ["SERVE_APP", "add_node_arguments", "hardware_from_args"]
