#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cover-letter.sh [OUT]: write the series' cover letter (default
# build/cover-letter/0000-cover-letter.patch, beside it inputs.tsv: which
# input came from which run) from patches/cover-letter.in, every figure
# read from the data the harness wrote, never by hand and never from its
# text output.  Only make export (export.sh) copies it into patches/.
# cover-letter.sh --inputs: print the inputs and their runs; exit 1 when
# the letter would be refused.
# Template lines starting with "## " are comments, dropped.
# cover-letter.sh --body TEMPLATE FILLS: print TEMPLATE filled the same way,
# without the mail header; a file FILLS/NAME replaces @NAME@ (postings.sh
# gives each posting its own @NPATCHES@, @DEPENDS@, @SHORTLOG@ this way).
#   @BASE@             the base and whether the postings apply and build on
#                      it: build/check-upstream/result (make check-upstream)
#   @POSTINGS@         postings.sh plan: the postings, routing, dependencies
#   @PLACEMENT_SOURCE@ the make check run (its run id) and kernel source:
#                      build/check/summary.tsv (check.sh)
#   @PLACEMENT_TABLE@  placement-summary.sh --context over the runs that
#                      summary.tsv lists (build/runs/RUN/out/placement.tsv)
#   @ALLOC_CPUS@       out/alloc-cpus.summary (case 12) of its two-node and
#                      cpuless runs
#   @CHECK_SUMMARY@    summary.tsv's counts per run, the meter's
#                      known-answer test, the total
#   @FIO_TABLE@        build/compare/report.json (make compare): report.py
#                      --from-json --part iops
#   @METER@            the same JSON: report.py --from-json --part meter
#   @ROUTING@          scripts/get_maintainer.pl on each patch of patches/
#   @SHORTLOG@         git shortlog + diffstat of vanilla..patched
# Runs: check.sh and compare.sh record a run id (run-id.sh: date-commit)
# in summary.tsv, build/runs/RUN/run-id and report.json, and the series
# they measured in summary.tsv and compare/series-commit.  Refused (exit 1,
# nothing written) when a placement or allocation input is not from the
# make check run of summary.tsv, report.json has no run id, or the figures
# are of another series than build/linux's patched (see "The series").  The
# compare figures may be from another run: the letter names it and its
# date.  build/compare-smoke (make compare-smoke) is used only with
# COVER_COMPARE=smoke (make export COVER_COMPARE=smoke), and then the letter says so.  A missing
# input is named in the letter and on stderr.  COVER_BUILD=DIR reads
# DIR instead of build/ (the tests' recorded inputs).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${COVER_BUILD:-$top/build}
tree=$build/linux
tmpl=$top/patches/cover-letter.in
body="" extra="" mode=letter
case ${1:-} in
--body) mode=body body=1 tmpl=$2 extra=$3 out=/dev/stdout ;;
--inputs) mode=inputs ;;
*) out=${1:-$build/cover-letter/0000-cover-letter.patch} ;;
esac
runs=$build/runs
summary=$build/check/summary.tsv
rel() { echo "${1#"$top"/}"; }
missing=()
# none WHAT: what the letter says for a figure it cannot give (missing[]
# names the missing inputs on stderr).
none() { echo "  (not measured: $1)"; }

# --- the inputs and their runs ----------------------------------------------
check_id="" ckfail=""
inputs=()	# "INPUT<TAB>RUN ID<TAB>FILE"
if [ -f "$summary" ]; then
	check_id=$(awk -F'\t' '$1 == "run_id" { print $2 }' "$summary")
	inputs+=("check summary	${check_id:-none}	$(rel "$summary")")
	[ -n "$check_id" ] || ckfail="$(rel "$summary") has no run_id"
else
	missing+=("make check's data: $(rel "$summary") (run make check)")
