#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare-verdict.sh DIR..: the last line of make compare (compare-smoke,
# compare-rules): one "verdict:" line over the IOPS rows of the series'
# kernel against vanilla in each DIR/report.json (patched; rule-a in
# compare-rules, never the alternative rule-b: fio-jobs/report.py
# --verdict, which names every row not met).  Exit 1 when a row is not
# met, unless COMPARE_VERDICT=report (lib/config.sh).  A row with fewer
# repetitions than a verdict needs is shown, not judged: with no row
# judged the line is "verdict: no verdict: N repetitions, below MIN_REPS"
# (fio-jobs/README.compare, "The margin").
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
files=()
for d in "$@"; do files+=("$d/report.json"); done
line=$(python3 "$top/fio-jobs/report.py" --verdict "${files[@]}")
rc=$?
if [ "$rc" = 3 ]; then
	if [ "$COMPARE_VERDICT" = report ]; then
		rc=0
		echo "compare: rows not met, COMPARE_VERDICT=report: exit 0" >&2
	else
		rc=1
		echo "compare: rows not met (why: report.txt beside each report.json); COMPARE_VERDICT=report exits 0" >&2
	fi
fi
echo
echo "${line:-verdict: no verdict: no report (above)}"
exit "$rc"
