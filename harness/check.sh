#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [--churn long] [--no-kat] RUN..: boot each run's kernel in its topology, run the guest
# cases it names, stream each run's results, then a summary: per run the case
# counts and, per placement context, the share of objects on their
# expected node per object kind.  RUN is KERNEL:TOPOLOGY[:CASES[:LABEL]]:
# what KERNEL must be follows from its name (harness/lib/expect.sh), CASES is a
# comma-separated list of case globs (default: all), or "host-check"
# (make host-check in the guest, judged by host-check-judge.sh).  The whole kernel log
# of every guest is judged here once more, and the
# remote-access meter's known-answer test runs (--no-kat: not; the cover
# letter test's stand-in runs).  --churn long: case 40's long churn
# (CHURN_LONG cycles, on every kernel), with room for it (make
# check-full).  Settings: CHECK_JOBS, VM_TIMEOUT (lib/config.sh).  Exit 1 if any case failed or any run broke.
# Each guest's TAP is streamed as it comes (the result share's out/tap),
# its result lines and "# case" lines prefixed by the run's name, so a hung
# guest shows the case it hangs in; the per-run evidence of failures and
# the summary follow at the end.  The times of the phases (deps, lint and
# kernels when under make, harness/lib/phase.sh; the guests, each run, the KAT,
# the summary; under make check the total) are printed and written to
# build/check/times.tsv ("phase NAME SECONDS", "run NAME SECONDS").
# Data for the cover letter (cover-letter.sh), all with this check's run id
# (run-id.sh): build/runs/RUN/run-id beside each run's out/placement.tsv,
# and build/check/summary.tsv, one record a line, fields tab-separated:
#   run_id ID | kernel_source TEXT | series COMMIT [TREE] (the patched
#   kernel's, harness/lib/series.sh) | run NAME KERNEL TOPOLOGY EXPECT CASES
#   PASSED FAILED SKIPPED REPORTED RUN-PASSED RUN-FAILED | kat TEXT |
#   total PASSED FAILED SKIPPED REPORTED RUN-PASSED RUN-FAILED
# PASSED..REPORTED count the cases (REPORTED: "# report only" cases,
# run-cases), RUN-PASSED/RUN-FAILED the checks of the run itself, which
# are not tests of the series: boot-and-setup, 01-topology and teardown
# (a skip of one fails), a Bail out!, the whole kernel log,
# host-check-judge.sh, no case run (passed, failed or reported), each
# skip the run does not expect (skip_expected), the run's exit.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
churn_long="" kat_run=1
while [ $# -gt 0 ]; do
	case $1 in
	--churn) [ "${2:-}" = long ] || { echo "check: --churn long" >&2; exit 2; }; churn_long=1; shift 2 ;;
	--no-kat) kat_run=""; shift ;;
	-*) echo "check: unknown option '$1' (--churn long, --no-kat)" >&2; exit 2 ;;
	*) break ;;
	esac
