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
		      cell[key] = cell[key] sprintf(" %s=%d/%d", $4, $5, $6); on[key] += $5; all[key] += $6 }
		END { for (i = 1; i <= n; i++) { k = order[i]
			printf "  %-28s %5.1f%% |%s\n", k, all[k] ? 100 * on[k] / all[k] : 0, cell[k] } }' "$f"
done; done
echo
echo "check: $tp passed, $tf failed, $ts skipped"
[ "$tf" = 0 ]
