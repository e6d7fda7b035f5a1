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
rel() { echo "${1#"$top"/}"; }
missing=()
# none WHAT: what the letter says for a figure it cannot give (missing[]
# names the missing inputs on stderr).
none() { echo "(not measured: $1)" | fold -s -w 70 | sed 's/ *$//; s/^/  /; 2,$s/^/  /'; }

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
	# A letter does not call a row not met "no regression" unless asked.
	verdict=$(python3 "$top/fio-jobs/report.py" --verdict "$cmp/report.json" 2>/dev/null) ||
		{ [ $? != 3 ] || [ "${COVER_ALLOW_NOT_MET:-}" = 1 ] ||
			cmpfail+="${cmpfail:+; }$(rel "$cmp/report.json"): $verdict (make export COVER_ALLOW_NOT_MET=1 writes the letter anyway)"; }
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
kernel_source() { awk -F'\t' '$1 == "kernel_source" { print $2 }' "$summary"; }
# wrap: stdin folded for a mail (72 columns), each line indented by $1.
wrap() { fold -s -w $((72 - ${#1})) | sed "s/ *\$//; s/^/$1/"; }
placement_source() {
	if [ -n "$check_id" ]; then
		echo "From make check of $(when "$check_id"), run id $check_id, on $(kernel_source); objects on the host's node:" | wrap ""
	else none "make check: $(rel "$summary")"; fi
}
# The runs of make check that wrote a placement.tsv.
placement_dirs() {
	local name topo
	while read -r name topo; do
		[ -f "$runs/$name/out/placement.tsv" ] && echo "$runs/$name"
	done < <(check_runs)
}
placement_summary() {
	local dirs=()
	mapfile -t dirs < <(placement_dirs)
	[ ${#dirs[@]} -gt 0 ] || { none "no placement.tsv in the runs of make check"; return; }
	local d
	for d in "${dirs[@]}"; do awk -v r="${d##*/}" -F'\t' '{ print r "\t" $0 }' "$d/out/placement.tsv"; done |
		awk -F'\t' '{ k = $2; if (!(k in all)) order[++n] = k
			on[k] += $7; all[k] += $8; if (!((k, $1) in seen)) { seen[k, $1] = 1; runs[k]++ }
			if (!((k, $3, $4) in ctx)) { ctx[k, $3, $4] = 1; nctx[k]++ } }
			END { for (i = 1; i <= n; i++) { k = order[i]
				printf "  %-8s %d of %d objects (%.1f%%), %d run%s, %d context%s\n", k, on[k], all[k],
					all[k] ? 100 * on[k] / all[k] : 0, runs[k], runs[k] == 1 ? "" : "s",
					nctx[k], nctx[k] == 1 ? "" : "s" } }'
}
check_total() {
	[ -f "$summary" ] || { none "make check: $(rel "$summary")"; return; }
	awk -F'\t' '$1 == "kat" { kat = $2 }
		$1 == "total" { t = sprintf("%d cases passed, %d failed, %d skipped, %d reported; %d run checks passed, %d failed", $2, $3, $4, $5, $6, $7) }
		END { print "Checks: " t "; meter known-answer test: " kat "." }' "$summary" | wrap "  "
}
# compare_run: the comparison's run, for the letter.
compare_run() { echo "($cmp_what of $(when "$cmp_id"), run id $cmp_id)" | wrap "  "; }
# report_part iops|meter: report.py's table from report.json, made once
# (the letter uses the IOPS table twice); call it outside $(...) first,
# or the table is made in a subshell and not kept.
declare -A report_parts=()
report_part() {
	[ -n "${report_parts[$1]+set}" ] ||
		report_parts[$1]=$(python3 "$top/fio-jobs/report.py" --from-json "$cmp/report.json" --part "$1")
	printf '%s\n' "${report_parts[$1]}"
}
fio_summary() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	local t
	report_part iops > /dev/null
	t=$(report_part iops | grep -m 1 '^No regression')
	[ -n "$t" ] || { none "no verdict line in report.py's IOPS table"; return; }
	echo "$t" | wrap "  "
	compare_run
}
# meter_summary: per target, the patched/vanilla ratio of the kernel's
# remote accesses and misses per I/O and of those to the SCSI objects,
# summed over the CPU nodes (meter_metrics.split_sums, as report.py's
# split tables), with the 95% CI where there are repetitions.
meter_summary() {
	if [ ! -f "$cmp/report.json" ]; then none "$cmp_what: $(rel "$cmp/report.json")"; return; fi
	local t
	t=$(PYTHONPATH="$top/fio-jobs" python3 - "$cmp/report.json" <<'PY'
import json
import sys
from iops_table import rejudge
from meter_metrics import OBJ_SPLIT_COLS, SPLIT_COLS, split_sums
doc = json.load(open(sys.argv[1]))
rows, base = doc["rows"], doc["baseline"]
if not doc.get("have_meter", True):
    sys.exit(0)
rejudge(rows, base)
out = {}
# The accesses only, one line a target: the misses (an LLC model) and
# every spread are in evidence.txt's full tables.
for cols, what in ((SPLIT_COLS, "acc"), (OBJ_SPLIT_COLS, "SCSI obj acc")):
    _sums, ratios, spread = split_sums(rows, base, cols)
    for (g, label), r in ratios.items():
        cells = out.setdefault((g.name(), label), [])
        for k, w in ((cols[2], what),):
            if r[k] is None:
                continue
            ci = spread.get((g, label), {}).get(k, (None, None))[1]
            cells.append("%s x%.2f" % (w, r[k]) + (" [%.2f, %.2f]" % tuple(ci) if ci else ""))
for (name, label), cells in out.items():
    print("%s%s: %s" % (name, "" if label == "patched" else " (%s)" % label, "; ".join(cells)))
PY
) || { none "the meter's sums could not be read from $(rel "$cmp/report.json")"; return; }
	[ -n "$t" ] || { none "$cmp_what of $(when "$cmp_id") (run $cmp_id) ran without the meter"; return; }
	echo "$t" | while IFS= read -r l; do echo "$l" | wrap "  " | sed '2,$s/^/  /'; done
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
	report_part "$1" > /dev/null
	t=$(report_part "$1")
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
maintainers() {
	local p gm=$tree/scripts/get_maintainer.pl
	[ -x "$gm" ] || { none "no $(rel "$gm")"; return; }
	while read -r p; do
		[ -n "$p" ] || continue
		echo "  $(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$top/patches/$p" | head -n 1)"
		(cd "$tree" && "$gm" --no-git --no-git-fallback --no-rolestats "$top/patches/$p" 2>/dev/null) |
			sed 's/^/      /' | head -n 12
	done < "$top/patches/series"
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
		base_record
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
		echo "Checked on a tarball that is not Debian's orig tarball:"
		echo "$(sed -n 's/^base: //p' "$r")"
		echo "Checked there on $(sed -n 's/^date: //p' "$r") (make check-upstream):"
	fi
	sed -n 's/^posting \(.*\)/  - \1/p; s/^all: /  - all postings in order: /p' "$r" |
		sed 's/\(.\{72\}\) /\1\n      /'
	grep -q '^failures: 0$' "$r" || echo "make check-upstream reported failures (build/check-upstream/result)."
}
# base_record: the base from patches/base.txt's verdicts, counted.
base_record() {
	local f=$top/patches/base.txt up nf new
	[ -f "$f" ] || { none "no $(rel "$f")"; return; }
	up=$(grep -c '^upstream ' "$f") nf=$(grep -c '^not-found ' "$f") new=$(grep -c '^new ' "$f")
	echo "Linux 7.3.4 as Debian ships it ($(sed -n 's/^# Base: .*Debian.s \(linux-source-[^ ]*\)$/\1/p' "$f") $(sed -n 's/^# \([0-9][^ ]*\) (\(.*\)): upstream.*/\1/p' "$f")).  Of the $((up + nf + new)) files the series changes, $up are byte-identical to blobs in upstream patch mail, $nf were not found in the index searched, $new are new; Debian's changelog has no change of its own to any of them.  Evidence, blob by blob: patches/base.txt." | wrap ""
}
# The SCSI posting's commits (postings.sh groups), else vanilla..patched.
scsi_commits() {
	if [ "$build" = "$top/build" ] && [ -d "$tree/.git" ] &&
		"$top/harness/postings.sh" groups > "$fills/.groups" 2>/dev/null; then
		awk '$1 ~ /-scsi$/ { print $2 }' "$fills/.groups"
	elif [ -d "$tree/.git" ]; then
		git -C "$tree" rev-list --reverse vanilla..patched
	fi
}
shortlog() {
	[ -d "$tree/.git" ] || return 0
	local cs=()
	mapfile -t cs < <(scsi_commits)
	[ ${#cs[@]} -gt 0 ] || return 0
	git -C "$tree" log --no-walk=unsorted --format='%an%n%s' "${cs[@]}" 2>/dev/null |
		awk 'NR % 2 { a = $0; next } { n[a]++; s[a] = s[a] "    " $0 "\n"; if (!(a in o)) ord[++k] = a; o[a] = 1 }
			END { for (i = 1; i <= k; i++) printf "%s (%d):\n%s\n", ord[i], n[ord[i]], s[ord[i]] }' |
		sed '${/^$/d}' | cut -c1-78
}
evidence_file() {
	echo "Evidence for the cover letter $(basename "$out"): the full tables it"
	echo "summarises, written by harness/cover-letter.sh from the same data."
	echo
	echo "Placement (make check)"
	placement_source
	placement
	echo
	echo "Which CPU ran the allocations (SLUB allocation tracking, slub_debug=U)"
	alloc_cpus
	echo
	echo "Remote accesses and misses per I/O (make compare, the QEMU meter)"
	meter
	echo
	echo "fio in the guests: no-regression check"
	fio_table
	echo
	echo "make check, per run"
	check_summary
	echo
	echo "scripts/get_maintainer.pl, per patch"
	maintainers
	echo
	echo "diffstat of the series"
	[ ! -d "$tree/.git" ] || git -C "$tree" diff --stat=72 vanilla patched | sed 's/^/ /'
}

n=$(grep -cvE '^[[:space:]]*(#|$)' "$top/patches/series")
fills=$(mktemp -d)
trap 'rm -rf "$fills"' EXIT
[ -n "$body" ] || mkdir -p "$(dirname "$out")"
# Only what the template asks for and the caller does not give.
need() { awk -v p="@$1@" '!/^## / && index($0, p) { f = 1 } END { exit !f }' "$tmpl" && { [ -z "$extra" ] || [ ! -f "$extra/$1" ]; }; }
fill() { if need "$1"; then "$2" > "$fills/$1"; fi; }
npatches() { local c; c=$(scsi_commits | wc -l); [ "$c" -gt 0 ] && echo "$c" || echo "$n"; }
evidence() { echo "patches/evidence.txt"; }
harness_url() { if [ -n "${HARNESS_URL:-}" ]; then echo "the harness at $HARNESS_URL"; else echo "the harness repository"; fi; }
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
	evidence_file > "$(dirname "$out")/evidence.txt"
	echo "cover-letter: $(rel "$out") (its inputs: $(rel "$(dirname "$out")")/inputs.tsv)"
}
