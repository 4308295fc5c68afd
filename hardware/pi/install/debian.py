"""The Debian packages the table needs, from the release's own archive (Pi OS trixie or
bookworm): nothing for tests or developers (no browser, no Xvfb), nothing from another
release's mirror (the sources lists are never touched; the developer's `./setup.sh test`
keeps its own path, Mosquitto 2.1 from unstable included)."""

from __future__ import annotations

import platform

from hardware.pi.install.system import System

#: "a|b": the first name the release has (Debian 13 renamed libraries in its 64-bit time_t move)
RUNTIME = (
    "python3",
    "python3-venv",
    # Kivy's window on KMS/DRM (its wheel brings SDL2) and the touch panel's multitouch events
    "libgl1",
    "libegl1",
    "libmtdev1t64|libmtdev1",
    # the voice
    "espeak-ng",
)
#: compiling at install time: the engine (mypyc), cobs's C extension; lgpio's on a 64-bit Pi
BUILD = ("gcc", "libc6-dev", "python3-dev")
BUILD_AARCH64 = ("swig",)
#: `--mosquitto`: the broker for MQTT nodes, openssl for provision.py's TLS certificates
BROKER = ("mosquitto", "openssl")
#: never installed by the product install (the tests check it)
NEVER = ("chromium", "chromium-driver", "xvfb", "xauth", "zbar-tools", "fonts-dejavu-core")


def wanted(broker: bool) -> list[str]:
    names = [*RUNTIME, *BUILD]
    if platform.machine() == "aarch64":
        names += BUILD_AARCH64
    if broker:
        names += BROKER
    return names


def installed(system: System, name: str) -> bool:
    done = system.run("dpkg-query", "-W", "-f=${Status}", name, check=False)
    return done.returncode == 0 and done.stdout.strip() == "install ok installed"


def candidate(system: System, spec: str) -> str:
    """The name of "a|b" this release's apt can install (the first with a candidate)."""
    names = spec.split("|")
    for name in names:
        policy = system.run("apt-cache", "policy", name, check=False).stdout
        for line in policy.splitlines():
            found = line.strip()
            if found.startswith("Candidate:") and not found.endswith("(none)"):
                return name
    return names[0]  # none: apt-get names it in its error


def ensure(system: System, specs: list[str]) -> list[str]:
    """Install what is missing of `specs`; the names installed."""
    missing = [s for s in specs if not any(installed(system, n) for n in s.split("|"))]
    if not missing:
        return []
    system.run("apt-get", "update", "-qq")
    names = [candidate(system, s) for s in missing]
    system.run(
        "apt-get",
        "install",
        "-y",
        "-qq",
        "--no-install-recommends",
        *names,
        env={"DEBIAN_FRONTEND": "noninteractive"},
    )
    system.changed(f"installed Debian packages: {' '.join(names)}")
    return names
