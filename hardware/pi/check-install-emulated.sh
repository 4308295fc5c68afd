#!/usr/bin/env bash
# The product install on Raspberry Pi OS's base, emulated: a Debian arm64 root (trixie or
# bookworm, built with debootstrap and run with qemu-user on this x86 machine), the release
# archive of this checkout installed in it with hardware/pi/install.sh exactly as
# hardware/pi/README.md tells a user, then checked: the service user, the units, no test tools,
# nothing from another release, the version, a scripted headless game, and the app itself
# started as its unit starts it, on this machine's Xvfb, for 30 s, then stopped.
# Not part of CI (tens of minutes a base); a maintainer's check (hardware/pi/README.md).
#
#   sudo nice -n 10 hardware/pi/check-install-emulated.sh trixie|bookworm [OPTIONS]
#
#   --cache DIR     where the roots live (default /var/cache/armata-pi-os): the debootstrap
#                   base DIR/base-<suite>-arm64 is built once and reused; each run installs
#                   into a fresh copy of it, DIR/install-<suite>-arm64
#   --again         install over the root of the last run instead of a fresh copy (a rerun:
#                   the install must say it changed nothing)
#   --fresh         build the debootstrap base again from nothing
#   --ref REF       what to install (default HEAD: committed work only)
#   --cpu MODEL     the arm64 processor qemu emulates (default cortex-a72, a Pi 4's; cortex-a76
#                   is a Pi 5's). Not qemu's default "max": its pointer authentication, which
#                   no Pi has, makes trixie's branch-protected programs run ~6 times slower
#   --app-seconds N how long the app must stay up under Xvfb once it is ready (default 30;
#                   its start, minutes under emulation, is timed apart)
#   --log FILE      the run's log (default DIR/install-<suite>-<UTC time>.log)
#   --dry-run       check the arguments and the machine, print the plan, change nothing
#
# The base is plain Debian (deb.debian.org, or $ARMATA_DEBIAN_MIRROR), the base of Raspberry
# Pi OS Lite: Pi OS's own archive (archive.raspberrypi.com) is not used, so what only Pi OS
# has is not checked here. What a chroot lacks gets a stand-in for the run only, removed
# after: a running systemd (systemctl's start, restart, stop, daemon-reload are recorded and
# answered as done, is-active from what was started; enable, disable and is-enabled are the real
# systemctl's offline work) and
# services starting while packages install (policy-rc.d). Each phase is timed; a failure says
# which phase and why. Everything is on screen and in the log.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE=/var/cache/armata-pi-os
SUITE=
REF=HEAD
AGAIN=0
FRESH=0
DRY=0
APP_SECONDS=30
CPU=cortex-a72
READY_LIMIT=900  # the app's start under emulation (its window, the table, the phones' page)
LOG=
MIRROR="${ARMATA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# Pi OS Lite's own base beyond minbase: systemd as init, udev (and the groups it makes: input,
# render), sudo, procps; python3 is left out on purpose (install.sh installs it when missing)
BASE_PACKAGES=ca-certificates,systemd,systemd-sysv,udev,sudo,procps
UNIT=armata-companion.service
OPT=/opt/armata-companion

die() { echo "check-install-emulated: $*" >&2; exit 1; }
say() { echo "check-install-emulated: $*" >&2; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//' >&2; }

while [ $# -gt 0 ]; do
    case "$1" in
        trixie|bookworm) [ -z "$SUITE" ] || die "one base at a time ($SUITE, then $1)"; SUITE="$1"; shift ;;
        --cache) [ $# -ge 2 ] || die "--cache needs a folder"; CACHE="$2"; shift 2 ;;
        --ref) [ $# -ge 2 ] || die "--ref needs a commit"; REF="$2"; shift 2 ;;
        --log) [ $# -ge 2 ] || die "--log needs a file"; LOG="$2"; shift 2 ;;
        --app-seconds)
            [ $# -ge 2 ] && [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "--app-seconds needs a whole number of seconds"
            APP_SECONDS="$2"; shift 2 ;;
        --cpu) [ $# -ge 2 ] || die "--cpu needs a model (cortex-a72, cortex-a76)"; CPU="$2"; shift 2 ;;
        --again) AGAIN=1; shift ;;
        --fresh) FRESH=1; shift ;;
        --dry-run) DRY=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage; die "unknown argument $1: the base is trixie or bookworm" ;;
    esac
