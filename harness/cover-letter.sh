#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cover-letter.sh [OUT]: write the series' cover letter (default
# build/cover-letter/0000-cover-letter.patch) and beside it evidence.txt
# (the full tables the letter only summarises) and inputs.tsv (which input
# came from which run), from patches/cover-letter.in, every figure read
# from the data the harness wrote, never by hand and never from its text
# output.  Only make export (export.sh) copies the letter and evidence.txt
# into patches/.  The letter stays short (at most 120 lines of at most 80
# columns: test_cover_letter.sh); the tables live in evidence.txt.
# cover-letter.sh --inputs: print the inputs and their runs; exit 1 when
# the letter would be refused.
# Template lines starting with "## " are comments, dropped.
# cover-letter.sh --body TEMPLATE FILLS: print TEMPLATE filled the same way,
# without the mail header; a file FILLS/NAME replaces @NAME@ (postings.sh
# gives each posting its own @NPATCHES@, @DEPENDS@, @SHORTLOG@ this way).
#   @NPATCHES@         the SCSI posting's patch count (postings.sh groups),
#                      else patches/series' count
#   @BASE@             the base: build/check-upstream/result (make
#                      check-upstream) when it is for this series, else the
#                      counts of patches/base.txt's verdicts
#   @POSTINGS@         postings.sh plan: the postings, routing, dependencies
#   @PLACEMENT_SOURCE@ the make check run (its date, run id) and kernel
#                      source: build/check/summary.tsv (check.sh)
#   @PLACEMENT_SUMMARY@ per kernel: objects on the host's node over every
#                      run of that check (build/runs/RUN/out/placement.tsv)
#   @CHECK_TOTAL@      summary.tsv's total and the meter's known-answer test
#   @METER_SUMMARY@    build/compare/report.json (make compare): per
#                      target, the patched/vanilla ratio of the remote
#                      accesses and misses per I/O summed over the CPU nodes
#   @FIO_SUMMARY@      the same JSON: report.py --part iops's verdict line
#   @EVIDENCE@         the name of the evidence file (patches/evidence.txt)
#   @HARNESS@          "the harness at HARNESS_URL" (its public URL), else
#                      "the harness repository": here only, for the
#                      tracked letter and every posting (postings.sh)
#   @SHORTLOG@         git shortlog of the SCSI posting's commits
# evidence.txt: the placement table (placement-summary.sh --context),
# allocating CPUs (out/alloc-cpus.summary, case 12, two-node and cpuless
# runs), report.py --part meter and --part iops, summary.tsv's counts per
# run, scripts/get_maintainer.pl per patch and the diffstat.
# Runs: check.sh and compare.sh record a run id (run-id.sh: date-commit)
# in summary.tsv, build/runs/RUN/run-id and report.json, and the series
# they measured in summary.tsv and compare/series-commit.  Refused (exit 1,
# nothing written) when a placement or allocation input is not from the
# make check run of summary.tsv, report.json has no run id, or the figures
# are of another series than build/linux's patched (see "The series").  The
# compare figures may be from another run: the letter names it and its
# date.  build/compare-smoke (make compare-smoke) is used only with
# COVER_COMPARE=smoke (make export COVER_COMPARE=smoke), and then the letter says so.
# Refused too: a report.json with an IOPS row not met (report.py
# --verdict), unless COVER_ALLOW_NOT_MET=1; the letter counts the rows met.  A missing
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
# rel PATH: PATH as the letter and messages name it: under the build
# directory (build/, or COVER_BUILD's) as build/..., so that a letter
# regenerated from copied inputs (lint-series' letter step) says the same.
rel() { case $1 in "$build"/*) echo "build/${1#"$build"/}" ;; *) echo "${1#"$top"/}" ;; esac; }
# relv VAR PATH: rel's name in VAR, without the subshell of $(rel ..):
# the letter's test runs this script dozens of times in make lint.
relv() { case $2 in "$build"/*) printf -v "$1" '%s' "build/${2#"$build"/}" ;; *) printf -v "$1" '%s' "${2#"$top"/}" ;; esac; }
# whenv VAR ID: the date of a run id, "YYYY-MM-DD HH:MM UTC", in VAR.
whenv() { local d=${2%%Z-*}; printf -v "$1" '%s' "${d:0:10} ${d:11:5} UTC"; }
missing=()

# --- the inputs and their runs ----------------------------------------------
# From make check's summary: its run id, kernel source, series, and the
# runs it ran (NAME in check_names, TOPOLOGY in check_topos).
check_id="" check_src="" check_series="" check_names=() check_topos=() ckfail=""
inputs=()	# "INPUT<TAB>RUN ID<TAB>FILE"
if [ -f "$summary" ]; then
	while IFS=$'\t' read -r k a b c _; do
		case $k in
		run_id) check_id=$a ;;
		kernel_source) check_src=$a ;;
		series) check_series="$a $b" ;;
		run) check_names+=("$a") check_topos+=("$c") ;;
		esac
	done < "$summary"
	relv r "$summary"
	inputs+=("check summary	${check_id:-none}	$r")
	[ -n "$check_id" ] || ckfail="$r has no run_id"
else
	missing+=("make check's data: $(rel "$summary") (run make check)")
fi
whenv check_when "$check_id"
for name in "${check_names[@]}"; do
	for f in placement.tsv alloc-cpus.summary; do
		[ -f "$runs/$name/out/$f" ] || continue
		id=none
		if [ -f "$runs/$name/run-id" ]; then
			id=""; IFS= read -r -d '' id < "$runs/$name/run-id" || :
			while [[ $id == *$'\n' ]]; do id=${id%$'\n'}; done
		fi
		relv r "$runs/$name/out/$f"
		inputs+=("$f	$id	$r")
		if [ "$id" = none ]; then
			ckfail+="${ckfail:+; }$r is from run none: no $(rel "$runs/$name")/run-id (the run directory was rewritten after make check, by make vm?)"
		elif [ "$id" != "$check_id" ]; then
			ckfail+="${ckfail:+; }$r is from run $id, not from the check's $check_id"
		fi
	done
done
# The comparison: make compare's, or make check's smoke run if asked for.
cmp=$build/compare cmp_what="make compare"
case ${COVER_COMPARE:-} in
"") ;;
smoke) cmp=$build/compare-smoke cmp_what="make compare-smoke, not make compare" ;;
*) echo "cover-letter: COVER_COMPARE='$COVER_COMPARE': empty (build/compare) or smoke" >&2; exit 2 ;;
esac
cmp_id="" cmp_when="" cmpfail=""
# What the letter reads of report.json, read once (report.py --letter).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
parts=$work/report
if [ -f "$cmp/report.json" ]; then
	if python3 "$top/fio-jobs/report.py" --from-json "$cmp/report.json" --letter "$parts" 2> "$work/err"; then
		read -r cmp_id < "$parts/run_id"
		whenv cmp_when "$cmp_id"
		[ -n "$cmp_id" ] || cmpfail="$(rel "$cmp/report.json") has no run_id (written \
before run ids): rerun make compare, or give it one: fio-jobs/report.py --run-id ID --json ..."
		# A letter does not call a row not met "no regression" unless asked.
		read -r verdict < "$parts/verdict"
		read -r vrc < "$parts/verdict.rc"
		[ "$vrc" != 3 ] || [ "${COVER_ALLOW_NOT_MET:-}" = 1 ] ||
			cmpfail+="${cmpfail:+; }$(rel "$cmp/report.json"): $verdict (make export COVER_ALLOW_NOT_MET=1 writes the letter anyway)"
	else
		cmpfail="$(rel "$cmp/report.json") is not JSON: $(tail -n 1 "$work/err")"
	fi
	relv r "$cmp/report.json"
	inputs+=("compare	${cmp_id:-none}	$r")
else
	m="$cmp_what's data: $(rel "$cmp/report.json") (run make compare)"
	[ -n "${COVER_COMPARE:-}" ] || [ ! -f "$build/compare-smoke/report.json" ] ||
		m+="; $(rel "$build/compare-smoke/report.json") is a smoke run, used only with COVER_COMPARE=smoke"
	missing+=("$m")
fi
# The series: the letter is for the series export.sh exports, vanilla..patched
# of build/linux; check.sh (summary.tsv "series") and compare.sh
# (series-commit beside report.json) record the patched kernel's commit and
# tree they measured (harness/lib/series.sh).  Figures of another series are refused;
# another commit with the same tree (messages reworded) is the same code.
# Without build/linux (the tests' recorded inputs) nothing can be compared:
# said, not refused.
# Patches added since the figures were measured: patches/series-since
# (COVER_SINCE: another file), one line each, "SUBJECT<TAB>WHY the figures
# stand".  Figures of a tree are accepted for the series when that tree is
# patched's with exactly these commits reverted (git apply -R, in a
# temporary index), and the letter then names the patches and why.
since=${COVER_SINCE:-$top/patches/series-since}
since_tree="" since_note="" since_err=""
now=$(git -C "$tree" rev-parse -q --verify 'patched^{commit}' 2>/dev/null || true)
now_tree=$(git -C "$tree" rev-parse -q --verify 'patched^{tree}' 2>/dev/null || true)
if [ -n "$now" ] && [ -s "$since" ]; then
	sidx=$(mktemp)
	rm -f "$sidx"
	since_tree=$(
		export GIT_INDEX_FILE=$sidx
		git -C "$tree" read-tree "$now_tree" || exit 1
		tac "$since" | while IFS=$'\t' read -r subj why; do
			[ -n "$subj" ] || continue
			c=$(git -C "$tree" log --format='%H%x09%s' vanilla..patched |
				awk -F'\t' -v s="$subj" '$2 == s { print $1 }')
			[ "$(echo "$c" | grep -c .)" = 1 ] || { echo "no one commit '$subj' in vanilla..patched" >&2; exit 1; }
			git -C "$tree" diff "$c^" "$c" | git -C "$tree" apply --cached -R ||
				{ echo "'$subj' does not revert from patched" >&2; exit 1; }
		done || exit 1
		git -C "$tree" write-tree
	) 2> "$sidx.err" || { since_err=$(tr '\n' ' ' < "$sidx.err"); since_tree=""; }
	rm -f "$sidx" "$sidx.err"
	nsince=$(grep -c . "$since")
	since_note="measured without the $( [ "$nsince" = 1 ] && echo "patch" || echo "$nsince patches") added since:"
	while IFS=$'\t' read -r subj why; do
		[ -n "$subj" ] && since_note+=" \"$subj\" ($why);"
	done < "$since"
	since_note=${since_note%;}.
fi
serfail="" since_used=""
# series_check WHAT "COMMIT [TREE]" HOW-TO-REDO RUN: since_used names
# the RUNs whose figures are of the series without series-since's patches.
series_check() {
	local c t
	read -r c t <<< "$2"
	if [ -z "$c" ] || [ "$c" = unknown ]; then
		serfail+="${serfail:+; }$1 names no series measured: $3"
	elif [ "$c" != "$now" ] && { [ -z "$t" ] || [ "$t" != "$now_tree" ]; }; then
		if [ -n "$t" ] && [ -n "$since_tree" ] && [ "$t" = "$since_tree" ]; then
			since_used+="${since_used:+ and }$4"
			return
		fi
		serfail+="${serfail:+; }$1 measured series ${c:0:12}, not the patched ${now:0:12} of $(rel "$tree")"
		[ -z "$since_err" ] || serfail+=" ($(rel "$since"): $since_err)"
		[ -z "$since_tree" ] || serfail+=" (nor patched without the patches of $(rel "$since"))"
		serfail+=": $3"
	fi
}
if [ -z "$now" ]; then
	missing+=("the series of $(rel "$tree") (no branch patched there): which series the figures measured is not checked")
else
	[ ! -f "$summary" ] || series_check "$(rel "$summary")" \
		"$check_series" "rerun make check" "make check"
	[ ! -f "$cmp/report.json" ] || series_check "$(rel "$cmp/series-commit")" \
		"$(cat "$cmp/series-commit" 2>/dev/null)" "rerun $cmp_what" "${cmp_what%%,*}"
fi

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

# --- the fills: cover-letter-fills.sh ------------------------------------------
# shellcheck source=cover-letter-fills.sh
. "$top/harness/cover-letter-fills.sh"

n=$(grep -cvE '^[[:space:]]*(#|$)' "$top/patches/series")
fills=$work/fills
mkdir "$fills"
[ -n "$body" ] || mkdir -p "$(dirname "$out")"
# The template without its "## " comment lines.
text=""
while IFS= read -r l; do [[ $l == "## "* ]] || text+=$l$'\n'; done < "$tmpl"
[[ -z $l || $l == "## "* ]] || text+=$l	# a last line without its newline
# Only what the template asks for and the caller does not give.
need() { [[ $text == *"@$1@"* ]] && { [ -z "$extra" ] || [ ! -f "$extra/$1" ]; }; }
fill() { if need "$1"; then "$2" > "$fills/$1"; fi; }
fill NPATCHES npatches
fill PLACEMENT_SOURCE placement_source
fill PLACEMENT_SUMMARY placement_summary
fill CHECK_TOTAL check_total
fill METER_SUMMARY meter_summary
fill FIO_SUMMARY fio_summary
fill EVIDENCE evidence
fill HARNESS harness_url
fill SHORTLOG shortlog
fill BASE base
fill POSTINGS postings
# A posting's own figures (postings.sh) replace the series' ones.
[ -z "$extra" ] || cp "$extra"/* "$fills/"
# Each @NAME@ replaced by its fill, trailing newlines dropped.
for f in "$fills"/*; do
	[ -e "$f" ] || continue
	IFS= read -r -d '' v < "$f" || :
	while [[ $v == *$'\n' ]]; do v=${v%$'\n'}; done
	text=${text//"@${f##*/}@"/"$v"}
done
left=() r=$text
while [[ $r =~ @[A-Z_]+@ ]]; do left+=("${BASH_REMATCH[0]}"); r=${r#*"${BASH_REMATCH[0]}"}; done
if [ ${#left[@]} -gt 0 ]; then
	echo "cover-letter: unfilled placeholders: $(printf '%s\n' "${left[@]}" | LC_ALL=C sort -u | paste -sd ' ')" >&2
	exit 1
fi
if [ -n "$body" ]; then
	printf '%s' "$text"
else
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nFrom: scsi_numa project <scsi_numa@localhost>\n%s' "$text" > "$out"
fi
[ -n "$body" ] || {
	printf '%s\n' "${inputs[@]}" > "$(dirname "$out")/inputs.tsv"
	evidence_file > "$(dirname "$out")/evidence.txt"
	echo "cover-letter: $(rel "$out") (its inputs: $(rel "$(dirname "$out")")/inputs.tsv)"
}
