#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_compare_verdict.sh (make lint): make compare's last line
# (harness/compare-verdict.sh) on report.json files that report.py writes
# here from stand-in fio results, as compare.sh --rules would: kernels
# vanilla, rule-a (the series) and rule-b (an alternative).  The verdict
# judges rule-a against vanilla, never rule-b; with fewer repetitions
# than MIN_REPS it says so ("verdict: no verdict: N repetitions, below
# MIN_REPS"), exit 0; a series row not met exits 1, 0 with
# COMPARE_VERDICT=report; "verdict:" is the last line every time.
# shellcheck source=unit-lib.sh
. "$(dirname "$0")/unit-lib.sh"
# rules DIR REPS SERIES-IOPS ALT-IOPS: DIR/report.json of vanilla (1000
# IOPS), rule-a and rule-b, REPS repetitions each.
rules() {
	python3 - "$top/fio-jobs" "$@" <<'PY' || fail "report.py did not write $2/report.json"
import os, subprocess, sys
sys.path.insert(0, sys.argv[1])
from test_report import write_label
d, reps, series, alt = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
wob = [0, 1, -1] * reps
dirs = [write_label(d, k, {"0": [x + w for w in wob[:reps]]})
        for k, x in (("vanilla", 1000), ("rule-a", series), ("rule-b", alt))]
subprocess.run([sys.executable, os.path.join(sys.argv[1], "report.py"), "--baseline", "vanilla",
                "--json", os.path.join(d, "report.json")] + dirs, check=True, stdout=subprocess.DEVNULL)
PY
}
# verdict DIR WANT-RC WANT-LAST-LINE [VAR=VALUE]
check() {
	local d=$1 rc=$2 want=$3 out got
	shift 3
	n=$((n + 1))
	out=$(env "$@" "$top/harness/compare-verdict.sh" "$d" 2>/dev/null)
	got=$?
	[ "$got" = "$rc" ] || fail "$d $*: exit $got, want $rc"
	[ "$(tail -n 1 <<< "$out")" = "$want" ] || fail "$d $*: last line '$(tail -n 1 <<< "$out")', want '$want'"
}
# The alternative slowed to half, the series unchanged: met (rule-b is not
# the series).
rules "$tmp/alt-slow" 8 1000 500
check "$tmp/alt-slow" 0 "verdict: met in 1 of 1 rows" COMPARE_VERDICT=fail
# The series slowed to half: not met, naming rule-a's row.
rules "$tmp/series-slow" 8 500 1000
want="verdict: not met in 1 of 1 rows: sd randread-4k qd32 node 0 (remote) rule-a"
check "$tmp/series-slow" 1 "$want" COMPARE_VERDICT=fail
check "$tmp/series-slow" 0 "$want" COMPARE_VERDICT=report
# compare-rules' default repetitions (5), compare-smoke's (2): no verdict,
# said, exit 0 even with the series slowed.
for reps in 5 2; do
	rules "$tmp/few$reps" "$reps" 500 500
	check "$tmp/few$reps" 0 "verdict: no verdict: $reps repetitions, below MIN_REPS (a verdict needs 8 repetitions per kernel: fio-jobs/README.compare)" COMPARE_VERDICT=fail
done
# No report at all: exit 1, still a last verdict line.
check "$tmp/none" 1 "verdict: no verdict: no report (above)" COMPARE_VERDICT=fail
verdict test_compare_verdict "$n verdicts of compare-verdict.sh"
