#!/bin/bash
# cover-letter.sh [OUT]: write the series' cover letter (default
# patches/0000-cover-letter.patch) from patches/cover-letter.in, filling
# every figure from the harness's latest output, never by hand:
#   @PLACEMENT_TABLE@  placement-summary.sh over build/runs/{vanilla,patched}-*
#   @ALLOC_CPUS@       build/runs/*-two-node/out/alloc-cpus.summary (case 12)
#   @METER@            build/compare/meter-summary.txt (make compare), else its
#                      meter.txt, else the smoke's
#   @FIO_TABLE@        build/compare/report.txt, else the smoke run's
#   @CHECK_SUMMARY@    build/check-summary.txt (written by check.sh)
#   @ROUTING@          scripts/get_maintainer.pl on each patch of patches/
#   @SHORTLOG@         git shortlog + diffstat of base..series
# A figure that has not been measured says so in the letter.  make export
# runs this; make lint-series checks that no placeholder is left.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$top/build/linux
out=${1:-$top/patches/0000-cover-letter.patch}
tmpl=$top/patches/cover-letter.in
runs=$top/build/runs
none() { echo "  (not measured yet: $1)"; }

placement() {
	local dirs=() d
	for d in "$runs"/vanilla-* "$runs"/patched-*; do
		[ -f "$d/out/placement.tsv" ] && dirs+=("$d")
	done
	[ ${#dirs[@]} -gt 0 ] || { none "run make check"; return; }
	"$top/test/harness/placement-summary.sh" "${dirs[@]}" |
		sed -n '/^placement by context/,/^placement by driver/p' | sed '$d'
}
alloc_cpus() {
	local f found=""
	for f in "$runs"/*-two-node/out/alloc-cpus.summary "$runs"/*-cpuless/out/alloc-cpus.summary; do
		[ -f "$f" ] || continue
		found=1
		echo "  ${f#"$runs"/}" | sed 's|/out/alloc-cpus.summary||'
		sed 's/^/    /' "$f"
	done
	[ -n "$found" ] || none "make check, topologies two-node and cpuless"
}
# first_of WHAT FILE..: the first existing FILE, indented, with its path.
first_of() {
	local what=$1 f
	shift
	for f in "$@"; do
		[ -f "$f" ] && { echo "  (${f#"$top"/})"; sed 's/^/  /' "$f"; return; }
	done
	none "$what"
}
# The IOPS table only: report.txt goes on with the meter tables (@METER@).
fio_table() {
	first_of "make compare" "$top/build/compare/report.txt" "$top/build/compare-smoke/report.txt" |
		sed '/^  Remote memory accesses per I\/O$/,$d'
}
meter() {
	first_of "make compare (its meter summary)" "$top/build/compare/meter-summary.txt" \
		"$top/build/compare/meter.txt" "$top/build/compare-smoke/meter-summary.txt" \
		"$top/build/compare-smoke/meter.txt"
}
check_summary() {
	if [ -f "$top/build/check-summary.txt" ]; then sed 's/^/  /' "$top/build/check-summary.txt"
	else none "run make check"; fi
}
routing() {
	local p gm=$tree/scripts/get_maintainer.pl
	while read -r p; do
		[ -n "$p" ] || continue
		echo "  $(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$top/patches/$p" | head -n 1)"
		if [ -x "$gm" ]; then
			(cd "$tree" && "$gm" --no-git --no-git-fallback --no-rolestats "$top/patches/$p" 2>/dev/null) |
				sed 's/^/      /' | head -n 12
		fi
	done < "$top/patches/series"
	cat <<'R'

  Plan: the blk-mq patch goes to linux-block on its own (it changes every
  single-queue blk-mq driver, not only SCSI).  The scsi: core, sd, sr,
  scsi_debug, transport and SCSI driver patches go through the SCSI tree
  (Martin K. Petersen), after scsi_host_alloc_node(); the libata patch
  needs Damien's and Niklas' ack to go with them (or waits a cycle); the
  block: gendisk patch can go through either tree.  The megaraid_sas
  high-IOPS affinity fix is posted separately to the megaraid maintainers
  with its Fixes: tag.
R
}
shortlog() {
	[ -d "$tree/.git" ] || return 0
	git -C "$tree" shortlog base..series | sed 's/^/  /'
	git -C "$tree" diff --stat=72 base series | sed 's/^/ /'
}

n=$(grep -cvE '^[[:space:]]*(#|$)' "$top/patches/series")
src="$(date -u -r "$runs" '+%Y-%m-%d %H:%M UTC' 2>/dev/null || echo 'no run yet'), $(cat "$top/build/kernels/patched/source" 2>/dev/null || echo 'kernel source unknown')"
fills=$(mktemp -d)
trap 'rm -rf "$fills"' EXIT
echo "$n" > "$fills/NPATCHES"
echo "$src" > "$fills/PLACEMENT_SOURCE"
placement > "$fills/PLACEMENT_TABLE"
alloc_cpus > "$fills/ALLOC_CPUS"
meter > "$fills/METER"
fio_table > "$fills/FIO_TABLE"
check_summary > "$fills/CHECK_SUMMARY"
routing > "$fills/ROUTING"
shortlog > "$fills/SHORTLOG"
python3 - "$tmpl" "$out" "$fills" <<'PY'
import os
import re
import sys
tmpl, out, fills = sys.argv[1:4]
t = open(tmpl).read()
for name in os.listdir(fills):
    t = t.replace('@%s@' % name, open(os.path.join(fills, name)).read().rstrip('\n'))
left = sorted(set(re.findall(r'@[A-Z_]+@', t)))
if left:
    sys.exit('cover-letter: unfilled placeholders: ' + ' '.join(left))
hdr = ('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
       'From: SCSI NUMA project <scsi-numa@localhost>\n')
open(out, 'w').write(hdr + t)
PY
echo "cover-letter: ${out#"$top"/}"
