#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_kmsg.sh (make lint): the kernel-log judge of kmsg.sh can fail.  Every
# line of test_data/kmsg/bad-lines.txt, put alone into an otherwise clean
# log, must make kmsg_judge exit 1 and quote that line; the clean log must
# pass; a non-empty kmemleak report must fail and an empty one pass; the
# list must not be empty, and every pattern of KMSG_BAD must have a line.
# Exit 1 with the lines that got through.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/kmsg.sh
. "$here/../../lib/kmsg.sh"
data=$here/test_data/kmsg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0

if ! out=$(kmsg_judge "$data/clean.txt"); then
	echo "FAIL: the clean log was judged bad:"; echo "$out"; bad=$((bad + 1))
fi
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	n=$((n + 1))
	{ head -n 3 "$data/clean.txt"; echo "[    3.000000] $line"; tail -n 3 "$data/clean.txt"; } > "$tmp/log"
	if out=$(kmsg_judge "$tmp/log"); then
		echo "FAIL: passed a log holding: $line"; bad=$((bad + 1))
	elif ! grep -qF -- "$line" <<< "$out"; then
		echo "FAIL: failed but did not quote: $line"; bad=$((bad + 1))
	fi
done < "$data/bad-lines.txt"

: > "$tmp/leaks"
kmsg_judge "$data/clean.txt" "$tmp/leaks" > /dev/null ||
	{ echo "FAIL: an empty kmemleak report was judged bad"; bad=$((bad + 1)); }
printf 'unreferenced object 0xffff888004b2e000 (size 64):\n  comm "insmod", pid 77, jiffies 4294893133\n' > "$tmp/leaks"
kmsg_judge "$data/clean.txt" "$tmp/leaks" > /dev/null &&
	{ echo "FAIL: a kmemleak report was judged clean"; bad=$((bad + 1)); }
# An empty or unread list would pass everything above: no bad line tried.
[ "$n" -gt 0 ] || { echo "FAIL: no bad lines read from $data/bad-lines.txt"; bad=$((bad + 1)); }
# Every pattern the judge claims has a line of the list that it catches.
IFS='|' read -ra pats <<< "$KMSG_BAD"
for p in "${pats[@]}"; do
	grep -qE -- "$p" "$data/bad-lines.txt" ||
		{ echo "FAIL: no line of bad-lines.txt for the pattern '$p'"; bad=$((bad + 1)); }
done

echo "test_kmsg: $n bad lines, ${#pats[@]} patterns, the clean log, 2 kmemleak reports: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
