#!/usr/bin/env bash
# Mosquitto 2.1 beside Debian 12/13's 2.0, for the test that starts a real 2.1 broker from the
# configuration provision.py writes for it (tests/hardware/test_provision_2_1_broker.py). Debian 12 and 13
# ship 2.0; Debian unstable ships 2.1, built for a newer C library than theirs. So its packages
# and their whole dependency closure (glibc included) are downloaded with apt from unstable and
# unpacked into a folder, not installed: nothing of this machine's packages changes. Small
# wrappers run the broker and its mosquitto_passwd with the unpacked dynamic loader and
# libraries, so they read files anywhere on this machine (no chroot) and need no root.
#
#   hardware/mosquitto/fetch-2.1.sh     (./setup.sh test runs it; root: it writes to /var/cache)
#
# Idempotent: once there it only checks that the broker runs (milliseconds). The first time it
# downloads ~20 MB (~37 packages) and takes seconds. Result, in ARMATA_MOSQUITTO_21 (default
# /var/cache/armata-mosquitto-2.1):
#   bin/mosquitto, bin/mosquitto_passwd   the 2.1 tools (put bin/ first on PATH to use them)
#   plugins/                              mosquitto_password_file.so, mosquitto_acl_file.so
#   version                               what `mosquitto -h` says, and the Debian version
# ARMATA_DEBIAN_MIRROR: another Debian mirror (default http://deb.debian.org/debian).
set -euo pipefail

CACHE="${ARMATA_MOSQUITTO_21:-/var/cache/armata-mosquitto-2.1}"
MIRROR="${ARMATA_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() { echo "fetch-2.1: could not obtain Mosquitto 2.1 for its test: $*" >&2; exit 1; }

# "mosquitto version 2.1.2" or later (2.1 is the first that reads the files through plugins)
runs_2_1() {
    local said
    said="$("$1/bin/mosquitto" -h 2>/dev/null | grep -m1 '^mosquitto version ' || true)"
    [[ "$said" =~ ^mosquitto\ version\ ([0-9]+)\.([0-9]+)\. ]] || return 1
    (( BASH_REMATCH[1] > 2 || (BASH_REMATCH[1] == 2 && BASH_REMATCH[2] >= 1) ))
}

if [ -f "$CACHE/version" ] && runs_2_1 "$CACHE"; then
    exit 0
fi
for tool in apt-get dpkg dpkg-deb ldconfig flock; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing (a Debian machine is needed)"
done
[ -r "$KEYRING" ] || die "$KEYRING is missing (apt-get install debian-archive-keyring)"

mkdir -p "$(dirname "$CACHE")"
exec 9>"$CACHE.lock"
flock 9  # two setup.sh runs at once: the second waits, then finds it there
if [ -f "$CACHE/version" ] && runs_2_1 "$CACHE"; then
    exit 0
fi

echo "fetch-2.1: downloading Mosquitto 2.1 from Debian unstable into $CACHE" >&2
work="$(mktemp -d "$CACHE.new.XXXXXX")"
trap 'rm -rf "$work"' EXIT
arch="$(dpkg --print-architecture)"
apt_dir="$work/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/etc"
echo "deb [signed-by=$KEYRING] $MIRROR sid main" >"$apt_dir/etc/sources.list"
: >"$apt_dir/status"  # nothing installed: apt fetches the whole closure, C library included
apt_opts=(
    -q -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::State::Status=$apt_dir/status"
    -o "Dir::Cache=$apt_dir/cache" -o Debug::NoLocking=1 -o APT::Sandbox::User=root
    -o "APT::Architecture=$arch" -o "APT::Architectures::=$arch" -o APT::Install-Recommends=0
    # unstable's Release file is valid for a week only: a mirror or package cache that lags
    # behind (as the one this was written with) is refused without this; the signature is still checked
    -o Acquire::Check-Valid-Until=false
)
apt-get "${apt_opts[@]}" --error-on=any update >"$work/apt.log" 2>&1 \
    || { tail -5 "$work/apt.log" >&2; die "apt-get update of $MIRROR sid failed (network? mirror?)"; }
apt-get "${apt_opts[@]}" -y --download-only install mosquitto >>"$work/apt.log" 2>&1 \
    || { tail -5 "$work/apt.log" >&2; die "apt-get could not download mosquitto from $MIRROR sid"; }

root="$work/root"
mkdir -p "$root"
for deb in "$apt_dir"/cache/archives/*.deb; do
    dpkg-deb -x "$deb" "$root" || die "could not unpack $deb"
done
loader="$(find "$root/usr/lib" -maxdepth 2 -name 'ld-linux*.so.[0-9]' | head -1)"
[ -n "$loader" ] || die "no dynamic loader in the unpacked libc6 ($arch)"
libs="$(dirname "$loader")"  # /usr/lib/<multiarch>: Debian's merged /usr keeps them all there
[ -f "$libs/mosquitto/mosquitto_password_file.so" ] && [ -f "$libs/mosquitto/mosquitto_acl_file.so" ] \
    || die "the mosquitto package has no mosquitto_password_file.so and mosquitto_acl_file.so in $libs/mosquitto"
ldconfig -n "$libs"  # the soname links dpkg's trigger would make (libpicohttpparser.so.1, ...)
debian_version="$(dpkg-deb -f "$(ls "$apt_dir"/cache/archives/mosquitto_*.deb | head -1)" Version)"
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/locale" "$apt_dir"

# the folder is renamed into place at the end: the wrappers name the final paths
final_libs="$CACHE/root${libs#"$root"}"
final_loader="$CACHE/root${loader#"$root"}"
mkdir -p "$work/bin"
for tool in sbin/mosquitto bin/mosquitto_passwd; do
    name="$(basename "$tool")"
    [ -x "$root/usr/$tool" ] || die "the mosquitto package has no /usr/$tool"
    cat >"$work/bin/$name" <<EOF
#!/bin/sh
# $name of Mosquitto 2.1 from Debian unstable, run with its own C library (hardware/mosquitto/fetch-2.1.sh)
exec "$final_loader" --argv0 "\$0" --library-path "$final_libs" "$CACHE/root/usr/$tool" "\$@"
EOF
    chmod 755 "$work/bin/$name"
done
ln -s "root${libs#"$root"}/mosquitto" "$work/plugins"
chmod -R a+rX "$work"
rm -rf "$CACHE.old"
[ -e "$CACHE" ] && mv "$CACHE" "$CACHE.old"
mv "$work" "$CACHE"
trap - EXIT
rm -rf "$CACHE.old"
runs_2_1 "$CACHE" || die "the unpacked broker does not run: $("$CACHE/bin/mosquitto" -h 2>&1 | head -3 | tr '\n' ' ')"
{ "$CACHE/bin/mosquitto" -h 2>/dev/null | grep -m1 '^mosquitto version '; echo "debian package: mosquitto ${debian_version:-?} ($arch, from $MIRROR sid)"; } >"$CACHE/version"
echo "fetch-2.1: $(head -1 "$CACHE/version") in $CACHE" >&2
