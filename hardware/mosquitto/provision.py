"""Broker configuration for one Pi and its tables: mosquitto.conf, password file, ACL, a systemd
drop-in and, with `--tls`, a CA and a server certificate.

    python -m hardware.mosquitto.provision --out DIR --table t1 [--port 1883] [--bind 0.0.0.0]
        [--tls [--tls-port 8883] [--tls-host NAME]] [--screens 2] [--apps 2] [--run-as USER]

Every node gets its own broker user `node.<table>.<node>` and may only write its own `status` and
`event` topics and read its own `cmd` topic; the app users (`app.<table>` for the touchscreen
app, `app.<table>.2` for `serve`, `app.<table>.<k>` for more with `--apps`) read and write the
table's topics; `screen.<table>.<k>` users only read the table's game topics (screens across the
room). One login per device: the broker keeps one connection per login. Table and node ids
follow the one id rule (firmware_bridge.ids); anything else is refused before a file is
written. Anonymous clients are refused, and each connection's client id *is* its user name
(`use_username_as_clientid`): nobody can take another user's session by choosing its client id.
Passwords are random; they are hashed by `mosquitto_passwd` and written in clear text only to
`credentials.json`, from which the node firmware and the simulator take theirs. Every secret
(password file, credentials, TLS keys) is created mode 0600 — never readable by others, not even
for a moment — and owned by the user the broker runs as (`--run-as`, default `mosquitto` when run
as root), since mosquitto reads its files after dropping root. The tests start their brokers from
exactly these files.

Mosquitto 2.1 reads the password file and the ACL through plugins (`mosquitto_password_file`,
`mosquitto_acl_file`) and deprecates the `password_file`, `acl_file` and `per_listener_settings`
options (removed in 3.0); 2.0 (Debian 12 and 13) knows only the options. The configuration is
written for the broker installed here (`mosquitto -h` names its version), or for the one given
with `--broker-version` (provisioning for another machine; `--plugin-dir` where 2.1's plugins
are). See hardware/README.md, "Mosquitto 2.0 and 2.1".
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import pwd
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.board import DEFAULT_ROOMS, node_ids
from firmware_bridge.errors import BadId, ProvisionError
from firmware_bridge.ids import check_id
from firmware_bridge.topics import (
    DEFAULT_APPS,
    ROOT,
    app_user,
    node_topic,
    node_user,
    screen_user,
)

#: Largest MQTT packet the broker takes: the app's retained game state fits; node messages are
#: held to 512 bytes by the bridge itself (firmware_bridge.protocol.MAX_PAYLOAD).
MAX_PACKET_BYTES = 65_536
DROP_IN = "systemd-dropin.conf"  # goes to /etc/systemd/system/mosquitto.service.d/armata.conf
CERT_DAYS = 3650
MAX_LOGINS = 99  # screens or apps per table: far more than a table has, few enough to check

BrokerVersion = tuple[int, int]  # (major, minor) of the Mosquitto the configuration is for
#: The first Mosquitto that reads the password file and the ACL through its bundled plugins.
PLUGINS_SINCE: BrokerVersion = (2, 1)
PASSWORD_PLUGIN = "mosquitto_password_file.so"
ACL_PLUGIN = "mosquitto_acl_file.so"


@dataclass(frozen=True)
class AuthPlugins:
    """Where Mosquitto 2.1's password-file and ACL-file plugins are (shared libraries)."""

    password_file: Path
    acl_file: Path


@dataclass(frozen=True)
class TlsFiles:
    ca: Path  # what clients trust (not secret)
    ca_der: Path  # the same CA in DER, for the node firmware (MicroPython's ssl reads no PEM)
    ca_key: Path
    cert: Path
    key: Path
    port: int


@dataclass(frozen=True)
class BrokerFiles:
    config: Path
    passwords: Path
    acl: Path
    credentials: Path
    port: int
    drop_in: Path
    tls: TlsFiles | None = None


