#!/usr/bin/env bash
# The project's two commands:
#   ./setup.sh run  [ARGS...]  install what the app needs, then start the touchscreen app with a
#                              simulated board (python -m ui ARGS; on a machine without a display
#                              it runs on a virtual screen). `./setup.sh run demo|board|scenario|sim
#                              ...` runs that command line tool instead (python -m companion ...).
#   ./setup.sh test [PYTEST ARGS...]  install what the tests need, then lint, type-check and test
# Idempotent: a second call installs nothing new. Uses sudo only when not root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$ROOT/.venv"
# Debian packages each mode needs beyond Python itself (grows with the hardware and UI issues).
# libgl1/libegl1/libmtdev1: Kivy's window; espeak-ng: the voice; xvfb/xauth: a virtual screen
# when the machine has no display (a server, a container, CI)
RUN_APT_PACKAGES=(libgl1 libegl1 libmtdev1 espeak-ng xvfb xauth)
# mosquitto: a real broker for the MQTT tests (started by the tests, not as a service); openssl:
# the CA and certificate of `provision --tls`;
# xvfb/xauth + GL/mtdev libraries: Kivy on a virtual screen; espeak-ng: the voice
TEST_APT_PACKAGES=(mosquitto openssl xvfb xauth libgl1 libegl1 libmtdev1 espeak-ng)

die() { echo "setup.sh: $*" >&2; exit 1; }
log() { echo "setup.sh: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root to run '$*' (not root and no sudo available)"
    fi
}

APT_UPDATED=0
apt_install() {
    local missing=()
    for pkg in "$@"; do
        # "install ok installed" only: a removed package keeps a dpkg entry for its config files
        [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] || missing+=("$pkg")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "missing system packages (${missing[*]}) and no apt-get to install them"
    log "installing system packages: ${missing[*]}"
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -qq || die "apt-get update failed"
        APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
        || die "could not install system packages: ${missing[*]}"
}

find_python() {
    local candidate
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1 \
            && "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    return 1
}

ensure_python() {
    PYTHON="$(find_python)" || { apt_install python3 python3-venv python3-dev; PYTHON="$(find_python)"; } \
        || die "Python >= 3.11 is required and could not be installed"
    if ! "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then
        apt_install python3-venv
        "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1 || die "$PYTHON has no working venv module"
    fi
}

# Install the project into .venv with the given extras, once per pyproject.toml content.
ensure_venv() {
    local extras="$1"
    [ -x "$VENV/bin/python" ] || { log "creating $VENV"; "$PYTHON" -m venv "$VENV" || die "could not create $VENV"; }
    local stamp="$VENV/.installed-$(cat "$ROOT/pyproject.toml" | sha256sum | cut -c1-16)-${extras:-base}"
    if [ ! -f "$stamp" ]; then
        log "installing Python packages${extras:+ [$extras]}"
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null || die "could not upgrade pip"
        local target="$ROOT"
        [ -n "$extras" ] && target="$ROOT[$extras]"
        "$VENV/bin/python" -m pip install -q -e "$target" || die "could not install Python packages (see pip output above)"
        touch "$stamp"
    fi
}

# Compile the engine's busiest modules with mypyc (companion/native.py), once per source change.
# Needs a C compiler and the interpreter's headers; pure Python would run without them, but the
# speed goals are for the compiled engine, so a failed build stops here with the reason.
ensure_native() {
    command -v cc >/dev/null 2>&1 || apt_install gcc libc6-dev
    if ! "$VENV/bin/python" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        apt_install python3-dev
    fi
    (cd "$ROOT" && "$VENV/bin/python" -m companion native build >"$VENV/native-build.log" 2>&1) \
        || { tail -20 "$VENV/native-build.log" >&2; die "could not compile the engine (log: $VENV/native-build.log; 'python -m companion native clean' runs it as pure Python)"; }
    log "$(tail -1 "$VENV/native-build.log")"
}

cmd_run() {
    ensure_python
    [ "${#RUN_APT_PACKAGES[@]}" -eq 0 ] || apt_install "${RUN_APT_PACKAGES[@]}"
    ensure_venv ""
    ensure_native
    cd "$ROOT"
    case "${1:-}" in
        demo|board|scenario|sim) exec "$VENV/bin/python" -m companion "$@" ;;
    esac
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "${SDL_VIDEODRIVER:-}" = "kmsdrm" ]; then
        exec "$VENV/bin/python" -m ui "$@"
    fi
    log "no display found: the app runs on a virtual screen (Xvfb, 800x480); Ctrl-C stops it."
    log "On a desktop or the Pi (hardware/pi/README.md) it opens a window or goes fullscreen."
    exec xvfb-run -a -s "-screen 0 800x480x24" "$VENV/bin/python" -m ui "$@"
}

cmd_test() {
    ensure_python
    [ "${#TEST_APT_PACKAGES[@]}" -eq 0 ] || apt_install "${TEST_APT_PACKAGES[@]}"
    ensure_venv "dev"
    ensure_native
    cd "$ROOT"
    log "ruff"
    "$VENV/bin/ruff" check . || die "ruff found problems"
    log "mypy"
    "$VENV/bin/mypy" companion firmware_bridge || die "mypy found problems"
    log "pytest"
    "$VENV/bin/python" -m pytest -q "$@"
}

case "${1:-}" in
    run)  shift; cmd_run "$@" ;;
    test) shift; cmd_test "$@" ;;
    *)    echo "usage: ./setup.sh run [ARGS...] | ./setup.sh test [PYTEST ARGS...]" >&2; exit 2 ;;
esac
