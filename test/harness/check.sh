#!/bin/bash
# check.sh "KERNELS" "TOPOLOGIES": boot every kernel in every topology, run
# the guest suite, print each run's TAP, then a summary: per run the case
# counts and, per placement context, the share of objects on the device's
# node per object kind.  Exit 1 if any case failed or any run broke.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$1 topos=$2
tp=0 tf=0 ts=0
declare -A res
# The guests run CHECK_JOBS at a time (default 2): a TCG guest spends much
# of its time waiting (scans, 9p), so two share the 2 cores well.
jobs=${CHECK_JOBS:-2}
mkdir -p "$top/build/runs"
for k in $kernels; do
	for t in $topos; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		( "$top/test/harness/vm.sh" "$k" "$t" > "$top/build/runs/$k-$t.tap" 2>&1
		  echo $? > "$top/build/runs/$k-$t.rc" ) &
	done
done
wait
for k in $kernels; do
	for t in $topos; do
		echo "# ==== $k / $t"
		grep -v '^# ' "$top/build/runs/$k-$t.tap" || true
		rc=$(cat "$top/build/runs/$k-$t.rc")
		tap=$top/build/runs/$k-$t/out/tap
		p=0 f=0 s=0
		if [ -f "$tap" ]; then
			s=$(grep -c '^ok .* # SKIP' "$tap")
			p=$(( $(grep -c '^ok ' "$tap") - s ))
			f=$(grep -c '^not ok ' "$tap")
			grep -q '^Bail out!' "$tap" && f=$((f + 1))
			# Evidence of failures goes to the output, not only to the log.
			awk '/^not ok /{on=1; print; next} /^(ok|not ok) /{on=0} on' "$tap"
		fi
		if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
			f=1
			echo "not ok - $k/$t: the run itself failed (exit $rc), see build/runs/$k-$t/"
			grep '^# vm:' "$top/build/runs/$k-$t.tap" | tail -n 45
		fi
		res[$k/$t]="$p passed, $f failed, $s skipped"
		tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
	done
done

# A short smoke run of the fio comparison (make compare runs the full one).
csmoke="skipped (CHECK_COMPARE=0)"
if [ "${CHECK_COMPARE:-1}" = 1 ]; then
	echo "# ==== compare (smoke)"
	if COMPARE_OUT=$top/build/compare-smoke COMPARE_REPS=2 FIO_JOBS=randread-4k FIO_QDS=32 FIO_NUMJOBS=1 FIO_RUNTIME=2 \
		FIO_RAMP=1 "$top/test/harness/compare.sh" > "$top/build/runs/compare-smoke.log" 2>&1; then
		csmoke="ok"; tp=$((tp + 1))
		grep -v '^#' "$top/build/runs/compare-smoke.log" | tail -n 12
	else
		csmoke="FAILED (build/runs/compare-smoke.log)"; tf=$((tf + 1))
		tail -n 30 "$top/build/runs/compare-smoke.log"
	fi
fi

echo
echo "==== summary"
for k in $kernels; do for t in $topos; do
	printf '%-9s %-9s %s\n' "$k" "$t" "${res[$k/$t]}"
done; done
echo
runs=()
for k in $kernels; do for t in $topos; do runs+=("$top/build/runs/$k-$t"); done; done
"$top/test/harness/placement-summary.sh" "${runs[@]}"
echo "compare smoke: $csmoke"
echo
echo "check: $tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