done
[ -n "$SUITE" ] || { usage; die "which base: trixie (Pi OS since October 2025) or bookworm"; }
[ "$AGAIN" -eq 0 ] || [ "$FRESH" -eq 0 ] || die "--again installs over the last run's root, --fresh builds the base anew: not both"
COMMIT="$(git -C "$REPO" rev-parse --verify --quiet "$REF^{commit}")" || die "--ref $REF: no such commit in $REPO"
BASE="$CACHE/base-$SUITE-arm64"
ROOTFS="$CACHE/install-$SUITE-arm64"
LOG="${LOG:-$CACHE/install-$SUITE-$(date -u +%Y%m%d-%H%M%S).log}"

if [ "$DRY" -eq 1 ]; then
    echo "base:     Debian $SUITE arm64 from $MIRROR (Raspberry Pi OS Lite's base; not Pi OS's own archive)"
    echo "debootstrap root: $BASE ($( [ -f "$BASE/.armata-base-ready" ] && [ "$FRESH" -eq 0 ] && echo "present, reused" || echo "built now"))"
    echo "install root:     $ROOTFS ($( [ "$AGAIN" -eq 1 ] && echo "the last run's, installed over" || echo "a fresh copy of the base"))"
    echo "release:  $COMMIT of $REPO (hardware/pi/release.py)"
    echo "cpu:      $CPU (qemu-user)"
    echo "phases:   host, base, root, release, install, checks, game, app ($APP_SECONDS s under Xvfb)"
    echo "log:      $LOG"
    exit 0
fi

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts): sudo $0 $SUITE"
command -v apt-get >/dev/null 2>&1 || die "needs a Debian-like machine (apt-get) for debootstrap and qemu-user-static"
mkdir -p "$CACHE" "$(dirname "$LOG")"
exec > >(tee -a "$LOG") 2>&1  # from here on, on screen and in the log

PHASE=start
PHASE_START=$(date +%s)
STARTED=$PHASE_START
TIMES=()
phase() {  # phase NAME: the previous phase ends, NAME begins
    local now
    now=$(date +%s)
    [ "$PHASE" = start ] || TIMES+=("$(printf '%-8s %4d s' "$PHASE" $((now - PHASE_START)))")
    PHASE="$1"
    PHASE_START=$now
    say "== $PHASE ($(date -u +%H:%M:%S) UTC)"
}
fail() { die "FAILED in phase $PHASE: $*"; }