fi
# The runs that make check ran, from its summary: "NAME TOPOLOGY".
check_runs() { [ ! -f "$summary" ] || awk -F'\t' '$1 == "run" { print $2, $4 }' "$summary"; }
while read -r name topo; do
	[ -n "$name" ] || continue
	for f in placement.tsv alloc-cpus.summary; do
		[ -f "$runs/$name/out/$f" ] || continue
		id=$(cat "$runs/$name/run-id" 2>/dev/null || echo none)
		inputs+=("$f	$id	$(rel "$runs/$name/out/$f")")
		if [ "$id" = none ]; then
			ckfail+="${ckfail:+; }$(rel "$runs/$name/out/$f") is from run none: no $(rel "$runs/$name")/run-id (the run directory was rewritten after make check, by make vm?)"
		elif [ "$id" != "$check_id" ]; then
			ckfail+="${ckfail:+; }$(rel "$runs/$name/out/$f") is from run $id, not from the check's $check_id"
		fi
	done
done < <(check_runs)
# The comparison: make compare's, or make check's smoke run if asked for.
cmp=$build/compare cmp_what="make compare"
case ${COVER_COMPARE:-} in
"") ;;
smoke) cmp=$build/compare-smoke cmp_what="make compare-smoke, not make compare" ;;
*) echo "cover-letter: COVER_COMPARE='$COVER_COMPARE': empty (build/compare) or smoke" >&2; exit 2 ;;
esac
cmp_id="" cmpfail=""
if [ -f "$cmp/report.json" ]; then
	cmp_id=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("run_id") or "")' \
		"$cmp/report.json") || cmpfail="$(rel "$cmp/report.json") is not JSON"
	[ -n "$cmp_id" ] || [ -n "$cmpfail" ] || cmpfail="$(rel "$cmp/report.json") has no run_id (written \
before run ids): rerun make compare, or give it one: fio-jobs/report.py --run-id ID --json ..."
	inputs+=("compare	${cmp_id:-none}	$(rel "$cmp/report.json")")
else
	m="$cmp_what's data: $(rel "$cmp/report.json") (run make compare)"
	[ -n "${COVER_COMPARE:-}" ] || [ ! -f "$build/compare-smoke/report.json" ] ||
		m+="; $(rel "$build/compare-smoke/report.json") is a smoke run, used only with COVER_COMPARE=smoke"
	missing+=("$m")
fi
# The series: the letter is for the series export.sh exports, vanilla..patched
# of build/linux; check.sh (summary.tsv "series") and compare.sh
# (series-commit beside report.json) record the patched kernel's commit and
# tree they measured (lib/series.sh).  Figures of another series are refused;
# another commit with the same tree (messages reworded) is the same code.
# Without build/linux (the tests' recorded inputs) nothing can be compared:
# said, not refused.
now=$(git -C "$tree" rev-parse -q --verify 'patched^{commit}' 2>/dev/null || true)
now_tree=$(git -C "$tree" rev-parse -q --verify 'patched^{tree}' 2>/dev/null || true)
serfail=""
# series_check WHAT "COMMIT [TREE]" HOW-TO-REDO
series_check() {
	local c t
	read -r c t <<< "$2"
	if [ -z "$c" ] || [ "$c" = unknown ]; then
		serfail+="${serfail:+; }$1 names no series measured: $3"
	elif [ "$c" != "$now" ] && { [ -z "$t" ] || [ "$t" != "$now_tree" ]; }; then
		serfail+="${serfail:+; }$1 measured series ${c:0:12}, not the patched ${now:0:12} of $(rel "$tree"): $3"
	fi
}
if [ -z "$now" ]; then
	missing+=("the series of $(rel "$tree") (no branch patched there): which series the figures measured is not checked")
else
	[ ! -f "$summary" ] || series_check "$(rel "$summary")" \
		"$(awk -F'\t' '$1 == "series" { print $2, $3 }' "$summary")" "rerun make check"
	[ ! -f "$cmp/report.json" ] || series_check "$(rel "$cmp/series-commit")" \
		"$(cat "$cmp/series-commit" 2>/dev/null)" "rerun $cmp_what"
