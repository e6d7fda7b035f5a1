#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ksource.sh: fetch Debian's linux-source-7.3 into
# build/ksource/ without installing anything into the system, and print the
# path of its tarball.  The package lives in a suite the host's apt sources
# may not list (trixie-backports for 7.3 on bookworm): a private sources
# list under build/ points apt at that suite, with the archive URI taken
# from the host's own apt sources (no host is named here).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
series=7.3
pkg=linux-source-$series
d=$top/build/ksource
tarball=$d/root/usr/src/$pkg.tar.xz
die() { echo "ksource: $*" >&2; exit 1; }
# shellcheck source=lib/apt.sh
. "$top/harness/lib/apt.sh"
suite=$DEBIAN_KERNEL_SUITE

if [ -f "$tarball" ] && [ -f "$d/version" ]; then
	echo "$tarball"; exit 0
fi
mkdir -p "$d/dl"
apt_private "$d" deb "$suite" || die "cannot read the archive's $suite"
opts=("${APT_OPTS[@]}")
ver=$(apt-cache "${opts[@]}" policy "$pkg" | awk '/Candidate:/ {print $2}')
[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "$pkg is not in $suite"
(cd "$d/dl" && rm -f ./*.deb && apt-get "${opts[@]}" -qq download "$pkg" >&2) || die "apt-get download $pkg failed"
rm -rf "$d/root"
dpkg -x "$d/dl/${pkg}_"*.deb "$d/root"
[ -f "$tarball" ] || die "$pkg $ver has no $pkg.tar.xz"
echo "$pkg $ver ($suite)" > "$d/version"
rm -f "$d/dl/"*.deb
echo "ksource: $pkg $ver from $suite" >&2
echo "$tarball"
