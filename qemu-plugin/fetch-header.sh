#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-header.sh [OUTDIR]: fetch the QEMU plugin API header (qemu-plugin.h)
# of exactly the installed QEMU from Debian's `qemu` source package.
#
# Nothing is vendored into the repository: the header lands in
# OUTDIR/include/qemu-plugin.h (default build/qemu-plugin/include/).
# The source package comes through apt with a private configuration under
# OUTDIR/apt/ (harness/lib/apt.sh): the system's own sources, their suites,
# components and keyrings, as deb-src; the system's apt lists and caches
# are left alone.  Needs network access to the archive, not root (the
# private lists and cache are the caller's; tried as nobody); dpkg-dev for
# dpkg-source (only if a Debian patch touches the header).
# Why not a package: Debian ships qemu-plugin.h in no binary package (its
# d/not-installed lists it since 1:7.0+dfsg-2), so the source package is
# the only copy of exactly this QEMU's header; and no upstream file is
# copied into this repository.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build/qemu-plugin}
die() { echo "fetch-header: $*" >&2; exit 1; }

hdr=$out/include/qemu-plugin.h
# The installed QEMU's source version (binNMU suffix +bN dropped by ${source:Version}).
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed"
[ -n "$ver" ] || die "cannot read the source version of qemu-system-x86"
if [ -f "$hdr" ] && [ "$(cat "$out/include/VERSION" 2>/dev/null)" = "$ver" ]; then
	echo "fetch-header: $hdr is of qemu $ver already"
	exit 0
fi

apt=$out/apt
rm -rf "$apt" "$out/src"
mkdir -p "$out/src" "$out/include"
# shellcheck source=../harness/lib/apt.sh
. "$top/harness/lib/apt.sh"
echo "fetch-header: apt-get update (private lists in $apt)"
apt_private "$apt" deb-src system || die "cannot read the system's deb-src"
aptopts=("${APT_OPTS[@]}")
echo "fetch-header: apt-get source --download-only qemu=$ver"
(cd "$out/src" && apt-get "${aptopts[@]}" -qq source --download-only "qemu=$ver")

dsc=$(ls "$out/src"/qemu_*.dsc)
orig=$(ls "$out/src"/qemu_*.orig.tar.*)
deb=$(ls "$out/src"/qemu_*.debian.tar.* 2>/dev/null || true)
# Does a Debian patch touch the header?  Then extract the patched tree the
# Debian way; otherwise the orig tarball's copy is the packaged one.
patched=""
if [ -n "$deb" ] && tar -xOf "$deb" --wildcards 'debian/patches/*' 2>/dev/null |
	grep -qE '^\+\+\+ [^ ]*include/qemu/qemu-plugin\.h'; then
	patched=1
fi
if [ -n "$patched" ]; then
	echo "fetch-header: a Debian patch touches qemu-plugin.h: dpkg-source -x"
	(cd "$out/src" && dpkg-source --no-check -x "$dsc" tree >/dev/null)
	cp "$out/src/tree/include/qemu/qemu-plugin.h" "$hdr"
	rm -rf "$out/src/tree"
else
	tar -xOf "$orig" --wildcards '*/include/qemu/qemu-plugin.h' > "$hdr"
fi
[ -s "$hdr" ] || die "no include/qemu/qemu-plugin.h in $orig"
echo "$ver" > "$out/include/VERSION"
api=$(sed -n 's/^#define QEMU_PLUGIN_VERSION \([0-9]*\).*/\1/p' "$hdr")
echo "fetch-header: $hdr (qemu $ver, QEMU_PLUGIN_VERSION $api${patched:+, Debian-patched})"
# The sources are no longer needed (tens of MB).
rm -rf "$out/src" "$apt/cache"
