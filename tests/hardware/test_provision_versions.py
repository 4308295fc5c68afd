"""Mosquitto 2.0 and 2.1 from one provisioning (issue 32, item 5). 2.1 (January 2026) reads the
password file and the ACL through its bundled plugins and deprecates `password_file`, `acl_file`
and `per_listener_settings` (removed in 3.0); Debian 12 and 13 ship 2.0, which knows only the
options. Each form is started on a real broker of its version (2.0: hardware/test_provision.py;
2.1: hardware/test_provision_2_1_broker.py); here the 2.1 text is checked against the syntax its
plugin pages document:

    global_plugin /path/to/mosquitto_password_file.so
    plugin_opt_password_file <password file>
    global_plugin /path/to/mosquitto_acl_file.so
    plugin_opt_acl_file <acl file>
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.errors import ProvisionError
from hardware.mosquitto import provision as prov

PASSWD, ACL = Path("/etc/mosquitto/armata/passwd"), Path("/etc/mosquitto/armata/acl")
PLUGINS = prov.AuthPlugins(
    Path("/usr/lib/aarch64-linux-gnu/mosquitto_password_file.so"),
    Path("/usr/lib/aarch64-linux-gnu/mosquitto_acl_file.so"),
)
DEPRECATED_IN_2_1 = {"password_file", "acl_file", "per_listener_settings", "auth_plugin"}
#: the options this configuration uses, as mosquitto.conf(5) of 2.1 names them
KNOWN_2_1 = {
    "user", "allow_anonymous", "global_plugin", "plugin_opt_password_file", "plugin_opt_acl_file",
    "max_packet_size", "set_tcp_nodelay", "max_inflight_messages", "max_queued_messages",
    "log_type", "log_dest", "listener", "use_username_as_clientid", "cafile", "certfile",
    "keyfile", "tls_version", "persistence", "persistence_location",
}  # fmt: skip


def options(text: str) -> list[tuple[str, str]]:
    """(name, value) of every setting, in order (mosquitto.conf: name, one space, value)."""
    lines = [x for x in text.splitlines() if x and not x.startswith("#")]
    return [(x.split(" ", 1)[0], x.split(" ", 1)[1]) for x in lines]


@pytest.mark.parametrize(
    ("printed", "version"),
    [
        ("mosquitto version 2.0.11\n\nmosquitto is an MQTT v5.0/v3.1.1/v3.1 broker.\n", (2, 0)),
        ("mosquitto version 2.0.21\n", (2, 0)),
        ("mosquitto version 2.1.2\n\nmosquitto is an MQTT v5.0/v3.1.1/v3.1 broker.\n", (2, 1)),
        ("mosquitto version 3.0.0\n", (3, 0)),
    ],
)
def test_the_version_is_read_from_what_mosquitto_h_prints(
    printed: str, version: prov.BrokerVersion
) -> None:
    assert prov.parse_version(printed) == version


@pytest.mark.parametrize("printed", ["", "Error: Unknown option '-h'.", "mosquitto 2"])
def test_an_unreadable_version_is_a_clear_error(printed: str) -> None:
    with pytest.raises(ProvisionError, match="cannot read the Mosquitto version"):
        prov.parse_version(printed)


@pytest.mark.parametrize("tls", [False, True])
def test_the_2_1_form_uses_the_plugins_as_documented_and_nothing_deprecated(tls: bool) -> None:
    names = ("ca", "ca.der", "ca.key", "crt", "key")
    files = prov.TlsFiles(*(Path(f"/t/{n}") for n in names), 8883)
    text = prov.config_text(
        1883, "0.0.0.0", PASSWD, ACL, None, "mosquitto", files if tls else None, plugins=PLUGINS
    )
    settings = options(text)
    names = [name for name, _ in settings]
    assert not DEPRECATED_IN_2_1 & set(names)
    assert set(names) <= KNOWN_2_1, set(names) - KNOWN_2_1
    # each plugin, then its option on the next line; before the first listener: for every one
    start = names.index("global_plugin")
    assert settings[start : start + 4] == [
        ("global_plugin", str(PLUGINS.password_file)),
        ("plugin_opt_password_file", str(PASSWD)),
        ("global_plugin", str(PLUGINS.acl_file)),
        ("plugin_opt_acl_file", str(ACL)),
    ]
    assert start < names.index("listener")
    assert ("allow_anonymous", "false") in settings
    assert names.count("use_username_as_clientid") == names.count("listener") == 1 + tls


def test_the_2_0_form_keeps_the_options_2_0_knows() -> None:
    settings = options(prov.config_text(1883, "127.0.0.1", PASSWD, ACL, None))
    assert ("password_file", str(PASSWD)) in settings
    assert ("acl_file", str(ACL)) in settings
    assert not {"global_plugin", "plugin_opt_password_file", "per_listener_settings"} & {
        name for name, _ in settings
    }


def test_provisioning_for_2_1_writes_the_plugins_it_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2.1 broker's plugins looked for in the library folders (Debian: the multiarch one)."""
    lib = tmp_path / "lib"
    lib.mkdir()
    for name in (prov.PASSWORD_PLUGIN, prov.ACL_PLUGIN):
        (lib / name).write_bytes(b"\x7fELF")
    monkeypatch.setattr(prov, "plugin_dirs", lambda: [tmp_path / "empty", lib])
    files = prov.provision(tmp_path / "out", {"t1": ["room-a"]}, 1883, version=(2, 1))
    settings = options(files.config.read_text())
    assert ("global_plugin", str(lib / prov.PASSWORD_PLUGIN)) in settings
    assert ("plugin_opt_password_file", str(files.passwords.resolve())) in settings
    assert ("plugin_opt_acl_file", str(files.acl.resolve())) in settings
    assert "password_file" not in dict(settings)


def test_2_1_without_its_plugins_is_refused_before_a_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prov, "plugin_dirs", lambda: [tmp_path / "nowhere"])
    with pytest.raises(ProvisionError, match=r"mosquitto_password_file\.so.*--plugin-dir"):
        prov.provision(tmp_path / "out", {"t1": []}, 1883, version=(2, 1))
    assert not (tmp_path / "out").exists()
    args = ["--out", str(tmp_path / "out"), "--table", "t1", "--broker-version", "2.1"]
    assert prov.main(args) == 2
    assert prov.main([*args, "--plugin-dir", str(tmp_path / "elsewhere")]) == 0
    written = options((tmp_path / "out" / "mosquitto.conf").read_text())
    assert ("global_plugin", str(tmp_path / "elsewhere" / prov.ACL_PLUGIN)) in written


@pytest.mark.parametrize("given", ["2", "latest", "2.x"])
def test_a_broker_version_that_is_not_one_is_refused(tmp_path: Path, given: str) -> None:
    args = ["--out", str(tmp_path / "out"), "--table", "t1", "--broker-version", given]
    assert prov.main(args) == 2
    assert not (tmp_path / "out").exists()