def parse_version(text: str) -> BrokerVersion:
    """(major, minor) from the first line `mosquitto -h` prints: "mosquitto version 2.0.11"."""
    found = re.search(r"mosquitto version (\d+)\.(\d+)", text)
    if found is None:
        first = text.strip().splitlines()[0] if text.strip() else "nothing"
        raise ProvisionError(f"cannot read the Mosquitto version from {first!r}")
    return int(found[1]), int(found[2])


def broker_version(mosquitto: str | None = None) -> BrokerVersion:
    """The version of the broker installed here (`mosquitto -h` exits non-zero but says it)."""
    tool = mosquitto or shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    try:
        done = subprocess.run([tool, "-h"], capture_output=True, text=True, timeout=30)
    except OSError as exc:
        raise ProvisionError(
            f"cannot run {tool} to read its version ({exc.strerror}): install the mosquitto "
            "package, or say which version the files are for with --broker-version"
        ) from None
    return parse_version(done.stdout + done.stderr)


def plugin_dirs() -> list[Path]:
    """Where Mosquitto installs its plugins: Debian's package (2.1.2-3, unstable) puts them in
    a `mosquitto` folder of the multiarch library folder, /usr/lib/x86_64-linux-gnu/mosquitto;
    then the multiarch folder itself, the plain and the local library folders (a build from
    source installs them to /usr/local/lib)."""
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    base = [Path("/usr/lib") / multiarch] if multiarch else []
    dirs = [folder / "mosquitto" for folder in base] + base
    dirs += [Path("/usr/lib/mosquitto"), Path("/usr/lib"), Path("/usr/local/lib")]
    return dirs


def find_plugins(plugin_dir: Path | None = None) -> AuthPlugins:
    """The two plugins in `plugin_dir` as given (they may be for another machine), else the
    first of plugin_dirs() that has both: ProvisionError naming the folders looked in."""
    if plugin_dir is not None:
        return AuthPlugins(plugin_dir / PASSWORD_PLUGIN, plugin_dir / ACL_PLUGIN)
    for folder in plugin_dirs():
        if (folder / PASSWORD_PLUGIN).is_file() and (folder / ACL_PLUGIN).is_file():
            return AuthPlugins(folder / PASSWORD_PLUGIN, folder / ACL_PLUGIN)
    looked = ", ".join(str(d) for d in plugin_dirs())
    raise ProvisionError(
        f"Mosquitto 2.1 needs {PASSWORD_PLUGIN} and {ACL_PLUGIN}; not found in {looked} "
        "(give their folder with --plugin-dir)"
    )


def check_tables(tables: Mapping[str, Sequence[str]], screens: int, apps: int) -> None:
    """Every id by the one rule, node ids once per table, login counts in range: BadId or
    ProvisionError naming what is wrong, before anything is written."""
    if not tables:
        raise ProvisionError("no table given")
    for table, nodes in tables.items():
        check_id("table id", table)
        seen: set[str] = set()
        for node in nodes:
            check_id(f"table {table}: node id", node)
            if node in seen:
                raise BadId(f"table {table}: node id {node!r} given twice")
            seen.add(node)
    if not 0 <= screens <= MAX_LOGINS:
        raise ProvisionError(f"--screens {screens}: 0 to {MAX_LOGINS} screen logins per table")
    if not 1 <= apps <= MAX_LOGINS:
        raise ProvisionError(f"--apps {apps}: 1 to {MAX_LOGINS} app logins per table")


def acl_text(
    tables: Mapping[str, Sequence[str]], screens: int = 2, apps: int = DEFAULT_APPS
) -> str:
    lines = ["# generated by hardware/mosquitto/provision.py: one block per user", ""]
    for table, nodes in sorted(tables.items()):
        for k in range(1, apps + 1):
            lines += [f"user {app_user(table, k)}", f"topic readwrite {ROOT}/{table}/#", ""]
        for k in range(1, screens + 1):
            lines += [f"user {screen_user(table, k)}", f"topic read {ROOT}/{table}/game/#", ""]
        for node in nodes:
            lines += [
                f"user {node_user(table, node)}",
                f"topic write {node_topic(table, node, 'status')}",
                f"topic write {node_topic(table, node, 'event')}",
                f"topic read {node_topic(table, node, 'cmd')}",
                "",
            ]
    return "\n".join(lines)


