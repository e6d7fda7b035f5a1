#!/bin/bash
# compare.sh: the fio comparison, vanilla vs patched, in the two-node guest.
# Each repetition boots each kernel once (the order alternates between
# repetitions so that drift hits both alike) and runs every fio job with the
# submitting CPUs on each node (test/harness/guest-compare).  Then
# fio-jobs/report.py prints the table and writes build/compare/report.{txt,
# json,png}; fio's JSON stays under build/compare/<kernel>/.
#
# Environment: COMPARE_REPS (default 5), COMPARE_TOPO (two-node),
# COMPARE_OUT (build/compare) and the
# FIO_* settings of fio-jobs/run.sh (FIO_JOBS, FIO_QDS, FIO_RUNTIME, ...),
# which are handed to the guest.  A QEMU guest has no remote-memory cost:
# this is a no-regression check, not a NUMA benchmark (fio-jobs/README).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
reps=${COMPARE_REPS:-5}
topo=${COMPARE_TOPO:-two-node}
out=${COMPARE_OUT:-$top/build/compare}
rm -rf "$out"
mkdir -p "$out"
# One shell-quoted assignment per FIO_* variable: multi-word values
# (FIO_QDS="1 32") must reach the guest whole.
for v in $(compgen -e | grep -E '^FIO_[A-Z_]+$' | grep -vE '^FIO_(REPEAT|REP_START)$'); do
	printf '%s=%q\n' "$v" "${!v}"
done > "$out/fio.env"

for ((r = 1; r <= reps; r++)); do
	order="vanilla patched"
	[ $((r % 2)) = 0 ] && order="patched vanilla"
	for k in $order; do
		echo "# compare: repetition $r/$reps, $k"
		if ! VM_RUN=compare-$k VM_EXPECT=$([ "$k" = vanilla ] && echo vanilla || echo numa) VM_CMDLINE="sni.mode=compare sni.rep=$r sni.fioenv=$out/fio.env" \
			"$top/test/harness/vm.sh" "$k" "$topo"; then
			echo "compare: the $k guest failed in repetition $r (build/runs/compare-$k/)" >&2
			exit 1
		fi
		src=$top/build/runs/compare-$k/out/fio/$k
		mkdir -p "$out/$k"
		cp "$src"/*.json "$out/$k/"
		[ -f "$out/$k/manifest.tsv" ] || head -n 1 "$src/manifest.tsv" > "$out/$k/manifest.tsv"
		tail -n +2 "$src/manifest.tsv" >> "$out/$k/manifest.tsv"
		cp "$src/run-info.txt" "$out/$k/run-info-r$r.txt" 2>/dev/null || true
	done
done
python3 "$top/fio-jobs/report.py" --baseline vanilla --text "$out/report.txt" \
	--json "$out/report.json" --png "$out/report.png" "$out/vanilla" "$out/patched"
