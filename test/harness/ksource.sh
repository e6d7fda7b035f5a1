#!/bin/bash
# ksource.sh: fetch Debian's linux-source-$KSERIES (default 7.3) into
# build/ksource/ without installing anything into the system, and print the
# path of its tarball.  The package lives in a suite the host's apt sources
# may not list (trixie-backports for 7.3 on bookworm): a private sources
# list under build/ points apt at that suite, with the archive URI taken
# from the host's own apt sources (no host is named here).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
series=${KSERIES:-7.3}
suite=${KSUITE:-trixie-backports}
pkg=linux-source-$series
d=$top/build/ksource
tarball=$d/root/usr/src/$pkg.tar.xz
die() { echo "ksource: $*" >&2; exit 1; }

if [ -f "$tarball" ] && [ -f "$d/version" ]; then
	echo "$tarball"; exit 0
fi
uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' \
	/etc/apt/sources.list 2>/dev/null || true)
[ -n "$uri" ] || die "no archive URI in the system's apt sources"
mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/dl"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" > "$d/sources.list"
opts=(-o "Dir::Etc::SourceList=$d/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache" -o APT::Sandbox::User=root)
apt-get "${opts[@]}" -qq update >&2 || die "apt-get update of $suite failed"
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