def config_text(
    port: int,
    bind: str,
    passwords: Path,
    acl: Path,
    persistence: Path | None,
    run_as: str | None = None,
    tls: TlsFiles | None = None,
    plugins: AuthPlugins | None = None,
) -> str:
    """`plugins`: Mosquitto 2.1's form (the password file and the ACL read by its plugins,
    loaded for every listener); None: 2.0's `password_file` and `acl_file` options. Either way
    the settings are global (2.0's default `per_listener_settings false`, not written: 2.1
    deprecates the option)."""
    if plugins is None:
        auth = [f"password_file {passwords}", f"acl_file {acl}"]
    else:
        auth = [
            f"global_plugin {plugins.password_file}",
            f"plugin_opt_password_file {passwords}",
            f"global_plugin {plugins.acl_file}",
            f"plugin_opt_acl_file {acl}",
        ]
    lines = [
        "# generated by hardware/mosquitto/provision.py",
        *([f"user {run_as}"] if run_as else []),
        "allow_anonymous false",
        *auth,
        f"max_packet_size {MAX_PACKET_BYTES}",
        "set_tcp_nodelay true",  # small messages at once: without it Nagle adds ~40 ms a hop
        "max_inflight_messages 100",
        "max_queued_messages 10000",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "log_dest stderr",
        f"listener {port} {bind}",
        "use_username_as_clientid true",  # per listener: no client id takes another's session
    ]
    if tls is not None:
        lines += [
            f"listener {tls.port} {bind}",
            "use_username_as_clientid true",
            f"cafile {tls.ca}",
            f"certfile {tls.cert}",
            f"keyfile {tls.key}",
            "tls_version tlsv1.2",
        ]
    if persistence is None:
        lines.append("persistence false")
    else:
        lines += ["persistence true", f"persistence_location {persistence}/"]
    return "\n".join(lines) + "\n"


def drop_in_text(config: Path) -> str:
    """A systemd drop-in that makes Debian's mosquitto.service run this configuration."""
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    return (
        "# generated by hardware/mosquitto/provision.py; install as\n"
        "# /etc/systemd/system/mosquitto.service.d/armata.conf (hardware/README.md)\n"
        "[Service]\n"
        "ExecStart=\n"
        f"ExecStart={mosquitto} -c {config}\n"
    )


def default_run_as() -> str | None:
    """`mosquitto` when provisioning as root (the broker drops to that user), else nobody."""
    return "mosquitto" if os.geteuid() == 0 else None


