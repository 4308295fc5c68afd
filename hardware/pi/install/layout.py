"""Where the product lives on the Pi (absolute paths as the Pi sees them; `System.path` maps
them into a staging root)."""

from __future__ import annotations

PREFIX = "/opt/armata-companion"
RELEASES = f"{PREFIX}/releases"
CURRENT = f"{PREFIX}/current"  # a link to releases/<version>: what the unit runs
PREVIOUS = f"{PREFIX}/previous"  # the release before the last switch (rollbacks go back to it)
DATA = "/var/lib/armata-companion"  # the game log, its backups; never removed
USER = "armata"
#: the groups the table's user needs, where the system has them: the display and touch
#: (video, render, input), the nodes on USB serial (dialout), the voice (audio), the Pi's
#: pins (gpio), the table's own Wi-Fi through NetworkManager (netdev)
GROUPS = ("video", "render", "input", "dialout", "audio", "gpio", "netdev")
UNIT = "armata-companion.service"
BACKUP_UNIT = "armata-companion-backup.service"
BACKUP_TIMER = "armata-companion-backup.timer"
#: an update asked for on the touchscreen: the path unit watches UPDATES/request
UPDATE_UNIT = "armata-companion-update.service"
UPDATE_PATH = "armata-companion-update.path"
UPDATES = f"{DATA}/updates"
SYSTEMD = "/etc/systemd/system"
DEFAULTS = "/etc/default/armata-companion"
JOURNALD = "/etc/systemd/journald.conf.d/armata-companion.conf"
CMDLINE = "/boot/firmware/cmdline.txt"
MOSQUITTO_DIR = "/etc/mosquitto/armata"
MOSQUITTO_DROPIN = "/etc/systemd/system/mosquitto.service.d/armata.conf"
APP_CREDENTIALS = "/etc/armata/credentials.json"
#: a release's marker: written last, so a release without it was never finished
COMPLETE = ".armata-release"
