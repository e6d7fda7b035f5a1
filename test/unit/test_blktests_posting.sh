#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_blktests_posting.sh (make lint): the blktests posting
# (blktests/posting.sh check) regenerated from blktests/: it applies with
# git am to its recorded blktests base, its files equal blktests/'s, the
# commands of blktests' make check pass on it (BLKTESTS_FULL_CHECK=1: the
# whole make check, minutes), the letter keeps its limits (120 lines, 80
# columns, no placeholder, base-commit).  Needs a blktests repository with
# the base (BLKTESTS_REPO=, BLKTESTS=, or build/blktests.git from an
# earlier run): without one it says why and, the table test passed, exits
# 4, a skip (make lint expects it where no BLKTESTS_REPO is given: CI has
# no network).  A pass is remembered for the same inputs in build/lint-cache.
# Then the table tool, blktests/table.py, on the recorded results of
# test_data/blktests: the table and the comparison's verdicts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rc=0 skipped=""

# --- the posting ---------------------------------------------------------------------
key=$( { cat "$top/blktests/posting.sh" "$top/patches/postings/blktests.commits" \
	"$top/patches/postings/blktests.in"
	(cd "$top/blktests" && find common tests -type f | sort && find common tests -type f | sort | xargs cat)
	grep -h '^Subject:' "$top"/patches/[0-9]*.patch; } | sha256sum | cut -c1-24)
stamp=$top/build/lint-cache/blktests-posting-$key${BLKTESTS_FULL_CHECK:+-full}.ok
if [ -f "$stamp" ]; then
	echo "blktests posting: passed before with the same inputs ($(cat "$stamp"))"
else
	out=$("$top/blktests/posting.sh" check 2>&1)
	st=$?
	echo "$out"
	case $st in
	0) mkdir -p "$(dirname "$stamp")" && date -u +%FT%TZ > "$stamp" ;;
	4) echo "blktests posting: skipped (no blktests repository, see above)"; skipped=1 ;;
	*) rc=1 ;;
	esac
fi

# --- the table and the comparison ---------------------------------------------------
data=$here/test_data/blktests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in vanilla patched patched-warn; do
	mkdir -p "$tmp/$r" && cp -r "$data/$r"/. "$tmp/$r/"
	python3 "$top/blktests/table.py" table "$tmp/$r" > /dev/null || { echo "FAIL: table.py table $r"; rc=1; }
done
# Each row as it must be: status, reason, kernel log count.
expect_row() { # RUN TEST DEVICE STATUS REASON KMSG
	local got
	got=$(awk -F'\t' -v t="$2" -v d="$3" '$1 == t && $2 == d { print $3 "|" $4 "|" $6 }' "$tmp/$1/table.tsv")
	[ "$got" = "$4|$5|$6" ] || { echo "FAIL: $1 $2 $3: '$got', expected '$4|$5|$6'"; rc=1; }
}
expect_row vanilla block/016 - passed - 0
expect_row vanilla scsi/013 - "not run" "kernel has no SCSI host numa_node attribute (/sys/class/scsi_host/hostN/numa_node)" -
expect_row vanilla block/043 ahci "not run" "kernel option BLK_DEV_INTEGRITY has not been enabled" -
expect_row patched scsi/013 - passed - 0
expect_row patched block/029 - failed "output: Configuring null_blk failed" 0
expect_row patched block/042 megaraid_sas failed "no result" 2
expect_row patched '(shutdown)' - failed "no power-off marker in console.log: the guest did not reach its shutdown" -
expect_row patched-warn block/016 - passed - 1
compare() { # WANT-STATUS VANILLA PATCHED
	python3 "$top/blktests/table.py" compare "$tmp/$2" "$tmp/$3" > "$tmp/cmp" 2>&1
	local st=$?
	[ "$st" = "$1" ] || { echo "FAIL: compare $2 $3: exit $st, expected $1"; sed 's/^/  /' "$tmp/cmp"; rc=1; }
}
compare 0 vanilla vanilla
compare 1 vanilla patched		# adds failures, a dead guest
compare 1 vanilla patched-warn		# a kernel warning in a passed test
grep -q 'block/016 -.*REGRESSION: adds kernel log lines' "$tmp/cmp" ||
	{ echo "FAIL: the warning in block/016 is not named"; cat "$tmp/cmp"; rc=1; }
[ "$rc" = 0 ] && echo "blktests table and comparison: ok"
[ "$rc" = 0 ] && [ -n "$skipped" ] && exit 4
exit $rc
