#!/bin/bash
# check.sh [--churn long] [--no-kat] RUN..: boot each run's kernel in its topology, run the guest
# cases it names, print each run's TAP, then a summary: per run the case
# counts and, per placement context, the share of objects on their
# expected node per object kind.  RUN is KERNEL:TOPOLOGY[:CASES[:LABEL]]:
# what KERNEL must be follows from its name (lib/expect.sh), CASES is a
# comma-separated list of case globs (default: all), or "host-check"
# (make host-check in the guest, judged by host-check-judge.sh).  The whole kernel log
# of every guest is judged here once more, and the
# remote-access meter's known-answer test runs (--no-kat: not; the cover
# letter test's stand-in runs).  --churn long: case 40's long churn, with
# room for it (make check-full).  Settings: CHECK_JOBS, VM_TIMEOUT
# (lib/config.sh).  Exit 1 if any case failed or any run broke.
# Data for the cover letter (cover-letter.sh), all with this check's run id
# (run-id.sh): build/runs/RUN/run-id beside each run's out/placement.tsv,
# and build/check/summary.tsv, one record a line, fields tab-separated:
#   run_id ID | kernel_source TEXT | series COMMIT [TREE] (the patched
#   kernel's, lib/series.sh) | run NAME KERNEL TOPOLOGY EXPECT CASES
#   PASSED FAILED SKIPPED REPORTED RUN-PASSED RUN-FAILED | kat TEXT |
#   total PASSED FAILED SKIPPED REPORTED RUN-PASSED RUN-FAILED
# PASSED..REPORTED count the cases (REPORTED: "# report only" cases,
# run-cases), RUN-PASSED/RUN-FAILED the checks of the run itself, which
# are not tests of the series: boot-and-setup and teardown (run-cases),
# a Bail out!, the whole kernel log, host-check-judge.sh, the run's exit.
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
# shellcheck source=../lib/kmsg.sh
. "$top/lib/kmsg.sh"
# shellcheck source=../lib/expect.sh
. "$top/lib/expect.sh"
# shellcheck source=../lib/series.sh
. "$top/lib/series.sh"
# The series measured: the patched kernel's commit as the runs start.
series=$(series_measured "$top")
tp=0 tf=0 ts=0 tr=0 trp=0 trf=0
declare -A res cnt
runs=()	# "K T EXPECT CASES"
for spec in "$@"; do
	IFS=: read -r k t c label <<< "$spec"
	runs+=("$k $t $(expect_of "$k") ${c:-*} ${label:-}")
done
# The run directory: build/runs/K-TOPO[-LABEL].
rname() { echo "$1-$2${3:+-$3}"; }
# The guests run CHECK_JOBS at a time: a TCG guest spends much of its
# time waiting (scans, 9p), so two share the 2 cores well.
jobs=$CHECK_JOBS
mkdir -p "$top/build/runs"
for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	# check-full: the long churn, with room for it.
	churn="" vmt=$VM_TIMEOUT
	[ -n "$churn_long" ] && churn=500 vmt=$((VM_TIMEOUT > 3600 ? VM_TIMEOUT : 3600))
	# The debug (KASAN) kernel under TCG: every case 3-10 times slower
	# (measured: boot and setup 8 min, bad input 13 min, 50 churn cycles
	# 25 min), so the short churn (500 cycles would take some 4 hours);
	# vm.sh gives a KASAN kernel 5 times VM_TIMEOUT.
	[ "$k" = debug ] && churn="" vmt=$VM_TIMEOUT
	( VM_RUN=$n VM_CHURN=$churn VM_TIMEOUT=$vmt "$top/harness/vm.sh" "$k" "$t" "$c" > "$top/build/runs/$n.tap" 2>&1
	  echo $? > "$top/build/runs/$n.rc"
	  [ ! -d "$top/build/runs/$n" ] || echo "$run_id" > "$top/build/runs/$n/run-id" ) &
done
wait


for r in "${runs[@]}"; do
	read -r k t e c l <<< "$r"
	n=$(rname "$k" "$t" "$l")
	echo "# ==== $n: $k / $t, cases $c (expected: $e)"
	grep -v '^# ' "$top/build/runs/$n.tap" || true
	rc=$(cat "$top/build/runs/$n.rc")
	tap=$top/build/runs/$n/out/tap
	# p f s r: the cases passed, failed, skipped, reported; rp rf: the
	# run's own checks passed, failed.
	p=0 f=0 s=0 r=0 rp=0 rf=0
	if [ -f "$tap" ]; then
		read -r p f s r rp rf < <(awk '
			/^(ok|not ok) [0-9]+ (boot-and-setup|teardown)( |$)/ { if ($1 == "ok") rp++; else rf++; next }
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
	if [ "$rc" != 0 ] && [ "$f" = 0 ] && [ "$rf" = 0 ]; then
		rf=1
		echo "not ok - $n: the run itself failed (exit $rc), see build/runs/$n/"
		grep '^# vm:' "$top/build/runs/$n.tap" | tail -n 45
	fi
	res[$n]="$p cases passed, $f failed, $s skipped, $r reported; run checks: $rp passed, $rf failed"
	cnt[$n]="$p	$f	$s	$r	$rp	$rf"
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s)) tr=$((tr + r)) trp=$((trp + rp)) trf=$((trf + rf))
done

# The remote-access meter's known-answer test (qemu-plugin/kat): a program
# pinned to node 0 touches node-1 and node-0 buffers a known number of
# times; the meter must count exactly that (within N/1000 + 64).  Before
# it, the unit test of the meter's object table (make -C qemu-plugin test).
kat="skipped (--no-kat)" katf=0
if [ -n "$kat_run" ]; then
	echo "# ==== meter known-answer test"
	if make -s -C "$top/qemu-plugin" > "$top/build/runs/kat.log" 2>&1 &&
	   make -s -C "$top/qemu-plugin" test >> "$top/build/runs/kat.log" 2>&1 &&
	   "$top/qemu-plugin/kat/run.sh" --no-baseline vanilla >> "$top/build/runs/kat.log" 2>&1; then
		kat="ok"
		grep -E '^objects-test:' "$top/build/runs/kat.log"
		grep -E '^(ok|kat:)' "$top/build/runs/kat.log" | tail -n 12
	else
		kat="FAILED (build/runs/kat.log)" katf=1
		tail -n 30 "$top/build/runs/kat.log"
	fi
fi

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
# The last line: the cases (the tests of the series) apart from the
# checks of the runs themselves and from the meter's test.
echo "check: $tp cases passed, $tf failed, $ts skipped, $tr reported;" \
     "$trp run checks passed, $trf failed (boot, teardown, kernel log); meter known-answer test: $kat"
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
[ "$tf" = 0 ] && [ "$trf" = 0 ] && [ "$katf" = 0 ]
