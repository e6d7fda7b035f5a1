#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""split.py METER-FILE WINDOW CPUS NODE MODE: print "SUBMIT OTHER", the
remote accesses of one meter window that the comparison report's split
(fio-jobs/meter_metrics.py) gives to the submitting CPUs (CPUS, a cpulist)
and to the others, for submitters on NODE in MODE (kernel|user).  The
known-answer test (run.sh) checks the report's own code with it; run with
PYTHONPATH=fio-jobs.  fio-jobs/test_meter_report.py runs it too, so that a
change of the report's functions cannot leave it behind.  Exit 1 when the
window has no split."""
import sys

import cpulist
import meter_metrics
import meter_parse


def main(argv):
    if len(argv) != 6:
        sys.stderr.write(__doc__)
        return 2
    path, window, cpus, node, mode = argv[1:]
    wins = meter_parse.parse_meter(path)
    c = meter_metrics.split_counts(wins[int(window)], set(cpulist.expand(cpus)), node, mode)
    if not c:
        print("split.py: window %s of %s has no split" % (window, path), file=sys.stderr)
        return 1
    print(c["acc_sub"], c["acc_oth"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
