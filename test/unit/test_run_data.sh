#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_run_data.sh (make lint): the committed rule table is what its
# committed run data give.  patches/evidence-rules.txt (which the blk-mq
# rule patch quotes) must come out byte for byte from
# patches/run-data/rules-matrix/TOPO/{rules.json,series-commit} (make
# export copies them from build/rules-matrix/) through
# fio-jobs/rules_matrix.py, the topologies in the order of the file's
# first line (its RULES_MATRIX).  Then the same data with one count
# changed must give another table: the comparison can fail.  Exit 1 on
# any failure.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ev=$top/patches/evidence-rules.txt
rd=$top/patches/run-data/rules-matrix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }
[ -f "$ev" ] || { echo "FAIL: no $ev"; exit 1; }
how=$(sed -n '1s/^# //p' "$ev")
topos=$(sed -n "s/.*RULES_MATRIX='\([^']*\)'.*/\1/p" <<< "$how")
[ -n "$topos" ] || { echo "FAIL: $ev: its first line names no RULES_MATRIX='...'"; exit 1; }
# regen DATA_DIR OUT: the table of DATA_DIR's topologies, in $topos' order.
regen() {
	local t dirs=()
	for t in $topos; do
		[ -f "$1/$t/rules.json" ] || { echo "FAIL: no $1/$t/rules.json (make export copies it)"; return 1; }
		dirs+=("$1/$t")
	done
	python3 "$top/fio-jobs/rules_matrix.py" --topo-dir "$top/harness/topo" --text "$2" \
		--how "$how" "${dirs[@]}" > /dev/null
}
if regen "$rd" "$tmp/matrix.txt"; then
	diff -u "$ev" "$tmp/matrix.txt" > "$tmp/diff" ||
		fail "patches/evidence-rules.txt differs from what its run data give (first lines of the diff):
$(head -n 12 "$tmp/diff")"
else
	fail "rules_matrix.py refused patches/run-data/rules-matrix"
fi
# The break-it half: every count of one metric the table shows (the
# placement inspector's objects, obj_remote_acc) of vanilla in the first
# topology's first target that has it (null_blk has none), raised by half.
cp -r "$rd" "$tmp/broken"
first=${topos%% *}
python3 - "$tmp/broken/$first/rules.json" <<'PY' || fail "could not alter $first/rules.json"
import json
import sys
p = sys.argv[1]
with open(p, encoding="utf-8") as f:
    j = json.load(f)
def bump(o):
    if isinstance(o, dict):
        return {k: bump(v) for k, v in o.items()}
    if isinstance(o, list):
        return [bump(v) for v in o]
    if isinstance(o, float) or (isinstance(o, int) and not isinstance(o, bool)):
        return o * 1.5
    return o
m = next(g["kernels"]["vanilla"]["obj_remote_acc"] for g in j["groups"]
         if "obj_remote_acc" in g["kernels"]["vanilla"])
m["nodes"] = {k: dict(v, mean=v["mean"] * 1.5, values=bump(v["values"]))
              for k, v in m["nodes"].items()}
for k in ("sum", "wsum"):
    m[k] = bump(m[k])
with open(p, "w", encoding="utf-8") as f:
    json.dump(j, f)
PY
if regen "$tmp/broken" "$tmp/broken.txt"; then
	cmp -s "$ev" "$tmp/broken.txt" && fail "a changed count in $first/rules.json gives the same table: the comparison cannot fail"
fi
[ "$bad" = 0 ] && echo "test_run_data: evidence-rules.txt regenerates from patches/run-data ($(wc -w <<< "$topos") topologies); a changed count changes it: passed"
exit "$bad"
