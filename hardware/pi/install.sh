#!/bin/sh
# The table's install on Raspberry Pi OS Lite 64-bit (trixie or bookworm), from a clone or an
# unpacked release archive; rerunnable (a second run changes nothing):
#
#   sudo hardware/pi/install.sh [--mosquitto TABLE [--tls]]   install, or update in place
#   sudo hardware/pi/install.sh --uninstall                     remove it, keep the games
#
# What it does and the options: hardware/pi/install/__main__.py and hardware/pi/README.md.
set -eu
tree="$(cd "$(dirname "$0")/../.." && pwd)"
if ! command -v python3 >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3
fi
cd "$tree"
exec python3 -m hardware.pi.install "$@"