def write_secret(path: Path, text: str, owner: tuple[int, int] | None) -> None:
    """Mode 0600 from the first byte (an existing file is replaced, never reused with its mode)."""
    path.unlink(missing_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as stream:
        if owner is not None:
            os.fchown(stream.fileno(), *owner)
        stream.write(text)


def write_public(path: Path, text: str) -> None:
    """Readable by all, writable by its owner only, whatever the caller's umask: the broker
    trusts what these files say (who may do what)."""
    path.write_text(text)
    path.chmod(0o644)


def _owner(run_as: str | None) -> tuple[int, int] | None:
    if run_as is None:
        return None
    try:
        entry = pwd.getpwnam(run_as)
    except KeyError:
        raise ProvisionError(f"--run-as {run_as}: no such user on this machine") from None
    if os.geteuid() != 0 and entry.pw_uid != os.geteuid():
        raise ProvisionError(f"--run-as {run_as}: only root can give files to another user")
    return entry.pw_uid, entry.pw_gid


def _openssl(*args: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        raise ProvisionError("openssl not found: install the openssl package for --tls")
    done = subprocess.run([tool, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ProvisionError(f"openssl {args[0]} failed: {done.stderr.strip()[-500:]}")


def make_tls(out: Path, host: str, port: int, owner: tuple[int, int] | None) -> TlsFiles:
    """A private CA (EC P-256) and a server certificate for `host`, signed by it. The keys are
    created 0600 (openssl writes into files that already have that mode)."""
    tls = out / "tls"
    tls.mkdir(parents=True, exist_ok=True)
    files = TlsFiles(
        tls / "ca.crt", tls / "ca.der", tls / "ca.key", tls / "server.crt", tls / "server.key", port
    )
    for key in (files.ca_key, files.key):
        write_secret(key, "", owner)
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    days = ["-days", str(CERT_DAYS)]
    _openssl("req", "-x509", *curve, "-keyout", str(files.ca_key), "-out", str(files.ca), *days,
             "-subj", "/CN=armata companion CA")  # fmt: skip
    request = tls / "server.csr"
    names = {host, "localhost", "127.0.0.1"}
    san = ",".join(f"{'IP' if _is_ip(n) else 'DNS'}:{n}" for n in sorted(names))
    _openssl("req", "-new", *curve, "-keyout", str(files.key), "-out", str(request),
             "-subj", f"/CN={host}")  # fmt: skip
    extensions = tls / "server.ext"  # the names go into the certificate from here
    extensions.write_text(f"subjectAltName={san}\n")
    _openssl("x509", "-req", "-in", str(request), "-CA", str(files.ca), "-CAkey",
             str(files.ca_key), "-CAcreateserial", "-out", str(files.cert), *days,
             "-extfile", str(extensions))  # fmt: skip
    _openssl("x509", "-in", str(files.ca), "-outform", "der", "-out", str(files.ca_der))
    request.unlink()
    extensions.unlink()
    if owner is not None:
        for path in (files.ca, files.cert, files.key, files.ca_key):
            os.chown(path, *owner)
    return files


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def provision(
    out: Path,
    tables: Mapping[str, Sequence[str]],
    port: int = 1883,
    bind: str = "127.0.0.1",
    persistence: bool = False,
    run_as: str | None = None,
    *,
    screens: int = 2,
    apps: int = DEFAULT_APPS,
    tls_port: int | None = None,
    tls_host: str = "localhost",
    version: BrokerVersion | None = None,
    plugin_dir: Path | None = None,
) -> BrokerFiles:
    """`run_as`: the user mosquitto runs as when started as root (it must read these files).
    `screens`, `apps`: how many screen and app logins each table gets (one per device).
    `tls_port`: also listen with TLS there (a CA and a server certificate for `tls_host`).
    `version`: the Mosquitto the configuration is for (default: the one installed here);
    `plugin_dir`: where 2.1's plugins are (default: looked for, see plugin_dirs())."""
    check_tables(tables, screens, apps)
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise ProvisionError("mosquitto_passwd not found: install the mosquitto package")
    version = version or broker_version()
    plugins = find_plugins(plugin_dir) if version >= PLUGINS_SINCE else None
    owner = _owner(run_as)
    out.mkdir(parents=True, exist_ok=True)
    users = {app_user(t, k): secrets.token_urlsafe(18) for t in tables for k in range(1, apps + 1)}
    for table, nodes in tables.items():
        screen_users = [screen_user(table, k) for k in range(1, screens + 1)]
        users.update({user: secrets.token_urlsafe(18) for user in screen_users})
        users.update({node_user(table, n): secrets.token_urlsafe(18) for n in nodes})
    passwords = out / "passwd"
    write_secret(passwords, "".join(f"{user}:{secret}\n" for user, secret in users.items()), owner)
    # umask 077: mosquitto_passwd keeps a clear-text backup (`passwd.tmp`) while it hashes,
    # created with the caller's umask — with a lax one, readable by every user for a moment
    subprocess.run([tool, "-U", str(passwords)], check=True, capture_output=True, umask=0o077)
    passwords.chmod(0o600)  # whatever the tool's version does to the file: the broker's alone
    if owner is not None:
        os.chown(passwords, *owner)
    acl = out / "acl"
    write_public(acl, acl_text(tables, screens, apps))
    store = out / "data" if persistence else None
    if store is not None:
        store.mkdir(exist_ok=True)
        if owner is not None:
            os.chown(store, *owner)
    tls = make_tls(out, tls_host, tls_port, owner) if tls_port is not None else None
    config = out / "mosquitto.conf"
    write_public(
        config,
        config_text(
            port, bind, passwords.resolve(), acl.resolve(), store, run_as, tls, plugins=plugins
        ),
    )
    drop_in = out / DROP_IN
    write_public(drop_in, drop_in_text(config.resolve()))
    credentials = out / "credentials.json"
    about: dict[str, object] = {"port": port, "users": users}
    if tls is not None:
        about |= {"tls_port": tls.port, "ca": str(tls.ca.resolve())}
    write_secret(credentials, json.dumps(about, indent=1), None)  # the admin's, not the broker's
    return BrokerFiles(config, passwords, acl, credentials, port, drop_in, tls)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--table", action="append", required=True, help="table id (repeatable)")
    parser.add_argument(
        "--nodes",
        default=",".join(node_ids(DEFAULT_ROOMS)),
        help="comma-separated node ids of each table",
    )
    parser.add_argument("--port", type=int, default=1883)
    parser.add_argument("--bind", default="127.0.0.1", help="0.0.0.0 for nodes on Wi-Fi")
    parser.add_argument("--persistence", action="store_true")
    parser.add_argument(
        "--screens", type=int, default=2, help="read-only screen logins per table (one a device)"
    )
    parser.add_argument(
        "--apps",
        type=int,
        default=DEFAULT_APPS,
        help="app logins per table, one per program (default 2: the touchscreen app, serve)",
    )
    parser.add_argument(
        "--run-as",
        default=default_run_as(),
        help="the user mosquitto runs as; it owns the secrets (default: mosquitto when root)",
    )
    parser.add_argument("--tls", action="store_true", help="also listen with TLS (own CA)")
    parser.add_argument("--tls-port", type=int, default=8883)
    parser.add_argument("--tls-host", default="localhost", help="the Pi's name or address")
    parser.add_argument(
        "--broker-version",
        default="auto",
        help="the Mosquitto the files are for: 2.0, 2.1 (plugins) or auto (the one installed here)",
    )
    parser.add_argument(
        "--plugin-dir", type=Path, help="where Mosquitto 2.1's plugins are (default: looked for)"
    )
    args = parser.parse_args(argv)
    nodes = [n for n in args.nodes.split(",") if n]
    try:
        version = None
        if args.broker_version != "auto":
            if re.fullmatch(r"\d+\.\d+(\.\d+)?", args.broker_version) is None:
                raise ProvisionError(f"--broker-version {args.broker_version}: 2.0, 2.1 or auto")
            version = parse_version(f"mosquitto version {args.broker_version}")
        files = provision(
            args.out,
            {t: nodes for t in args.table},
            args.port,
            args.bind,
            args.persistence,
            args.run_as or None,
            screens=args.screens,
            apps=args.apps,
            tls_port=args.tls_port if args.tls else None,
            tls_host=args.tls_host,
            version=version,
            plugin_dir=args.plugin_dir,
        )
    except (ProvisionError, BadId) as exc:
        print(f"provision: {exc}", file=sys.stderr)
        return 2
    written = [files.config, files.passwords, files.acl, files.credentials, files.drop_in]
    if files.tls is not None:
        written += [files.tls.ca, files.tls.ca_der, files.tls.cert, files.tls.key]
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
