#!/bin/bash
# fetch-header.sh [OUTDIR]: fetch the QEMU plugin API header (qemu-plugin.h)
# of exactly the installed QEMU from Debian's `qemu` source package.
#
# Nothing is vendored into the repository: the header lands in
# OUTDIR/include/qemu-plugin.h (default build/qemu-plugin/include/).
# The source package comes through apt with a private configuration under
# OUTDIR/apt/: the system's deb822 sources (/etc/apt/sources.list.d/*.sources,
# their URIs, suites, components and keyrings, read at run time) are copied
# with "Types: deb" turned into "Types: deb-src"; the system's own apt lists
# and caches are left alone.  Needs root (apt-get update) and network access
# to the archive; dpkg-dev for dpkg-source (only if a Debian patch touches
# the header).
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
mkdir -p "$apt/sources.list.d" "$apt/lists/partial" "$apt/cache/archives/partial" "$out/src" "$out/include"
n=0
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	sed 's/^Types:.*/Types: deb-src/' "$f" > "$apt/sources.list.d/$(basename "$f")"
	n=$((n + 1))
done
# One-line format (/etc/apt/sources.list) as well, if the system uses it.
if [ -f /etc/apt/sources.list ]; then
	sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list > "$apt/sources.list"
	[ -s "$apt/sources.list" ] && n=$((n + 1))
fi
[ -f "$apt/sources.list" ] || : > "$apt/sources.list"
[ "$n" -gt 0 ] || die "no apt sources found under /etc/apt"

aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list"
	 -o "Dir::Etc::SourceParts=$apt/sources.list.d"
	 -o "Dir::State::Lists=$apt/lists"
	 -o "Dir::Cache=$apt/cache"
	 -o "Debug::NoLocking=1")
echo "fetch-header: apt-get update (private lists in $apt)"
apt-get "${aptopts[@]}" -qq update
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
