#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_cpulist.sh (make lint): cpulist.sh against lists written by hand,
# under set -euo pipefail as fio-jobs/run.sh sources it.  Exit 1 with the
# cases that differ.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/cpulist.sh
. "$here/../../lib/cpulist.sh"
bad=0 n=0
t() { # WHAT GOT EXPECTED
	n=$((n + 1))
	[ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', expected '$3'"; bad=1; }
}
t 'expand "0-1,4"' "$(cpulist_expand 0-1,4)" "0 1 4"
t 'expand ""' "$(cpulist_expand "")" ""
t 'expand "7"' "$(cpulist_expand 7)" "7"
t 'expand "0-1,2-3," (01-topology joins)' "$(cpulist_expand 0-1,2-3,)" "0 1 2 3"
t 'expand "10-12"' "$(cpulist_expand 10-12)" "10 11 12"
t 'count "0-1,4"' "$(cpulist_count 0-1,4)" 3
t 'count ""' "$(cpulist_count "")" 0
t 'count "0-15"' "$(cpulist_count 0-15)" 16
t 'has 4 "0-1,4"' "$(cpulist_has 4 0-1,4 && echo y || echo n)" y
t 'has 1 "0-1,4"' "$(cpulist_has 1 0-1,4 && echo y || echo n)" y
t 'has 2 "0-1,4"' "$(cpulist_has 2 0-1,4 && echo y || echo n)" n
t 'has 1 "10-11"' "$(cpulist_has 1 10-11 && echo y || echo n)" n
t 'has 0 ""' "$(cpulist_has 0 "" && echo y || echo n)" n
[ "$n" -gt 0 ] || { echo "FAIL: no case ran"; bad=1; }
[ "$bad" = 0 ] && echo "test_cpulist: $n cases passed"
exit "$bad"
