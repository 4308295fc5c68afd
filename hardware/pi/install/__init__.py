"""The table's install on Raspberry Pi OS Lite 64-bit (trixie, bookworm): `sudo
hardware/pi/install.sh` from a clone or an unpacked release archive (hardware/pi/README.md).

Standard library only: it runs on the system's python3 before any environment exists. Every
step looks before it acts, so a second run changes nothing; `--root DIR` installs into a
folder (the tests' staging), with the system's commands (apt-get, useradd, systemctl...) taken
from the PATH, where the tests put stand-ins that record their calls.
"""
