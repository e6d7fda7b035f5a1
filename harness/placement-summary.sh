#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# placement-summary.sh [--context] RUN-DIR..: the placement figures of guest runs
# (RUN-DIR/out/placement.tsv, written by lib/placement.py), as
#   1. per kernel, topology and context: on-node share over all objects, and
#      on/all per object kind;
#   2. per driver (proc_name), kernel, topology and context: the same.
#   3. per kernel, topology and context: how many hardware queues held
#      placement.py's properties (RUN-DIR/out/queues.tsv): (a) on one node,
#      (b) on a node of their present CPUs, (c) a single queue on the
#      host's node.
# "On" means on the object's expected node: the host's node, or for a
# hardware queue's objects a node (b) and (c) allow.
# --context: table 1 only (evidence.txt's placement table, cover-letter.sh).
set -u
only=""
[ "${1:-}" != --context ] || { only=context; shift; }
files=() qfiles=()
for d in "$@"; do
	[ -f "$d/out/placement.tsv" ] && files+=("$d/out/placement.tsv")
	[ -f "$d/out/queues.tsv" ] && qfiles+=("$d/out/queues.tsv")
done
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
[ -z "$only" ] || exit 0
echo "placement by driver (driver kernel topology context):"
table '$4 " " $1 " " $2 " " $3' | sort -k1,1 -s
[ ${#qfiles[@]} -gt 0 ] || exit 0
echo "hardware queues by context (kernel topology context: queues | (a) one node, (b) a node of"
echo "  its present CPUs, (c) single queues on the host node, held/judged):"
awk -F'\t' '{ key = $1 " " $2 " " $3; if (!(key in n)) order[++m] = key
	n[key]++; a[key] += $10; b[key] += $11
	if ($12 != "-") { cn[key]++; c[key] += $12 } }
	END { for (i = 1; i <= m; i++) { k = order[i]
		printf "  %-44s %3d | (a) %d/%d (b) %d/%d (c) %d/%d\n", k, n[k], a[k], n[k], b[k], n[k], c[k], cn[k] } }' "${qfiles[@]}"