MOUNTS=()
XVFB_PID=
APP_PID=
cleanup() {
    local status=$? i
    if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then kill -KILL -- "-$APP_PID" 2>/dev/null || true; fi
    if [ -n "$XVFB_PID" ]; then kill "$XVFB_PID" 2>/dev/null || true; wait "$XVFB_PID" 2>/dev/null || true; fi
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount "${MOUNTS[$i]}" 2>/dev/null || umount -l "${MOUNTS[$i]}" 2>/dev/null \
            || say "could not unmount ${MOUNTS[$i]}"
    done
    if [ -d "$ROOTFS" ]; then  # the stand-ins go: the root is left as the install made it
        rm -f "$ROOTFS/usr/local/sbin/systemctl" "$ROOTFS/usr/sbin/policy-rc.d"
    fi
    if [ "$status" -ne 0 ]; then
        say "stopped in phase $PHASE after $(( $(date +%s) - STARTED )) s (exit $status); log: $LOG"
    fi
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
bind() {  # bind <host path> <path in the root>
    mkdir -p "$ROOTFS$2"
    mount --bind "$1" "$ROOTFS$2" || fail "cannot bind $1 into the root"
    MOUNTS+=("$ROOTFS$2")
}
inroot() {  # a command inside the root, with a clean environment
    chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
        ${no_proxy:+no_proxy=$no_proxy} PIP_DEFAULT_TIMEOUT=180 QEMU_CPU="$CPU" "$@"
}
as_armata() {  # a command inside the root as the table's user, in the current release
    inroot /usr/sbin/runuser -u armata -- /usr/bin/env -C "$OPT/current" "$@"
}

say "log: $LOG"
say "base: Debian $SUITE arm64 (Raspberry Pi OS Lite's base) from $MIRROR; Pi OS's own archive is not used"

phase host
export QEMU_CPU="$CPU"  # read by qemu-aarch64 from each arm64 program's environment
packages=()
for pkg in debootstrap qemu-user-static binfmt-support xvfb x11-utils git python3; do
    [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] || packages+=("$pkg")
done
if [ "${#packages[@]}" -gt 0 ]; then
    say "installing on this machine: ${packages[*]}"
    apt-get update -qq || fail "apt-get update failed on this machine"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" \
        || fail "could not install ${packages[*]} on this machine"
fi
# arm64 programs run through binfmt_misc and qemu-aarch64 (its F flag: no qemu inside the root)
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || fail "binfmt_misc cannot be mounted here: arm64 programs cannot run (a container without it?)"
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
    || fail "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64)"
cpus="$(qemu-aarch64-static -cpu help 2>/dev/null || true)"  # (it lists them, then exits 1)
grep -w -- "${CPU%%,*}" >/dev/null <<<"$cpus" \
    || fail "--cpu $CPU: qemu-aarch64 knows no such processor (qemu-aarch64-static -cpu help)"
grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 \
    || fail "qemu-aarch64 is registered without the F flag: a chroot cannot find its interpreter"

phase base
if [ "$FRESH" -eq 1 ] && [ -d "$BASE" ]; then say "removing $BASE"; rm -rf --one-file-system "$BASE"; fi
if [ ! -f "$BASE/.armata-base-ready" ]; then
    say "building the Debian $SUITE arm64 base in $BASE (debootstrap, its second stage emulated)"
    rm -rf --one-file-system "$BASE"
    mkdir -p "$BASE"
    debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" "$SUITE" "$BASE" "$MIRROR" \
        || fail "debootstrap of $SUITE arm64 from $MIRROR failed (its log: $BASE/debootstrap/debootstrap.log)"
    touch "$BASE/.armata-base-ready"
else
    say "reusing $BASE"
    missing=
    for pkg in ${BASE_PACKAGES//,/ }; do
        [ "$(chroot "$BASE" /usr/bin/dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] \
            || missing+="$pkg "
    done
    if [ -n "$missing" ]; then  # a base built before this list grew
        say "adding to the base: $missing"
        chroot "$BASE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
            QEMU_CPU="$CPU" /bin/sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${BASE_PACKAGES//,/ }" \
            || fail "could not add $missing to $BASE (--fresh builds it again)"
    fi
fi
codename="$(. "$BASE/etc/os-release"; echo "${VERSION_CODENAME:-}")"
[ "$codename" = "$SUITE" ] || fail "$BASE is Debian ${codename:-?}, not $SUITE (--fresh builds it again)"

phase root
if [ "$AGAIN" -eq 1 ]; then
    [ -f "$ROOTFS/.armata-install-root" ] || fail "--again: no root of an earlier run in $ROOTFS"
    say "installing over the last run's root $ROOTFS"
else
    if [ -d "$ROOTFS" ]; then
        grep -qs " $ROOTFS/" /proc/mounts && fail "something is still mounted under $ROOTFS (another run?)"
        rm -rf --one-file-system "$ROOTFS"
    fi
    cp -a --reflink=auto "$BASE" "$ROOTFS" || fail "cannot copy $BASE to $ROOTFS"
    touch "$ROOTFS/.armata-install-root"
    # what a Pi's boot partition has: the kernel's command line the install adds consoleblank=0 to
    mkdir -p "$ROOTFS/boot/firmware"
    echo "console=serial0,115200 console=tty1 root=PARTUUID=0-02 rootfstype=ext4 fsck.repair=yes rootwait" \
        > "$ROOTFS/boot/firmware/cmdline.txt"
fi
cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"  # this machine's DNS, local CAs and pip settings
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
    inroot update-ca-certificates >/dev/null 2>&1 || say "update-ca-certificates failed in the root"
fi
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$ROOTFS/etc/pip.conf"
sources_before="$(cat "$ROOTFS"/etc/apt/sources.list "$ROOTFS"/etc/apt/sources.list.d/* 2>/dev/null || true)"
bind /proc /proc
bind /sys /sys
bind /dev /dev
bind /dev/pts /dev/pts
mkdir -p "$ROOTFS/dev/shm"
mount -t tmpfs tmpfs "$ROOTFS/dev/shm" && MOUNTS+=("$ROOTFS/dev/shm")
# the stand-ins for what a chroot lacks (removed at the end)
cat > "$ROOTFS/usr/sbin/policy-rc.d" <<'EOF'
#!/bin/sh
# check-install-emulated.sh: no services start inside the chroot
exit 101
EOF
chmod 755 "$ROOTFS/usr/sbin/policy-rc.d"
mkdir -p "$ROOTFS/usr/local/sbin"
cat > "$ROOTFS/usr/local/sbin/systemctl" <<'EOF'
#!/bin/sh
# check-install-emulated.sh's stand-in: no systemd runs in a chroot. Calls are recorded; what
# needs a running manager is answered as by one (a unit started stays active, a reload has
# nothing to reload), the rest is systemctl's own offline work (enable, disable, is-enabled).
log=/var/log/armata-check-systemctl.log
active=/var/log/armata-check-active
echo "$*" >> "$log"
touch "$active"
verb=
for arg in "$@"; do
    case "$arg" in
        -*) ;;
        *) if [ -z "$verb" ]; then verb="$arg"; continue; fi
           case "$verb" in
               start|restart|reload|try-restart) grep -qx "$arg" "$active" || echo "$arg" >> "$active" ;;
               stop) grep -vx "$arg" "$active" > "$active.new"; mv "$active.new" "$active" ;;
               is-active) grep -qx "$arg" "$active" || exit 3 ;;
               is-failed) exit 1 ;;
           esac ;;
    esac