fi
# when ID: the date of a run id, "YYYY-MM-DD HH:MM UTC".
when() { local d=${1%%Z-*}; echo "${d:0:10} ${d:11:5} UTC"; }

refused=""
[ -z "$ckfail" ] || refused+="figures from different make check runs: $ckfail. "
[ -z "$cmpfail" ] || refused+="$cmpfail. "
[ -z "$serfail" ] || refused+="figures of another series than the one exported: $serfail. "
# The inputs: always, but for postings.sh (--body) only when refused.
[ "$mode" = body ] && [ -z "$refused" ] || {
	echo "cover-letter: inputs (input, run id, file):"
	for i in "${inputs[@]}"; do
		IFS=$'\t' read -r a b c <<< "$i"
		printf '  %-18s %-34s %s\n' "$a" "$b" "$c"
	done
	for m in "${missing[@]}"; do echo "cover-letter: missing input: $m"; done
} >&2
if [ -n "$refused" ]; then
	echo "cover-letter: refused: $refused" >&2
	exit 1
fi
[ "$mode" != inputs ] || exit 0

# --- the fills ------------------------------------------------------------------
placement_source() {
	if [ -n "$check_id" ]; then
		echo "$(when "$check_id") (run id $check_id), on"
		awk -F'\t' '$1 == "kernel_source" { print $2 }' "$summary"
	else echo "no make check data"; fi
}
placement() {
	local dirs=() name topo
	while read -r name topo; do
		[ -f "$runs/$name/out/placement.tsv" ] && dirs+=("$runs/$name")
	done < <(check_runs)
	[ ${#dirs[@]} -gt 0 ] || { none "no placement.tsv in the runs of make check"; return; }
	"$top/harness/placement-summary.sh" --context "${dirs[@]}"
}
alloc_cpus() {
	local name topo found=""
	while read -r name topo; do
		case $topo in two-node|cpuless) ;; *) continue ;; esac
		[ -f "$runs/$name/out/alloc-cpus.summary" ] || continue
		found=1
		echo "  $name"
		sed 's/^/    /' "$runs/$name/out/alloc-cpus.summary"
	done < <(check_runs)
	[ -n "$found" ] || none "make check, topologies two-node and cpuless (case 12)"
}
# compare_part iops|meter: the table from report.json, with its run.
compare_part() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	local t
	t=$(python3 "$top/fio-jobs/report.py" --from-json "$cmp/report.json" --part "$1")
	if [ -z "$t" ]; then none "$cmp_what of $(when "$cmp_id") (run $cmp_id) ran without the meter"; return; fi
	echo "  ($cmp_what of $(when "$cmp_id"), run id $cmp_id)"
	echo "$t" | sed 's/^/  /; s/ *$//'
}
fio_table() { compare_part iops; }
meter() { compare_part meter; }
check_summary() {
	[ -f "$summary" ] || { none "make check: $(rel "$summary")"; return; }
	awk -F'\t' -v id="$check_id" -v src="$(awk -F'\t' '$1 == "kernel_source" { print $2 }' "$summary")" '
		function counts(i) {	# the cases, then the checks of the runs themselves
			return sprintf("%d cases passed, %d failed, %d skipped, %d reported; %d run checks passed, %d failed",
				$i, $(i + 1), $(i + 2), $(i + 3), $(i + 4), $(i + 5)) }
		$1 == "run" { printf "  %-26s %s\n", $2, counts(7) }
		$1 == "kat" { kat = $2 }
		$1 == "total" { total = counts(2) }
		END { print "  meter known-answer test: " kat
		      print "  check: " total; print "  (run id " id ", " src ")" }' "$summary"
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
	echo "  Postings (harness/postings.sh; make export POSTER=... writes them):"
	postings
}
postings() {
	if [ "$build" != "$top/build" ] || [ ! -d "$tree/.git" ]; then none "no kernel tree $(rel "$tree") (make tree)"
	else "$top/harness/postings.sh" plan 2>/dev/null || none "postings.sh plan failed"; fi
}
# The base, from make check-upstream's last result, if it was for this series.
base() {
	local r=$build/check-upstream/result series kind
	series=$(git -C "$tree" rev-parse -q --verify patched 2>/dev/null || true)
	if [ ! -f "$r" ] || [ "$(sed -n 's/^series: //p' "$r")" != "$series" ]; then
		echo "[[POSTER: base not verified for this series: run make check-upstream (it needs"
		echo "Debian's linux_7.3.4.orig.tar.xz, or make check-upstream ORIG= upstream's linux-7.3.4.tar.xz)]]"
		return
	fi
	kind=$(sed -n 's/^base: \([a-z]*\) .*/\1/p' "$r")
	if [ "$kind" = debian ]; then
		echo "The base is Linux 7.3.4 as released, without Debian's patches:"
		echo "Debian's linux_7.3.4.orig.tar.xz, which is upstream's 7.3.4 less the"
		echo "files Debian's copyright file excludes (none in block/, drivers/scsi,"
		echo "drivers/ata, drivers/pci or include/).  Checked there on"
		echo "$(sed -n 's/^date: //p' "$r") (make check-upstream, \"$(sed -n 's/^make: //p' "$r")\"):"
	else
		echo "[[POSTER: checked on a tarball that is not Debian's orig tarball:"
		echo "$(sed -n 's/^base: //p' "$r")]]"
		echo "Checked there on $(sed -n 's/^date: //p' "$r") (make check-upstream):"
	fi
	sed -n 's/^posting \(.*\)/  - \1/p; s/^all: /  - all postings in order: /p' "$r" |
		sed 's/\(.\{72\}\) /\1\n      /'
	grep -q '^failures: 0$' "$r" || echo "[[POSTER: make check-upstream reported failures: build/check-upstream/result]]"
}
shortlog() {
	[ -d "$tree/.git" ] || return 0
	git -C "$tree" shortlog vanilla..patched | sed 's/^/  /'
	git -C "$tree" diff --stat=72 vanilla patched | sed 's/^/ /'
}

