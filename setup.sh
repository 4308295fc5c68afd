#!/usr/bin/env bash
# The project's two commands:
#   ./setup.sh run  [ARGS...]  install what the app needs, then start the touchscreen app with a
#                              simulated board (python -m ui ARGS; on a machine without a display
#                              it runs on a virtual screen). `./setup.sh run demo|board|scenario|sim
#                              ...` runs that command line tool instead (python -m companion ...).
#   ./setup.sh test [PYTEST ARGS...]  install what the tests need, compile the engine, then lint,
#                              type-check and run the whole suite (CI and the Pi run this)
#   ./setup.sh test --fast [PYTEST ARGS...]  the developer's tier, under a minute: lint and the
#                              tests not marked slow, on the pure-Python engine (no compile)
# Idempotent, and one install step for both: `run` after `test` (or `test` after `run`) installs
# nothing new. Uses sudo only when not root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$ROOT/.venv"
# Debian packages, one list for both commands so that either one after the other installs
# nothing new. libgl1/libegl1/libmtdev1: Kivy's window; espeak-ng: the voice; xvfb/xauth: a
# virtual screen when the machine has no display (a server, a container, CI); mosquitto: a real
# broker for the MQTT tests (started by the tests, never needed by `run`); openssl: the CA and
# certificate of `provision --tls`. "a|b": the first of the names this release has (Debian 13,
# Pi OS trixie, renamed libraries in its 64-bit time_t move: libmtdev1 is libmtdev1t64 there).
APT_PACKAGES=(libgl1 libegl1 "libmtdev1t64|libmtdev1" espeak-ng xvfb xauth mosquitto openssl)
# For the tests only (a Pi that runs the table does not need a browser): chromium and
# chromium-driver, the headless browser the table view's tests (tests/web/test_web_browser.py) and
# benchmarks/web.py drive through Selenium; fonts-dejavu-core for its text (chromium only
# recommends a font, and installs here skip recommendations); zbar-tools: zbarimg, the QR reader
# that reads the touchscreen's "my phone" code back off its screenshot (tests/ui/test_phones_ui.py).
TEST_APT_PACKAGES=(chromium chromium-driver fonts-dejavu-core zbar-tools)

die() { echo "setup.sh: $*" >&2; exit 1; }
log() { echo "setup.sh: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root to run '$*' (not root and no sudo available)"
    fi
}

APT_UPDATED=0
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

