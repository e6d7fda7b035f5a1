#!/bin/bash
# check.sh "KERNELS" "TOPOLOGIES": boot every kernel in every topology, run
# the guest suite, print each run's TAP, then a summary: per run the case
# counts and, per placement context, the share of objects on the device's
# node per object kind.  Exit 1 if any case failed or any run broke.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kernels=$1 topos=$2
tp=0 tf=0 ts=0 broken=0
declare -A res
for k in $kernels; do
	for t in $topos; do
		echo "# ==== $k / $t"
		"$top/test/harness/vm.sh" "$k" "$t" | tee "$top/build/runs/.tap" | grep -v '^# ' || true
		rc=${PIPESTATUS[0]}
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
			f=1 broken=$((broken + 1))
			echo "not ok - $k/$t: the run itself failed (exit $rc), see build/runs/$k-$t/"
		fi
		res[$k/$t]="$p passed, $f failed, $s skipped"
		tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
	done
done
rm -f "$top/build/runs/.tap"

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
echo "placement: objects on the device's node (kernel topology context: kind on/all)"
for k in $kernels; do for t in $topos; do
	f=$top/build/runs/$k-$t/out/placement.tsv
	[ -f "$f" ] || continue
	awk -F'\t' '{ key = $1 " " $2 " " $3; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		      kk = key SUBSEP $4; if (!(kk in kon)) kinds[key] = kinds[key] " " $4
		      kon[kk] += $5; kall[kk] += $6; on[key] += $5; all[key] += $6 }
		END { for (i = 1; i <= n; i++) { k = order[i]; cells = ""
			m = split(kinds[k], ks, " ")
			for (j = 1; j <= m; j++) cells = cells sprintf(" %s=%d/%d", ks[j], kon[k SUBSEP ks[j]], kall[k SUBSEP ks[j]])
			printf "  %-28s %5.1f%% |%s\n", k, all[k] ? 100 * on[k] / all[k] : 0, cells } }' "$f"
done; done
echo "compare smoke: $csmoke"
echo
echo "check: $tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