done
case "$verb" in
    start|restart|reload|try-restart|stop|daemon-reload|is-active|is-failed) exit 0 ;;
esac
exec /usr/bin/systemctl "$@"
EOF
chmod 755 "$ROOTFS/usr/local/sbin/systemctl"
[ "$AGAIN" -eq 1 ] || rm -f "$ROOTFS/var/log/armata-check-systemctl.log" "$ROOTFS/var/log/armata-check-active"

phase release
scratch="$(mktemp -d)"
git -C "$REPO" archive --format=tar "$COMMIT" | tar -x -C "$scratch" || fail "git archive of $COMMIT failed"
archive="$(cd "$scratch" && python3 -m hardware.pi.release --out "$scratch/dist")" \
    || fail "hardware/pi/release.py could not make the release archive"
version="$(basename "$archive" .tar.gz)"; version="${version#armata-companion-}"
mkdir -p "$ROOTFS/root/release"
rm -rf "$ROOTFS/root/release/"*
cp "$archive" "$ROOTFS/root/release/"
say "release $version ($(git -C "$REPO" log -1 --format='%h %cs' "$COMMIT")): $(basename "$archive") ($(du -h "$archive" | cut -f1)) in /root/release"
rm -rf "$scratch"

phase install
# as hardware/pi/README.md says: unpack the archive, run its install.sh as root
set +e
inroot /bin/sh -c "cd /root/release && tar xzf armata-companion-$version.tar.gz \
    && armata-companion-$version/hardware/pi/install.sh" 2>&1 \
    | while IFS= read -r line; do  # the install's own lines timed: where its minutes go
        case "$line" in install:*) printf '%(%H:%M:%S)T %s\n' -1 "$line" ;; *) printf '%s\n' "$line" ;; esac
    done | tee "$CACHE/install-$SUITE-install.log"
