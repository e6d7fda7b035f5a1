#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare-rules-matrix.sh TOPOLOGY..: make compare-rules-matrix: compare.sh
# --rules in each TOPOLOGY in turn (RULES_REPS repetitions, RULES_TARGETS,
# and virtio_scsi too where the topology gives it fewer queues than CPUs,
# TOPO_VIRTIO_QUEUES: a multi-queue map with queues spanning nodes), each
# run kept in build/rules-matrix/TOPOLOGY/, then one table over them all,
# fio-jobs/rules_matrix.py, in build/rules-matrix/matrix.txt (make export
# copies it to patches/evidence-rules.txt; the rule's changelog quotes it).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || { echo "usage: compare-rules-matrix.sh TOPOLOGY.." >&2; exit 2; }
out=$top/build/rules-matrix
reps=${RULES_REPS:-5}
targets=${RULES_TARGETS:-null_blk megaraid_sas ahci}
mkdir -p "$out"
dirs=()
for topo in "$@"; do
	t=$targets
	grep -q '^TOPO_VIRTIO_QUEUES=' "$top/harness/topo/$topo" 2>/dev/null && t+=" virtio_scsi"
	t0=$(date +%s)
	echo "# compare-rules-matrix: $topo ($t), $reps repetitions"
	"$top/harness/compare.sh" --rules "$topo" "$reps" "$t"
	rm -rf "${out:?}/$topo"
	cp -a "$top/build/compare-rules" "$out/$topo"
	echo "# compare-rules-matrix: $topo done in $(( $(date +%s) - t0 ))s"
	dirs+=("$out/$topo")
done
echo
python3 "$top/fio-jobs/rules_matrix.py" --topo-dir "$top/harness/topo" --text "$out/matrix.txt" \
	--how "make compare-rules-matrix RULES_REPS=$reps RULES_TARGETS='$targets' RULES_MATRIX='$*'" "${dirs[@]}"
