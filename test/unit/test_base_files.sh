#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_base_files.sh (make lint): patches/base.txt, whose verdicts the
# cover letters count for their base, names exactly the files that
# patches/series' patches change (their "diff --git" lines), no more and
# no fewer; then a list with one file dropped must fail the comparison.
# Exit 1 on any failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
grep -vE '^[[:space:]]*(#|$)' "$top/patches/series" | sed "s|^|$top/patches/|" |
	xargs sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort -u > "$tmp/patched"
sed -n 's/^\(upstream\|not-found\|new\) *\([^ ]*\)$/\2/p' "$top/patches/base.txt" | sort > "$tmp/base"
[ -s "$tmp/patched" ] || { echo "FAIL: no file changed by patches/series' patches"; exit 1; }
# compare BASE-LIST: 0 when it names the patched files exactly.
compare() { diff "$1" "$tmp/patched" > "$tmp/diff"; }
if ! compare "$tmp/base"; then
	echo "FAIL: patches/base.txt and the files the patches change differ (< only in base.txt, > only in the patches):"
	sed 's/^/  /' "$tmp/diff"
	bad=1
fi
sed 1d "$tmp/base" > "$tmp/short"
compare "$tmp/short" && { echo "FAIL: a base list missing $(head -n 1 "$tmp/base") passes"; bad=1; }
[ "$bad" = 0 ] && echo "test_base_files: patches/base.txt names the $(wc -l < "$tmp/patched") files the patches change: passed"
exit "$bad"
