#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sparse.sh: build sparse for make lint-series into build/sparse/sparse.
# Bookworm's sparse (0.6.4) predates __typeof_unqual__, so Linux 7.3's
# scripts/checker-valid.sh rejects it and kbuild silently drops C=1.  The
# Debian source package of a newer sparse (sid) is
# fetched with apt through a private deb-src list under build/ (the archive
# URI is the one of the system's apt sources) and its "sparse" binary built
# with the system's gcc; nothing is installed.  Prints the binary's path.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
d=$top/build/sparse
suite=sid
if [ -x "$d/sparse" ] && [ -f "$d/version" ]; then echo "$d/sparse"; exit 0; fi
# shellcheck source=lib/apt.sh
. "$top/harness/lib/apt.sh"
rm -rf "$d"; mkdir -p "$d/src"
apt_private "$d/apt" deb-src "$suite" || exit 1
opts=("${APT_OPTS[@]}")
(cd "$d/src" && apt-get "${opts[@]}" -qq source --download-only sparse >&2)
dsc=$(ls "$d"/src/sparse_*.dsc | head -n 1)
# apt checked the files against the signed Sources index.
(cd "$d/src" && dpkg-source --no-check -x "$dsc" tree >/dev/null)
make -s -C "$d/src/tree" -j"$(nproc)" CC=gcc sparse >&2
cp "$d/src/tree/sparse" "$d/sparse"
basename "$dsc" .dsc > "$d/version"
rm -rf "$d/src" "$d/apt"
echo "$d/sparse"
