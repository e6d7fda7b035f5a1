#!/bin/bash
# cover-letter.sh [OUT]: write the series' cover letter (default
# patches/0000-cover-letter.patch) from patches/cover-letter.in, filling
# every figure from the harness's latest output, never by hand.
# cover-letter.sh --body TEMPLATE FILLS: print TEMPLATE filled the same way,
# without the mail header; a file FILLS/NAME replaces @NAME@ (postings.sh
# gives each posting its own @NPATCHES@, @DEPENDS@, @SHORTLOG@ this way).
#   @BASE@             the base and whether the postings apply and build on
#                      it: build/check-base/result (make check-base)
#   @POSTINGS@         postings.sh plan: the postings, routing, dependencies
#   @PLACEMENT_TABLE@  placement-summary.sh over build/runs/{vanilla,patched}-*
#   @ALLOC_CPUS@       build/runs/*-two-node/out/alloc-cpus.summary (case 12)
#   @METER@            build/compare/meter-summary.txt (make compare), else its
#                      meter.txt, else the smoke's
#   @FIO_TABLE@        build/compare/report.txt, else the smoke run's
#   @CHECK_SUMMARY@    build/check-summary.txt (written by check.sh)
#   @ROUTING@          scripts/get_maintainer.pl on each patch of patches/
#   @SHORTLOG@         git shortlog + diffstat of base..series
# A figure that has not been measured says so in the letter.  make export
# runs this, and fails on any @NAME@ left unfilled ([[LEAD: ...]] marks
# what only the lead can write; postings.sh lists where they are left).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$top/build/linux
tmpl=$top/patches/cover-letter.in
body="" extra=""
if [ "${1:-}" = --body ]; then
	body=1 tmpl=$2 extra=$3
	out=/dev/stdout
else
	out=${1:-$top/patches/0000-cover-letter.patch}
fi
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
	echo
	echo "  Postings (test/harness/postings.sh; make export POSTER=... writes them):"
	postings
}
postings() {
	"$top/test/harness/postings.sh" plan 2>/dev/null || none "postings.sh plan failed"
}
# The base, from make check-base's last result, if it was for this series.
base() {
	local r=$top/build/check-base/result series kind
	series=$(git -C "$tree" rev-parse -q --verify series 2>/dev/null || true)
	if [ ! -f "$r" ] || [ "$(sed -n 's/^series: //p' "$r")" != "$series" ]; then
		echo "[[LEAD: base not verified for this series: run make check-base (it needs"
		echo "Debian's linux_7.3.4.orig.tar.xz, or KORIG_TARBALL= upstream's linux-7.3.4.tar.xz)]]"
		return
	fi
	kind=$(sed -n 's/^base: \([a-z]*\) .*/\1/p' "$r")
	if [ "$kind" = debian ]; then
		echo "The base is Linux 7.3.4 as released, without Debian's patches:"
		echo "Debian's linux_7.3.4.orig.tar.xz, which is upstream's 7.3.4 less the"
		echo "files Debian's copyright file excludes (none in block/, drivers/scsi,"
		echo "drivers/ata, drivers/pci or include/).  Checked there on"
		echo "$(sed -n 's/^date: //p' "$r") (make check-base, \"$(sed -n 's/^make: //p' "$r")\"):"
	else
		echo "[[LEAD: checked on a tarball that is not Debian's orig tarball:"
		echo "$(sed -n 's/^base: //p' "$r")]]"
		echo "Checked there on $(sed -n 's/^date: //p' "$r") (make check-base):"
	fi
	sed -n 's/^posting \(.*\)/  - \1/p; s/^all: /  - all postings in order: /p' "$r" |
		sed 's/\(.\{72\}\) /\1\n      /'
	grep -q '^failures: 0$' "$r" || echo "[[LEAD: make check-base reported failures: build/check-base/result]]"
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
# Only what the template asks for and the caller does not give.
need() { grep -q "@$1@" "$tmpl" && { [ -z "$extra" ] || [ ! -f "$extra/$1" ]; }; }
fill() { if need "$1"; then "$2" > "$fills/$1"; fi; }
npatches() { echo "$n"; }
placement_source() { echo "$src"; }
fill NPATCHES npatches
fill PLACEMENT_SOURCE placement_source
fill PLACEMENT_TABLE placement
fill ALLOC_CPUS alloc_cpus
fill METER meter
fill FIO_TABLE fio_table
fill CHECK_SUMMARY check_summary
fill ROUTING routing
fill SHORTLOG shortlog
fill BASE base
fill POSTINGS postings
# A posting's own figures (postings.sh) replace the series' ones.
[ -z "$extra" ] || cp "$extra"/* "$fills/"
python3 - "$tmpl" "$out" "$fills" "$body" <<'PY'
import os
import re
import sys
tmpl, out, fills, body = sys.argv[1:5]
t = open(tmpl).read()
for name in os.listdir(fills):
    t = t.replace('@%s@' % name, open(os.path.join(fills, name)).read().rstrip('\n'))
left = sorted(set(re.findall(r'@[A-Z_]+@', t)))
if left:
    sys.exit('cover-letter: unfilled placeholders: ' + ' '.join(left))
hdr = ('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
       'From: SCSI NUMA project <scsi-numa@localhost>\n')
if body:
    sys.stdout.write(t)
else:
    open(out, 'w').write(hdr + t)
PY
[ -n "$body" ] || echo "cover-letter: ${out#"$top"/}"