status=${PIPESTATUS[0]}
set -e
[ "$status" -eq 0 ] || fail "hardware/pi/install.sh failed with exit $status (above)"
if [ "$AGAIN" -eq 1 ]; then  # the same release again: the install must change nothing
    grep -q "install: release .* nothing to change" "$CACHE/install-$SUITE-install.log" \
        || fail "the second install of the same release changed something (above)"
fi

phase checks
problems=()
check() { if ! "$@"; then problems+=("$CHECKING"); say "  no: $CHECKING"; else say "  ok: $CHECKING"; fi; }
CHECKING="the user armata (a system user, home the data folder, no shell)"
check inroot /bin/sh -c 'getent passwd armata | grep -q ":/var/lib/armata-companion:/usr/sbin/nologin$"'
CHECKING="armata in each of the table's groups this system has (video render input dialout audio gpio netdev)"
check inroot /bin/sh -c 'for g in video render input dialout audio gpio netdev; do
    getent group "$g" >/dev/null || continue; id -nG armata | grep -qw "$g" || { echo "not in $g" >&2; exit 1; }; done'
say "  armata's groups: $(inroot id -nG armata)"
CHECKING="the data folder /var/lib/armata-companion, the user's own"
check inroot /bin/sh -c '[ "$(stat -c %U:%a /var/lib/armata-companion)" = armata:750 ] && [ -d /var/lib/armata-companion/backups ]'
CHECKING="the unit file and its timers, enabled (systemctl is-enabled, offline)"
check inroot /bin/sh -c "[ -f /etc/systemd/system/$UNIT ] && /usr/bin/systemctl is-enabled --quiet $UNIT \
    && /usr/bin/systemctl is-enabled --quiet armata-companion-backup.timer \
    && /usr/bin/systemctl is-enabled --quiet armata-companion-update.path"