n=$(grep -cvE '^[[:space:]]*(#|$)' "$top/patches/series")
fills=$(mktemp -d)
trap 'rm -rf "$fills"' EXIT
[ -n "$body" ] || mkdir -p "$(dirname "$out")"
# Only what the template asks for and the caller does not give.
need() { awk -v p="@$1@" '!/^## / && index($0, p) { f = 1 } END { exit !f }' "$tmpl" && { [ -z "$extra" ] || [ ! -f "$extra/$1" ]; }; }
fill() { if need "$1"; then "$2" > "$fills/$1"; fi; }
npatches() { echo "$n"; }
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
# "## " lines are the template's comments.
t = ''.join(ln for ln in open(tmpl).read().splitlines(True) if not ln.startswith('## '))
for name in os.listdir(fills):
    t = t.replace('@%s@' % name, open(os.path.join(fills, name)).read().rstrip('\n'))
left = sorted(set(re.findall(r'@[A-Z_]+@', t)))
if left:
    sys.exit('cover-letter: unfilled placeholders: ' + ' '.join(left))
hdr = ('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
       'From: scsi_numa project <scsi_numa@localhost>\n')
if body:
    sys.stdout.write(t)
else:
    open(out, 'w').write(hdr + t)
PY
[ -n "$body" ] || {
	printf '%s\n' "${inputs[@]}" > "$(dirname "$out")/inputs.tsv"
	echo "cover-letter: $(rel "$out") (its inputs: $(rel "$(dirname "$out")")/inputs.tsv)"
}