# The name of "a|b" this release's apt can install (the first with a candidate), after an update.
candidate() {
    local name policy
    for name in ${1//|/ }; do
        policy="$(apt-cache policy "$name" 2>/dev/null || true)"
        if grep -q '^  Candidate: [^(]' <<<"$policy"; then echo "$name"; return 0; fi
    done
    echo "${1%%|*}"  # none: apt-get names the first in its error
}

apt_install() {
    local missing=() spec name found
    for spec in "$@"; do
        # "install ok installed" only: a removed package keeps a dpkg entry for its config files
        found=0
        for name in ${spec//|/ }; do
            if installed "$name"; then found=1; break; fi
        done
        [ "$found" -eq 1 ] || missing+=("$spec")
    done
    [ "${#missing[@]}" -eq 0 ] && return 0
    command -v apt-get >/dev/null 2>&1 || die "missing system packages (${missing[*]}) and no apt-get to install them"
    if [ "$APT_UPDATED" -eq 0 ]; then
        as_root apt-get update -qq || die "apt-get update failed"
        APT_UPDATED=1
    fi
    local names=()
    for spec in "${missing[@]}"; do names+=("$(candidate "$spec")"); done
    log "installing system packages: ${names[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${names[@]}" \
        || die "could not install system packages: ${names[*]}"
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

# A C compiler and the interpreter's headers before pip: packages with C extensions (cobs) build
# them only when a compiler is there at install time, and fall back to pure Python silently.
# mypyc needs both too.
ensure_toolchain() {
    command -v cc >/dev/null 2>&1 || apt_install gcc libc6-dev
    # a Pi: lgpio (the Pi 5's pin factory) builds from its sdist with swig where PyPI has no wheel
    if [ "$(uname -m)" = "aarch64" ]; then command -v swig >/dev/null 2>&1 || apt_install swig; fi
    if ! "$PYTHON" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
        apt_install python3-dev
    fi
}

# The shared install step of both commands: system packages, then the project and its test
# tools into .venv, once per pyproject.toml content (one stamp: `run` after `test`, or `test`
# after `run`, installs nothing the second time).
ensure_installed() {
    ensure_python
    apt_install "${APT_PACKAGES[@]}"
    ensure_toolchain
    [ -x "$VENV/bin/python" ] || { log "creating $VENV"; "$PYTHON" -m venv "$VENV" || die "could not create $VENV"; }
    local stamp="$VENV/.installed-$(sha256sum <"$ROOT/pyproject.toml" | cut -c1-16)"
    if [ ! -f "$stamp" ]; then
        log "installing Python packages"
        "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null || die "could not upgrade pip"
        # lgpio's source builds against a system liblgpio, which Debian does not package (only
        # Pi OS's own archive does); PYPI=1 makes its setup.py compile the library it bundles
        # into the module instead, as for its PyPI wheels: the same build on Pi OS and Debian
        local lgpio_static=()
        [ "$(uname -m)" = "aarch64" ] && lgpio_static=(env PYPI=1)
        "${lgpio_static[@]}" "$VENV/bin/python" -m pip install -q -e "$ROOT[dev]" \
            || die "could not install Python packages (see pip output above)"
        rm -f "$VENV"/.installed-*
        touch "$stamp"
    fi
}

# Compile the engine's busiest modules with mypyc (companion/native.py), once per source change.
# Needs a C compiler and the interpreter's headers; pure Python would run without them, but the
# speed goals are for the compiled engine, so a failed build stops here with the reason.
ensure_native() {
    (cd "$ROOT" && "$VENV/bin/python" -m companion native build >"$VENV/native-build.log" 2>&1) \
        || { tail -20 "$VENV/native-build.log" >&2; die "could not compile the engine (log: $VENV/native-build.log; 'python -m companion native clean' runs it as pure Python)"; }
    log "$(tail -1 "$VENV/native-build.log")"
    report_compiled
}

# Say which compiled extensions this install uses: a silent fallback to pure Python is slower.
report_compiled() {
    local cobs
    cobs="$("$VENV/bin/python" -c 'import cobs.cobs as c; print("C extension" if c._using_extension else "pure Python (no compiler when it was installed)")' 2>/dev/null || echo "missing")"
    local engine
    engine="$("$VENV/bin/python" -m companion native status 2>/dev/null | tail -1 | sed 's/^compiled engine: //')"
    case "$engine" in
        pure) engine="pure Python (compiled with mypyc on a Pi, by ./setup.sh test, or with ARMATA_NATIVE=1)" ;;
        compiled) engine="compiled with mypyc" ;;
    esac
    log "engine: $engine; cobs framing: $cobs"
}

# The engine runs compiled where speed matters (CI, the Pi, ARMATA_NATIVE=1); while developing,
# the sources run (an edit is testable at once; a build older than its sources is ignored).
wants_native() {
    [ -n "${ARMATA_NATIVE:-}" ] && [ "${ARMATA_NATIVE}" != "0" ] && return 0
    grep -qs "Raspberry Pi" /proc/device-tree/model
}

cmd_run() {
    ensure_installed
    if wants_native; then ensure_native; else report_compiled; fi
    cd "$ROOT"
    case "${1:-}" in
        demo|board|scenario|sim) exec "$VENV/bin/python" -m companion "$@" ;;
    esac
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "${SDL_VIDEODRIVER:-}" = "kmsdrm" ]; then
        exec "$VENV/bin/python" -m ui "$@"
    fi
    log "no display found: the app runs on a virtual screen (Xvfb, 800x480); Ctrl-C stops it."
    log "On a desktop or the Pi (hardware/pi/README.md) it opens a window or goes fullscreen."
    run_on_virtual_screen "$VENV/bin/python" -m ui "$@"
}