CHECKING="the unit (re)started by the install (systemctl restart $UNIT, recorded by the stand-in)"
check grep -qx "restart $UNIT" "$ROOTFS/var/log/armata-check-systemctl.log"
CHECKING="the unit file as systemd reads it (systemd-analyze verify, offline)"
check inroot /usr/bin/systemd-analyze verify "/etc/systemd/system/$UNIT"
CHECKING="current -> releases/$version, the release marked whole"
check inroot /bin/sh -c "[ \"\$(readlink $OPT/current)\" = releases/$version ] && [ -f $OPT/releases/$version/.armata-release ]"
CHECKING="consoleblank=0 on the kernel's command line"
check grep -qw consoleblank=0 "$ROOTFS/boot/firmware/cmdline.txt"
CHECKING="no browser, no Xvfb, no test tools among the Debian packages"
check inroot /bin/sh -c '! dpkg-query -W -f="\${Package} \${Status}\n" chromium chromium-driver xvfb xauth zbar-tools fonts-dejavu-core 2>/dev/null | grep -q "install ok installed"'
CHECKING="no test tools in the release's environment (pytest, hypothesis, selenium, ruff, xdist)"
check inroot /bin/sh -c "for m in pytest hypothesis selenium ruff xdist; do $OPT/current/.venv/bin/python -c \"import \$m\" 2>/dev/null && { echo \"\$m is importable\" >&2; exit 1; }; done; [ ! -e $OPT/current/tests ]"
CHECKING="the apt sources untouched (only $SUITE)"
check [ "$(cat "$ROOTFS"/etc/apt/sources.list "$ROOTFS"/etc/apt/sources.list.d/* 2>/dev/null || true)" = "$sources_before" ]
CHECKING="every installed Debian package from $SUITE's archive (none local, none of another release)"
# apt names a package's archives by suite (stable, oldstable) or codename; a package of no
# archive is "now" (local) only
names="$(cat "$ROOTFS"/var/lib/apt/lists/*Release 2>/dev/null | awk '/^(Suite|Codename):/ { printf "%s ", $2 }')"
say "  the root's archives: $names"
foreign="$(inroot /usr/bin/apt list --installed 2>/dev/null | awk -F'[/ ]' -v names="$names" '
    BEGIN { n = split(names, allowed, " ") }
    $0 ~ /\[installed/ { split($2, suites, ","); ok = 0
        for (i in suites) for (j = 1; j <= n; j++) if (suites[i] == allowed[j] || index(suites[i], allowed[j] "-") == 1) ok = 1
        if (!ok) print }')"
[ -z "$foreign" ] || say "  foreign or local packages: $foreign"
check [ -z "$foreign" ]
CHECKING="python -m companion --version says $version"
said="$(as_armata .venv/bin/python -m companion --version 2>&1 || true)"
say "  $said"
check [ "$said" = "armata-companion $version" ]
CHECKING="the engine compiled (python -m companion native status)"
said="$(as_armata .venv/bin/python -m companion native status 2>&1 | tail -1 || true)"
say "  $said"
check [ "${said%compiled}" != "$said" ]
platform="$(inroot /bin/sh -c '. /etc/os-release; echo "$PRETTY_NAME, $(uname -m), $(python3 --version)"')"
packages_installed="$(inroot dpkg-query -W -f='${Package}\n' | wc -l)"
say "  platform: $platform; $packages_installed Debian packages"
[ "${#problems[@]}" -eq 0 ] || fail "${#problems[@]} checks failed: $(printf '%s; ' "${problems[@]}")"

phase game
# the new-version check of `companion update` (companion/product/update.py): the headless table
# plays on simulated nodes into a fresh log, the log is checked, one whole game is played by the
# engine with its invariants checked at every step
inroot /bin/sh -c 'rm -rf /tmp/armata-check && mkdir /tmp/armata-check && chown armata: /tmp/armata-check'
as_armata .venv/bin/python -m companion serve --data /tmp/armata-check --play --seconds 20 --silent \
    --web off --nodes simulated || fail "companion serve --play (the headless table) failed"
as_armata .venv/bin/python -m companion check --db /tmp/armata-check/companion.db \
    || fail "companion check of the headless table's game log failed"
as_armata .venv/bin/python -m companion sim --games 1 --seed 1 || fail "companion sim (one whole game) failed"

phase app
# the app as its unit starts it (user, folder, environment, command), with SDL on this
# machine's Xvfb instead of the Pi's KMS/DRM display, and the phones' page on a free local port
# instead of 0.0.0.0:8421 (this machine's other work may use that port)
display=
for n in $(seq 90 120); do
    [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] || { display=$n; break; }
done
[ -n "$display" ] || fail "no free X display number between :90 and :120"
Xvfb ":$display" -screen 0 800x480x24 -nolisten tcp >/dev/null 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$display" ] && break; sleep 0.2; done
[ -e "/tmp/.X11-unix/X$display" ] || fail "this machine's Xvfb did not start on :$display"
bind /tmp/.X11-unix /tmp/.X11-unix
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ui_args="$(inroot /bin/sh -c ". /etc/default/armata-companion 2>/dev/null; echo \"\${ARMATA_UI_ARGS:---nodes serial}\"")"
say "python -m ui --kiosk $ui_args --web 127.0.0.1:$port on :$display, for $APP_SECONDS s"
setsid chroot "$ROOTFS" /usr/sbin/runuser -u armata -- /usr/bin/env -i -C "$OPT/current" \
    HOME=/var/lib/armata-companion LANG=C.UTF-8 PATH=/usr/bin:/bin QEMU_CPU="$CPU" \
    DISPLAY=":$display" SDL_VIDEODRIVER=x11 KIVY_WINDOW=sdl2 KIVY_LOG_MODE=PYTHON \
    ARMATA_DATA_DIR=/var/lib/armata-companion \
    "$OPT/current/.venv/bin/python" -m ui --kiosk $ui_args --web "127.0.0.1:$port" \
    > "$CACHE/install-$SUITE-app.log" 2>&1 &
