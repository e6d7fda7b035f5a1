#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# korig.sh: fetch Debian's upstream tarball of the kernel build/linux's
# "vanilla" is made from -- linux_<upstream>.orig.tar.xz of source package
# "linux", i.e. upstream 7.3.4 without Debian's patches (Debian only drops
# the paths its copyright file lists under Files-Excluded) -- into
# build/korig/, and print its path.
#
# The version is the one of linux-source (build/ksource/version, written by
# ksource.sh); the suite is apt.sh's DEBIAN_KERNEL_SUITE.  apt reads a private deb-src list under
# build/korig that names the archive URI of the system's own apt sources (no
# host is named here); apt-helper downloads the tarball and checks it
# against the SHA256 of the signed Sources index.  Nothing is installed.
#
# korig.sh TARBALL (make check-upstream ORIG=/path/linux-7.3.4.tar.xz)
# uses that tarball instead (say upstream's own); build/korig/source then
# says it is not Debian's.
#
# Output: the tarball's path on stdout; build/korig/source says what it is
# ("debian <file> sha256 <hash> (<suite>)" or "given <path> sha256 <hash>").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/build/korig
die() { echo "korig: $*" >&2; exit 1; }
# shellcheck source=lib/apt.sh
. "$top/harness/lib/apt.sh"
suite=$DEBIAN_KERNEL_SUITE
mkdir -p "$d"

if [ -n "${1:-}" ]; then
	[ -f "$1" ] || die "$1: no such file"
	t=$(realpath "$1")
	echo "given $t sha256 $(sha256sum < "$t" | cut -d' ' -f1)" > "$d/source"
	echo "$t"; exit 0
fi

# The Debian version of linux-source-7.3: "linux-source-7.3 7.3.4-1~bpo13+1 (suite)".
ver=$(awk '{print $2}' "$top/build/ksource/version" 2>/dev/null || true)
[ -n "$ver" ] || die "no version: run harness/ksource.sh (make tree) first"
upstream=${ver%-*}; upstream=${upstream#*:}
orig=linux_$upstream.orig.tar.xz
if [ -f "$d/$orig" ] && [ -f "$d/source" ] && grep -q "^debian $orig " "$d/source"; then
	echo "$d/$orig"; exit 0
fi

apt_private "$d/apt" deb-src "$suite" || die "cannot read the archive's deb-src $suite"
opts=("${APT_OPTS[@]}")
# One line per file of the source package: 'URI' NAME SIZE SHA256:HASH
line=$(cd "$d" && apt-get "${opts[@]}" -qq --print-uris source "linux=$ver" 2>/dev/null | grep -F " $orig " || true)
[ -n "$line" ] || die "source package linux $ver has no $orig in deb-src $suite"
url=$(echo "$line" | awk '{print $1}' | tr -d "'")
hash=$(echo "$line" | awk '{print $4}')
rm -f "$d/$orig.part"
if ! /usr/lib/apt/apt-helper -o APT::Sandbox::User=root -qq download-file "$url" "$d/$orig.part" "$hash" >&2; then
	rm -f "$d/$orig.part" "$d/$orig.part.FAILED"
	die "the archive does not serve $orig (listed in deb-src $suite as $hash, $(echo "$line" | awk '{print $3}') bytes): $url; give the upstream tarball: make check-upstream ORIG=/path/linux-7.3.4.tar.xz"
fi
mv "$d/$orig.part" "$d/$orig"
echo "debian $orig sha256 ${hash#SHA256:} (linux $ver, $suite)" > "$d/source"
echo "korig: $orig (linux $ver, deb-src $suite, SHA256 checked)" >&2
echo "$d/$orig"
