#!/usr/bin/env bash
# Run the whole test suite on Raspberry Pi OS's base (Debian 13 trixie with Python 3.13, or
# Debian 12 bookworm with Python 3.11; arm64) on an x86 Linux machine, emulated with qemu-user.
# Not part of CI: a maintainer's check that a change still installs and passes on the Pi's
# platform (see hardware/pi/README.md). Unattended: everything goes to a log file on this
# machine, and a summary (the tested commit, platform, counts, time) ends the log and the output.
#
#   sudo nice -n 19 hardware/pi/check-on-pi-os.sh [--suite trixie|bookworm] [--root DIR]
#        [--scale N] [--ref REF] [--fresh] [--keep] [--log FILE] [-- SETUP.SH TEST ARGS...]
#
#   --suite S    the Pi OS base: trixie (default; Pi OS since October 2025) or bookworm
#   --root DIR   where the arm64 root lives (default /var/cache/armata-pi-os/<suite>-arm64);
#                built once with debootstrap, reused by later runs
#   --scale N    ARMATA_TEST_TIME_SCALE inside the root (default 25: emulation is 14-23x slower)
#   --ref REF    what to test (default HEAD of this checkout; committed work only)
#   --fresh      build the root again from nothing
#   --keep       leave the clone and its .venv in the root (the next run reuses the .venv and
#                the compiled engine when its sources are unchanged)
#   --log FILE   the run's log (default /var/cache/armata-pi-os/<suite>-<UTC time>.log)
#   --shared DIR the rules and contracts the tests read beside the checkout (default ../shared)
#
# The arguments after -- go to `./setup.sh test` inside the root: none for the whole suite,
# `-m "not slow"` for the fast tier on the compiled engine, or test ids.
#
# It installs debootstrap, qemu-user-static and binfmt-support on this machine when missing,
# mounts /proc, /sys and /dev into the root for the run and always unmounts them.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE=/var/cache/armata-pi-os
SUITE=trixie
ROOTFS=
LOG=
SHARED=
SCALE=25
REF=HEAD
FRESH=0
KEEP=0
MIRROR="${ARMATA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PYTEST_ARGS=()

die() { echo "check-on-pi-os: $*" >&2; exit 1; }
log() { echo "check-on-pi-os: $*" >&2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --suite) SUITE="$2"; shift 2 ;;
        --root) ROOTFS="$2"; shift 2 ;;
        --log) LOG="$2"; shift 2 ;;
        --shared) SHARED="$2"; shift 2 ;;
        --scale) SCALE="$2"; shift 2 ;;
        --ref) REF="$2"; shift 2 ;;
        --fresh) FRESH=1; shift ;;
        --keep) KEEP=1; shift ;;
        --) shift; PYTEST_ARGS=("$@"); break ;;
        *) die "unknown option $1 (see the head of $0)" ;;
    esac
done

case "$SUITE" in
    trixie|bookworm) ;;
    *) die "--suite $SUITE: trixie (Debian 13, Pi OS since 2025) or bookworm (Debian 12)" ;;
esac
ROOTFS="${ROOTFS:-$CACHE/$SUITE-arm64}"
LOG="${LOG:-$CACHE/$SUITE-$(date -u +%Y%m%d-%H%M%S).log}"
SHARED="$(cd "${SHARED:-$REPO/../shared}" 2>/dev/null && pwd || true)"

if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "needs root (debootstrap, chroot, mounts) and there is no sudo"
    exec sudo -E "$0" --suite "$SUITE" --root "$ROOTFS" --log "$LOG" --scale "$SCALE" --ref "$REF" \
        ${SHARED:+--shared "$SHARED"} \
        $([ "$FRESH" -eq 1 ] && echo --fresh) $([ "$KEEP" -eq 1 ] && echo --keep) -- "${PYTEST_ARGS[@]}"
fi
mkdir -p "$(dirname "$LOG")"
exec > >(tee -a "$LOG") 2>&1  # everything from here on, on screen and in the log
log "log: $LOG"
[ "$(uname -m)" = "x86_64" ] || log "this machine is $(uname -m), not x86_64: emulation is still used for arm64"
command -v apt-get >/dev/null 2>&1 || die "needs a Debian-like machine (apt-get) to install debootstrap and qemu-user-static"

host_packages=()
for pkg in debootstrap qemu-user-static binfmt-support git; do
    [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" = "install ok installed" ] || host_packages+=("$pkg")
done
if [ "${#host_packages[@]}" -gt 0 ]; then
    log "installing on this machine: ${host_packages[*]}"
    apt-get update -qq || die "apt-get update failed"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${host_packages[@]}" \
        || die "could not install ${host_packages[*]}"
fi

# qemu-user runs arm64 binaries through binfmt_misc (the F flag: no qemu copy inside the root)
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || die "binfmt_misc cannot be mounted here (a container without it cannot run arm64 binaries)"
fi
update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null \
    || die "qemu-aarch64 is not registered with binfmt_misc (update-binfmts --enable qemu-aarch64)"

MOUNTS=()
cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        umount -l "${MOUNTS[$i]}" 2>/dev/null || log "could not unmount ${MOUNTS[$i]}"
    done
    if [ "$KEEP" -eq 0 ] && [ -d "$ROOTFS/opt/check" ]; then rm -rf "$ROOTFS/opt/check"; fi
}
trap cleanup EXIT
bind() {  # bind <host path> <path in the root>
    mkdir -p "$ROOTFS$2"
    mount --bind "$1" "$ROOTFS$2"
    MOUNTS+=("$ROOTFS$2")
}