# The app on a virtual screen of its own. Not xvfb-run: Ctrl-C reaches every process of the
# terminal's foreground group, and Xvfb, stopped with the app, took the app's display from
# under it ("XIO: fatal IO error", read as a crash). Xvfb runs in a session of its own; the
# app stops on Ctrl-C with its screen still there; then the screen goes.
run_on_virtual_screen() {
    local n=99 screen_dir xvfb status=0
    while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
    screen_dir=$(mktemp -d)
    export XAUTHORITY="$screen_dir/Xauthority"
    : >"$XAUTHORITY"
    xauth -q -f "$XAUTHORITY" add ":$n" . "$(mcookie)"
    setsid Xvfb ":$n" -screen 0 800x480x24 -nolisten tcp -auth "$XAUTHORITY" \
        >"$screen_dir/xvfb.log" 2>&1 &
    xvfb=$!
    # shellcheck disable=SC2064  # the values now: the trap runs after they are gone
    trap "kill $xvfb 2>/dev/null; wait $xvfb 2>/dev/null; rm -rf '$screen_dir'" EXIT
    for _ in $(seq 100); do
        [ -e "/tmp/.X11-unix/X$n" ] && break
        kill -0 "$xvfb" 2>/dev/null || die "the virtual screen (Xvfb) did not start: $(cat "$screen_dir/xvfb.log")"
        sleep 0.1
    done
    trap '' INT  # Ctrl-C is the app's to act on; this script waits for it to stop
    DISPLAY=":$n" "$@" || status=$?
    return "$status"
}

cmd_test() {
    ensure_installed
    apt_install "${TEST_APT_PACKAGES[@]}"
    cd "$ROOT"
    if [ "${1:-}" = "--fast" ]; then
        shift
        report_compiled
        log "ruff"
        "$VENV/bin/ruff" check . || die "ruff found problems"
        log "pytest (fast tier: not slow, pure Python; $(parallel_note))"
        exec "$VENV/bin/python" -m pytest -q -m "not slow" "${PARALLEL[@]}" "$@"
    fi
    # Mosquitto 2.1 beside Debian's 2.0 for the test of 2.1's configuration form
    # (tests/hardware/test_provision_2_1_broker.py): unpacked from Debian unstable once (~10 s), cached
    as_root "$ROOT/hardware/mosquitto/fetch-2.1.sh" || die "no Mosquitto 2.1 for its test (see above)"
    ensure_native
    log "ruff"
    "$VENV/bin/ruff" check . || die "ruff found problems"
    log "mypy"
    "$VENV/bin/mypy" companion firmware_bridge || die "mypy found problems"
    log "pytest ($(parallel_note))"
    "$VENV/bin/python" -m pytest -q "${PARALLEL[@]}" "$@"
}

# The suite in parallel (pytest-xdist): a worker a core, each taking the next test when it is
# free, the longest first (tests/durations.json, tests/conftest.py); every test keeps its own
# ports, virtual screen and temporary folder, so any two can run side by side. ARMATA_TEST_WORKERS
# sets the count (1: one process, no xdist).
WORKERS="${ARMATA_TEST_WORKERS:-auto}"
if [ "$WORKERS" = "1" ] || [ "$WORKERS" = "0" ]; then PARALLEL=()
else PARALLEL=(-n "$WORKERS" --dist load --maxschedchunk 1)
fi
parallel_note() {
    if [ "${#PARALLEL[@]}" -eq 0 ]; then echo "one process"; else echo "$WORKERS workers"; fi
}

case "${1:-}" in
    run)  shift; cmd_run "$@" ;;
    test) shift; cmd_test "$@" ;;
    *)    echo "usage: ./setup.sh run [ARGS...] | ./setup.sh test [--fast] [PYTEST ARGS...]" >&2; exit 2 ;;
esac