APP_PID=$!
# ready: its window shown and the table started (the phones' page, opened after the table's
# first frame, answers); emulated, the start takes minutes, so it has READY_LIMIT seconds
app_began=$(date +%s)
app_seconds() { echo $(( $(date +%s) - app_began )); }
app_ended() {
    tail -30 "$CACHE/install-$SUITE-app.log" | sed 's/^/  app: /'
    fail "the app ended after $(app_seconds) s, $1 (its output above, all of it: $CACHE/install-$SUITE-app.log)"
}
window=
ready=
while [ -z "$ready" ]; do
    sleep 1
    kill -0 "$APP_PID" 2>/dev/null || app_ended "before it was ready"
    if [ -z "$window" ] && DISPLAY=":$display" xwininfo -root -children 2>/dev/null | grep -Eq '[0-9]+x[0-9]+\+'; then
        window=$(app_seconds)
        say "a window on :$display after $window s"
    fi
    if [ -n "$window" ] && curl -fsS -m 5 -o /dev/null "http://127.0.0.1:$port/" 2>/dev/null; then
        ready=$(app_seconds)
    fi
    [ "$(app_seconds)" -lt "$READY_LIMIT" ] \
        || fail "the app was not ready within $READY_LIMIT s (window: ${window:-none}; the phones' page did not answer)"
done
say "ready after $ready s (the table started, its phones' page answers); now $APP_SECONDS s up"
for _ in $(seq "$APP_SECONDS"); do
    sleep 1
    kill -0 "$APP_PID" 2>/dev/null || app_ended "$(( $(app_seconds) - ready )) s after it was ready"
done
curl -fsS -m 20 -o /dev/null "http://127.0.0.1:$port/" || fail "the phones' page stopped answering while the app ran"
windows="$(DISPLAY=":$display" xwininfo -root -children 2>/dev/null | grep -Ec '[0-9]+x[0-9]+\+' || true)"
up=$(( $(app_seconds) - ready ))
say "up $up s since ready, $windows window(s) on :$display, the phones' page answers"
# stopped as systemd stops the unit: SIGTERM to the app, which closes its log and its rings
# (runuser, the unit's User=, waits for its child, the app's python: the signal goes to that)
app_python="$(pgrep -P "$APP_PID" | head -1 || true)"
kill -TERM "${app_python:-$APP_PID}" 2>/dev/null || true
asked=$(date +%s)
stopped=
for _ in $(seq 240); do
    kill -0 "$APP_PID" 2>/dev/null || { stopped=$(( $(date +%s) - asked )); break; }
    sleep 0.5
done
[ -n "$stopped" ] || fail "the app did not end within 120 s of SIGTERM"
set +e; wait "$APP_PID"; app_status=$?; set -e
APP_PID=
[ "$app_status" -eq 0 ] || { tail -20 "$CACHE/install-$SUITE-app.log" | sed 's/^/  app: /'; fail "the app ended with status $app_status on SIGTERM, not cleanly"; }
say "stopped cleanly on SIGTERM in $stopped s (exit 0)"

phase end
total=$(( $(date +%s) - STARTED ))
echo
echo "== emulated install check: $SUITE =="
echo "date:     $(date -u +%Y-%m-%d) ($(date -u +%H:%M) UTC)"
echo "release:  $version, commit $(git -C "$REPO" log -1 --format='%h (%cs %s)' "$COMMIT" | cut -c1-80)"
echo "platform: $platform (qemu-user -cpu $CPU on $(uname -m), $(nproc) cores); Debian's archive, not Pi OS's"
echo "install:  $([ "$AGAIN" -eq 1 ] && echo "again, over the last run's root" || echo "fresh, on a copy of the debootstrap base"); $packages_installed Debian packages in the root"
echo "checked:  user, data folder, units enabled, unit restarted, consoleblank, no test tools, no foreign packages, version, compiled engine,"
echo "          headless table + log check + one whole game, the app under Xvfb: window after $window s, ready after $ready s,"
echo "          up $up s more, stopped cleanly by SIGTERM in $stopped s"
echo "times:"
printf '          %s\n' "${TIMES[@]}"
printf '          %-8s %4d s (%dm %02ds)\n' total "$total" $((total / 60)) $((total % 60))
echo "log:      $LOG"
