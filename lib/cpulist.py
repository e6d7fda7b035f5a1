# SPDX-License-Identifier: GPL-2.0
"""cpulist.py: the Python's one parser of CPU and node lists as sysfs, the
topology files (harness/topo/) and blk-mq's cpu_list write them:
"0-1,4", "" = none.  The language of cpulist.sh (the shell's parser), which
it must agree with (test_cpulist.py checks): items N or N-M (N <= M)
separated by commas; whitespace around items and a newline at the end are
ignored, and so are empty items ("0-1,2-3," as case 01 joins lists).
Anything else raises ValueError.

Imported by lib/placement.py (beside it) and fio-jobs/meter_metrics.py
(through the symlink fio-jobs/cpulist.py).  Standard library only.
"""
import re

_ITEM = re.compile(r'([0-9]+)(?:-([0-9]+))?', re.ASCII)


def expand(text):
    """"0-1,4" -> [0, 1, 4]: sorted, each number once."""
    if not isinstance(text, str):
        raise ValueError(f'cpulist {text!r}: not a string')
    out = set()
    for item in text.split(','):
        item = item.strip()
        if not item:
            continue
        m = _ITEM.fullmatch(item)
        if not m:
            raise ValueError(f'cpulist {text!r}: {item!r} is not N or N-M')
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo > hi:
            raise ValueError(f'cpulist {text!r}: range {item!r} runs backwards')
        out.update(range(lo, hi + 1))
    return sorted(out)