[ "$FRESH" -eq 1 ] && [ -d "$ROOTFS" ] && { log "removing $ROOTFS"; rm -rf --one-file-system "$ROOTFS"; }
if [ ! -f "$ROOTFS/.armata-root-ready" ]; then
    log "building a Debian $SUITE arm64 root in $ROOTFS (debootstrap under emulation: 10-20 min)"
    rm -rf --one-file-system "$ROOTFS"
    mkdir -p "$ROOTFS"
    debootstrap --arch=arm64 --variant=minbase \
        --include=ca-certificates,git,python3,python3-venv,python3-dev,gcc,libc6-dev,procps,sudo \
        "$SUITE" "$ROOTFS" "$MIRROR" || die "debootstrap failed (mirror $MIRROR)"
    touch "$ROOTFS/.armata-root-ready"
fi
codename="$(. "$ROOTFS/etc/os-release"; echo "${VERSION_CODENAME:-}")"
[ "$codename" = "$SUITE" ] || die "$ROOTFS is Debian ${codename:-?}, not $SUITE (--root, or --fresh to build it again)"

# This machine's network settings: its DNS, local CAs (an egress proxy's) and pip's settings.
cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
fi
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$ROOTFS/etc/pip.conf"

bind /proc /proc
bind /sys /sys
bind /dev /dev
bind /dev/pts /dev/pts
mkdir -p "$ROOTFS/dev/shm"
mount -t tmpfs tmpfs "$ROOTFS/dev/shm" && MOUNTS+=("$ROOTFS/dev/shm")

log "cloning $REF of $REPO into the root"
mkdir -p "$ROOTFS/opt/check"
rm -rf "$ROOTFS/opt/check/main.new"
git clone -q --no-hardlinks "$REPO" "$ROOTFS/opt/check/main.new"
git -C "$ROOTFS/opt/check/main.new" checkout -q "$(git -C "$REPO" rev-parse "$REF")"
if [ -d "$ROOTFS/opt/check/main/.venv" ]; then  # --keep: reuse the installed packages
    mv "$ROOTFS/opt/check/main/.venv" "$ROOTFS/opt/check/main.new/.venv"
fi
# --keep: and the compiled engine (15-20 min of gcc under emulation). Its stamp is the
# fingerprint of the sources it was built from (companion/native.py): if they changed since,
# setup.sh finds it stale and builds again; never is an old build used for new sources.
if [ -f "$ROOTFS/opt/check/main/companion/engine/compiled.stamp" ]; then
    (cd "$ROOTFS/opt/check/main" && find companion \( -name '*.so' -o -name compiled.stamp \) -print0 \
        | xargs -0 -r cp --parents -t "$ROOTFS/opt/check/main.new")
fi
rm -rf "$ROOTFS/opt/check/main"
mv "$ROOTFS/opt/check/main.new" "$ROOTFS/opt/check/main"
# the tests read the rules and contracts beside the checkout (../shared), as in CI
rm -rf "$ROOTFS/opt/check/shared"
if [ -n "$SHARED" ]; then
    cp -r "$SHARED" "$ROOTFS/opt/check/shared"
else
    log "no ../shared beside $REPO (--shared DIR): the tests that read the rules are skipped"
fi

log "running ./setup.sh test $* inside the $SUITE arm64 root (ARMATA_TEST_TIME_SCALE=$SCALE); hours, not minutes"
started=$(date +%s)
set +e
chroot "$ROOTFS" /usr/bin/env -i \
    HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DEFAULT_TIMEOUT=180 \
    ${http_proxy:+http_proxy=$http_proxy} ${https_proxy:+https_proxy=$https_proxy} \
    ${no_proxy:+no_proxy=$no_proxy} \
    ARMATA_TEST_TIME_SCALE="$SCALE" \
    /bin/bash -c 'update-ca-certificates >/dev/null 2>&1; cd /opt/check/main && ./setup.sh test "$@"' \
    check "${PYTEST_ARGS[@]}" 2>&1 | tee "$ROOTFS/opt/check.log"
status=${PIPESTATUS[0]}
set -e
elapsed=$(( $(date +%s) - started ))

# pytest's last line ("853 passed, 21 skipped in 6178.12s (1:42:58)"), or where setup.sh stopped
result="$(grep -E '^(=+ )?[0-9]+ (passed|failed|errors?|skipped|deselected)' "$ROOTFS/opt/check.log" | tail -1 || true)"
[ -n "$result" ] || result="no pytest result: $(grep -E '^setup.sh: ' "$ROOTFS/opt/check.log" | tail -1 || true)"
echo
echo "== Pi OS check summary =="
echo "suite:    $SUITE (--scale $SCALE; setup.sh test ${PYTEST_ARGS[*]})"
echo "tested:   $(git -C "$ROOTFS/opt/check/main" rev-parse HEAD) ($(git -C "$ROOTFS/opt/check/main" log -1 --format='%cs %s' HEAD | cut -c1-70))"  # the clone: REF may have moved since
echo "platform: $(chroot "$ROOTFS" /usr/bin/uname -m), $(chroot "$ROOTFS" /bin/sh -c '. /etc/os-release; echo "$PRETTY_NAME"'), $(chroot "$ROOTFS" /usr/bin/python3 --version)"
echo "engine:   $(chroot "$ROOTFS" /bin/sh -c 'cd /opt/check/main && .venv/bin/python -m companion native status' 2>/dev/null | tail -1)"
echo "result:   $result (exit status $status)"
grep -E '^(FAILED|ERROR) ' "$ROOTFS/opt/check.log" | sed 's/^/          /' || true
printf 'time:     %dh %02dm %02ds (time limits x%s)\n' $((elapsed / 3600)) $((elapsed % 3600 / 60)) $((elapsed % 60)) "$SCALE"
echo "log:      $LOG"
exit "$status"
