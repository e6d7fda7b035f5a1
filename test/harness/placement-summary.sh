#!/bin/bash
# placement-summary.sh RUN-DIR..: the placement figures of guest runs
# (RUN-DIR/out/placement.tsv, written by test/lib/placement.py), as
#   1. per kernel, topology and context: on-node share over all objects, and
#      on/all per object kind;
#   2. per driver (proc_name), kernel, topology and context: the same.
# "On" means on the object's expected node (the device's node, or for a
# hardware queue whose CPUs share one node, that node).
set -u
files=()
for d in "$@"; do [ -f "$d/out/placement.tsv" ] && files+=("$d/out/placement.tsv"); done
[ ${#files[@]} -gt 0 ] || { echo "(no placement figures)"; exit 0; }
table() {	# $1: awk expression for the row key
	awk -F'\t' '{ key = '"$1"'; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		kk = key SUBSEP $5; if (!(kk in kon)) kinds[key] = kinds[key] " " $5
		kon[kk] += $6; kall[kk] += $7; on[key] += $6; all[key] += $7 }
		END { for (i = 1; i <= n; i++) { k = order[i]; cells = ""
			m = split(kinds[k], ks, " ")
			for (j = 1; j <= m; j++)
				cells = cells sprintf(" %s=%d/%d", ks[j], kon[k SUBSEP ks[j]], kall[k SUBSEP ks[j]])
			printf "  %-44s %5.1f%% |%s\n", k, all[k] ? 100 * on[k] / all[k] : 0, cells } }' "${files[@]}"
}
echo "placement by context (kernel topology context: share on the expected node | kind=on/all):"
table '$1 " " $2 " " $3'
echo "placement by driver (driver kernel topology context):"
table '$4 " " $1 " " $2 " " $3' | sort -k1,1 -s