done
run_id=$("$top/harness/run-id.sh")
# The long churn's cycles, and the seconds case 40 may take per cycle.
CHURN_LONG=500
churn_per=$(sed -n 's/^# cycle-timeout: *\([0-9][0-9]*\).*/\1/p' "$top/test/cases/40-churn")
# shellcheck source=../lib/kmsg.sh
. "$top/lib/kmsg.sh"
# shellcheck source=lib/series.sh
. "$top/harness/lib/series.sh"
# shellcheck source=lib/phase.sh
. "$top/harness/lib/phase.sh"
check_start=$(date +%s)
# The series measured: the patched kernel's commit as the runs start.
series=$(series_measured "$top")
tp=0 tf=0 ts=0 tr=0 trp=0 trf=0
declare -A res cnt
[ $# -gt 0 ] ||
	{ echo "check: no runs given (KERNEL:TOPOLOGY[:CASES[:LABEL]] ..., the Makefile's CHECK_RUNS)" >&2; exit 2; }
# "K T EXPECT CASES LABEL" each; a typo is refused before any guest boots.
plan=$("$top/harness/lib/plan.sh" --list "$@") || exit 2
mapfile -t runs <<< "$plan"
# skip_expected KERNEL TOPOLOGY CASE: whether a run may skip CASE.  Any
# other skip fails its run (a run check) until it is declared here.  The
# topology's facts are read from its file (harness/topo/, or a path) when
# asked, never pinned by name: an edited topology moves its pins with it.
skip_expected() {
	case $1:$3 in
	*:50-named-disk) return 0 ;;	# no disk is named in a guest (host-check --disk)
	vanilla*:20-*|vanilla*:2[45]-*|vanilla*:3[01]-kunit-*) return 0 ;;	# these come with the series
	vanilla*:05-*|patched:05-*) return 0 ;;	# kmemleak is the debug and the leak kernel's
	*:41-*) ;;
	*) return 1 ;;
	esac
	local f=$top/harness/topo/$2
	[[ $2 != */* ]] || f=$2
	# shellcheck disable=SC2016 # the inner script's own expansions
	bash -c '. "$1" || exit 2
		case $2 in
		# 41: another node with CPUs to keep I/O on
		41-*) c=0; for x in "${TOPO_NODE_CPUS[@]}"; do [ -z "$x" ] || c=$((c + 1)); done
			[ "$c" -lt 2 ] ;;
		esac' _ "$f" "$3"
}
# The run directory: build/runs/K-TOPO[-LABEL].
rname() { echo "$1-$2${3:+-$3}"; }
# stream_tap TAP DONE NAME: print TAP's result and "# case" lines as the
# guest writes them (over 9p, a line at a time), "[NAME] " before each,
# until the file DONE exists; then what is left.  Polled at 0.1 s, then
# less often up to each second: a run that ends at once (the stand-ins of
# make lint's tests) is not held a second for nothing.
stream_tap() {
	local shown=0 lines last="" pause=0.1
	while :; do
		[ -e "$2" ] && last=1
		if [ -f "$1" ]; then
			if [ -n "$last" ]; then lines='$'; else lines=$(wc -l < "$1"); fi
			[ "$lines" != 0 ] && [ "$lines" != "$shown" ] &&
				sed -n "$((shown + 1)),${lines}p" "$1" |
				grep -E '^(ok |not ok |Bail out!|# case )' | sed "s/^/[$3] /"
			[ -n "$last" ] || shown=$lines
		fi
		[ -z "$last" ] || return 0
		sleep "$pause"
		case $pause in 0.1) pause=0.2 ;; 0.2) pause=0.5 ;; *) pause=1 ;; esac
	done
}
# The guests run CHECK_JOBS at a time: a TCG guest spends much of its
# time waiting (scans, 9p), so two share the 2 cores well.
jobs=$CHECK_JOBS
mkdir -p "$top/build/runs"
for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	# check-full: the long churn on every kernel, the debug one
	# included, with room for it: case 40's cycle-timeout per cycle
	# (vm.sh gives a KASAN kernel 5 times this, as run-cases its cases).
	churn="" vmt=$VM_TIMEOUT
	[ -n "$churn_long" ] &&
		churn=$CHURN_LONG vmt=$(( (VM_TIMEOUT > 3600 ? VM_TIMEOUT : 3600) + CHURN_LONG * churn_per ))
	# No TAP, rc or time of an earlier check may be streamed or read.
	rm -f "$top/build/runs/$n/out/tap" "$top/build/runs/$n.rc" "$top/build/runs/$n.time"
	echo "[$n] # started: $k / $t, cases $c (expected: $e)"
	( s0=$(date +%s)
	  ( VM_RUN=$n VM_CHURN=$churn VM_TIMEOUT=$vmt "$top/harness/vm.sh" "$k" "$t" "$c" > "$top/build/runs/$n.tap" 2>&1
	    echo $? > "$top/build/runs/$n.rc.new" ) &
	  stream_tap "$top/build/runs/$n/out/tap" "$top/build/runs/$n.rc.new" "$n"
	  wait
	  echo $(( $(date +%s) - s0 )) > "$top/build/runs/$n.time"
	  echo "[$n] # ended: exit $(cat "$top/build/runs/$n.rc.new") after $(cat "$top/build/runs/$n.time") s"
	  mv "$top/build/runs/$n.rc.new" "$top/build/runs/$n.rc"
	  [ ! -d "$top/build/runs/$n" ] || echo "$run_id" > "$top/build/runs/$n/run-id" ) &
done
wait
guests_end=$(date +%s)


for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	echo "# ==== $n: $k / $t, cases $c (expected: $e)"
	# The TAP was streamed; what else vm.sh said (a refusal, say).
	grep -vE '^(# |ok |not ok |Bail out!|TAP version|[0-9]+\.\.[0-9]+$)' "$top/build/runs/$n.tap" || true
	rc=$(cat "$top/build/runs/$n.rc")
	tap=$top/build/runs/$n/out/tap
	# p f s r: the cases passed, failed, skipped, reported; rp rf: the
	# run's own checks passed, failed.  Its own checks in its TAP:
	# run-cases' boot-and-setup and teardown, and case 01 (the guest is
	# the topology it should be: the cases that follow trust it).
	p=0 f=0 s=0 r=0 rp=0 rf=0
	own='^(ok|not ok) [0-9]+ (boot-and-setup|01-topology|teardown)( |$)'
	if [ -f "$tap" ]; then
		read -r p f s r rp rf < <(awk -v own="$own" '
			$0 ~ own { if ($1 == "ok" && !/ # SKIP/) rp++; else rf++; next }
			/^Bail out!/ { rf++; next }
			/^ok [0-9]+ .* # SKIP report only/ { r++; next }
			/^ok [0-9]+ .* # SKIP/ { s++; next }
			/^ok [0-9]+ / { p++; next }
			/^not ok [0-9]+ / { f++ }
			END { print p + 0, f + 0, s + 0, r + 0, rp + 0, rf + 0 }' "$tap")
		# Evidence of failures goes to the output, not only to the log:
		# a case's diagnostics come before its result line.
		awk '/^(ok|not ok) /{ if ($1 == "not") { printf "%s", buf; print }; buf=""; next }
		     /^# case /{buf=""} {buf = buf $0 "\n"}' "$tap"
		grep '^Bail out!' "$tap" || true
	fi
	if kmsg_judge_run "$top/build/runs/$n"; then rp=$((rp + 1)); else rf=$((rf + 1)); fi
	# CASES "host-check": make host-check as a user runs it (guest-init).
	if [ "$c" = host-check ]; then
		if "$top/harness/host-check-judge.sh" "$top/build/runs/$n" "$k" "$e"; then
			rp=$((rp + 1))
		else rf=$((rf + 1)); fi
	fi
	# A run in which no case ran (all skipped, or none started) checked
	# nothing: a run check fails.
	if [ $((p + f + r)) = 0 ]; then
		rf=$((rf + 1))
		echo "not ok - $n: no case ran in this run (passed, failed or reported: 0)"
	fi
	while read -r _ _ sc _ _ why; do
		[ "$why" != "report only" ] && ! skip_expected "$k" "$t" "$sc" || continue
		rf=$((rf + 1))
		echo "not ok - $n: $sc skipped ($why), which this run does not expect (check.sh, skip_expected)"
	done < <(grep -E '^ok [0-9]+ [^ ]+ # SKIP' "$tap" 2>/dev/null | grep -vE "$own")
	if [ "$rc" != 0 ] && [ "$f" = 0 ] && [ "$rf" = 0 ]; then
		rf=1
		echo "not ok - $n: the run itself failed (exit $rc), see build/runs/$n/"
		grep '^# vm:' "$top/build/runs/$n.tap" | tail -n 45
	fi
	res[$n]="$p cases passed, $f failed, $s skipped, $r reported; run checks: $rp passed, $rf failed; $(cat "$top/build/runs/$n.time" 2>/dev/null || echo '?') s"
	cnt[$n]="$p	$f	$s	$r	$rp	$rf"
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s)) tr=$((tr + r)) trp=$((trp + rp)) trf=$((trf + rf))
done

# The remote-access meter's known-answer test (qemu-plugin/kat): a program
# pinned to node 0 touches node-1 and node-0 buffers a known number of
# times; the meter must count exactly that (within N/1000 + 64).  Before
# it, the meter's unit tests (make -C qemu-plugin test): objects-test (the
# object table), vcpu-test (the per-vCPU window records) and parse-test
# (the list arguments).
kat="skipped (--no-kat)" katf=0 kat_start=$(date +%s)
if [ -n "$kat_run" ]; then
	echo "# ==== meter known-answer test"
	# The plugin's build is shared with a make compare beside this one
	# (kat/run.sh takes the same lock for the KAT itself); the log is this
	# check's own.
	katlog=$top/build/runs/kat-check.log
	if flock "$top/build/.kat.lock" make -s -C "$top/qemu-plugin" > "$katlog" 2>&1 &&
	   flock "$top/build/.kat.lock" make -s -C "$top/qemu-plugin" test >> "$katlog" 2>&1 &&
	   "$top/qemu-plugin/kat/run.sh" --no-baseline vanilla >> "$katlog" 2>&1; then
		kat="ok"
		grep -E '^(objects|vcpu|parse)-test:' "$katlog"
		grep -E '^(ok|kat:)' "$katlog" | tail -n 12
	else
		kat="FAILED (build/runs/kat-check.log)" katf=1
		tail -n 30 "$katlog"
	fi
fi

kat_end=$(date +%s)
echo
echo "==== summary"
dirs=()
for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	printf '%-26s %-8s %-22s %s\n' "$n" "$e" "$c" "${res[$n]}"
	dirs+=("$top/build/runs/$n")
done
echo
"$top/harness/placement-summary.sh" "${dirs[@]}"
echo
# For the cover letter (cover-letter.sh): what ran and how it ended.
mkdir -p "$top/build/check"
{
	printf 'run_id\t%s\n' "$run_id"
	printf 'kernel_source\t%s\n' "$(cat "$top/build/kernels/patched/source" 2>/dev/null || echo unknown)"
	printf 'series\t%s\n' "${series// /$'\t'}"
	for r in "${runs[@]}"; do
		read -r k t e c l <<< "$r"
		n=$(rname "$k" "$t" "$l")
		printf 'run\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$k" "$t" "$e" "$c" "${cnt[$n]}"
	done
	printf 'kat\t%s\n' "$kat"
	printf 'total\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tp" "$tf" "$ts" "$tr" "$trp" "$trf"
} > "$top/build/check/summary.tsv"

# The phase times: deps, lint and kernels from make's start and lint.sh's
# record (harness/lib/phase.sh), when under make; then this script's own; last,
# under make check, the total.
times=()	# "KIND NAME SECONDS"
read -r lint_s lint_e < <(phase_read "$top/build/check/phases" lint)
mk=$(make_key)
if [ -n "${lint_s:-}" ] && [ -n "$mk" ]; then
	times+=("phase deps $((lint_s - ${mk%%-*}))" "phase lint $((lint_e - lint_s))"
		"phase kernels $((check_start - lint_e))")
fi
times+=("phase guests $((guests_end - check_start))")
for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	times+=("run $n $(cat "$top/build/runs/$n.time" 2>/dev/null || echo 0)")
done
[ -z "$kat_run" ] || times+=("phase kat $((kat_end - kat_start))")
times+=("phase summary $(( $(date +%s) - kat_end ))")
# Under make check, the whole of it: make's start to now (the budget's
# measure).
[ -z "${lint_s:-}" ] || [ -z "$mk" ] || times+=("phase total $(( $(date +%s) - ${mk%%-*} ))")
printf '%s\n' "${times[@]}" | tr ' ' '\t' > "$top/build/check/times.tsv"
echo "times: $(printf '%s\n' "${times[@]}" | awk '$1 == "phase" { printf "%s%s %d s", sep, $2, $3; sep = ", " }')" \
     "(each run's: the summary above; build/check/times.tsv)"
# The last line: the cases (the tests of the series) apart from the
# checks of the runs themselves and from the meter's test, and where
# the full logs are.
echo "check: $tp cases passed, $tf failed, $ts skipped, $tr reported;" \
     "$trp run checks passed, $trf failed (boot, teardown, kernel log); meter known-answer test: $kat;" \
     "logs: build/runs/<run>/ (tap, console.log, out/), build/check/"
[ "$tf" = 0 ] && [ "$trf" = 0 ] && [ "$katf" = 0 ]
