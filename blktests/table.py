#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table of a make blktests run, and two tables side by side.

table.py table RUN-DIR
    RUN-DIR is build/runs/blktests-K-TOPO (blktests/run.sh).  From
    blktests' own results (RUN-DIR/out/blktests/<nodev|disk>[_COND]/GROUP/NNN:
    status, reason, runtime, date), its output (out/blktests/check.log: the
    skip reasons, which the results do not keep), the disks' drivers
    (out/blktests/devices) and the guest's kernel log (out/dmesg.txt, else
    console.log), writes RUN-DIR/table.tsv and RUN-DIR/table.txt and prints
    the latter: per test and device, passed / failed / not run, blktests'
    reason (failed: output, exit, dmesg, kmemleak; not run: its skip
    reasons), the runtime, and the kernel log lines in the test's slice
    (from blktests' own "run blktests TEST at DATE" marker to the next one)
    that lib/kmsg.sh's KMSG_BAD matches.  The log before the first test
    and the shutdown (lib/kmsg.sh kmsg_judge_poweroff on console.log) are
    rows of their own.  A test check started but left no result for (the
    guest died or timed out in it) is "failed", reason "no result".

table.py compare VANILLA PATCHED
    Two run directories (or their table.tsv) side by side.  Exit 1 when
    the patched run adds a failure (a test and device that did not fail on
    vanilla fails), a kernel log line (more KMSG_BAD lines in a test's
    slice, before the tests, or a failed shutdown), or runs a test that ran
    on vanilla not at all (not run, or absent: lost coverage hides
    failures); 0 otherwise; 2 on a usage error.  Disks are named by their
    driver (megaraid_sas, ahci, virtio_scsi), not sdX, whose order differs
    between boots.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KMSG = os.path.join(TOP, 'lib', 'kmsg.sh')
COLUMNS = ('test', 'device', 'status', 'reason', 'runtime', 'kmsg')
STATUS_LINE = re.compile(
    r'^(?P<test>[a-z0-9_]+/[0-9]+)(?: => (?P<dev>\S+(?: \S+)*?))?'
    r'(?: \((?P<rest>.*)\))?\s*\[(?P<status>passed|failed|not run)\]\s*$')
NAME_LINE = re.compile(r'^(?P<test>[a-z0-9_]+/[0-9]+)(?: => (?P<dev>\S+))?\s')
MARK = re.compile(r'run blktests (?P<test>\S+) at (?P<date>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)')


def kmsg_bad():
    """lib/kmsg.sh's KMSG_BAD: one pattern for every judge of the project."""
    out = subprocess.run(['bash', '-c', '. "$1"; printf %s "$KMSG_BAD"', 'kmsg', KMSG],
                         check=True, capture_output=True, text=True).stdout
    return re.compile(out)


def read_devices(bt):
    """out/blktests/devices: "sdX DRIVER" lines (guest-run)."""
    devs = {}
    path = os.path.join(bt, 'devices')
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) == 2:
                devs[f[0]] = f[1]
    return devs


def read_results(bt):
    """Every result file: {(test, resdir): {key: value}}."""
    res = {}
    for resdir in sorted(os.listdir(bt)):
        d = os.path.join(bt, resdir)
        if not os.path.isdir(d):
            continue
        for group in sorted(os.listdir(d)):
            g = os.path.join(d, group)
            if not os.path.isdir(g):
                continue
            for name in sorted(os.listdir(g)):
                if not re.fullmatch(r'[0-9]+', name):
                    continue
                kv = {}
                for line in open(os.path.join(g, name), errors='replace'):
                    k, _, v = line.rstrip('\n').partition('\t')
                    kv[k] = v
                res[(group + '/' + name, resdir)] = kv
    return res


def read_check_log(path):
    """check's output: [(test, dev, status or None, [reasons])] in order.
    A name line without a status is a test check started (its result
    line follows when it ended)."""
    rows = []
    if not os.path.exists(path):
        return rows
    last = None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = STATUS_LINE.match(line)
        if m:
            last = [m['test'], m['dev'] or '', m['status'], [], False]
            # The status line follows its own name line: replace it.
            if rows and rows[-1][0] == last[0] and rows[-1][1] == last[1] and rows[-1][2] is None:
                rows.pop()
            rows.append(last)
            continue
        m = NAME_LINE.match(line)
        if m and '[' not in line:
            last = [m['test'], m['dev'] or '', None, [], False]
            rows.append(last)
            continue
        if last and line.startswith('    ') and last[2] == 'not run' and '...' not in line:
            last[3].append(line.strip())
        elif last and line.startswith('    ') and last[2] == 'failed' and not last[3]:
            # The evidence check prints: the output diff's first added
            # line, dmesg's first line, exit's status.
            t = line.strip()
            if (t.startswith('+') and not t.startswith('+++')) or t.startswith('exited with'):
                last[3].append(t.lstrip('+'))
            elif last[4]:
                last[3].append(t)
            last[4] = t == 'something found in dmesg:'

        elif not line.startswith('    '):
            last = None
    return rows


def slices(log, bad):
    """{(test, date): count of bad lines}, and the count before the first
    marker."""
    counts, key, before = {}, None, 0
    for line in log:
        m = MARK.search(line)
        if m:
            key = (m['test'], m['date'])
            counts[key] = 0
            continue
        if bad.search(line):
            if key is None:
                before += 1
            else:
                counts[key] += 1
    return counts, before


def make_table(run):
    bt = os.path.join(run, 'out', 'blktests')
    if not os.path.isdir(bt):
        sys.exit('table: no blktests results in %s (out/blktests)' % run)
    devices = read_devices(bt)
    results = read_results(bt)
    checklog = read_check_log(os.path.join(bt, 'check.log'))
    bad = kmsg_bad()
    logf = os.path.join(run, 'out', 'dmesg.txt')
    if not os.path.exists(logf):
        logf = os.path.join(run, 'console.log')
    log = open(logf, errors='replace').read().replace('\r', '').splitlines() if os.path.exists(logf) else []
    counts, before = slices(log, bad)

    def devname(resdir):
        if resdir.startswith('nodev'):
            return '-' + resdir[len('nodev'):]
        disk, _, cond = resdir.partition('_')
        return devices.get(disk, disk) + ('_' + cond if cond else '')

    rows, seen = [], set()
    # In check's order; the result files give status, reason, runtime.
    for test, dev, status, reasons, _ in checklog:
        cands = [k for k in results if k[0] == test and
                 (k[1].startswith('nodev') if not dev else k[1].split('_')[0] == dev.split()[0])
                 and k not in seen]
        if status is None and not cands:
            # The last slice of this test: the guest died or timed out in it.
            n = [c for (t, _), c in counts.items() if t == test]
            rows.append((test, devices.get(dev, dev) or '-', 'failed', 'no result', '-',
                         str(n[-1]) if n else '-'))
            continue
        if not cands:
            rows.append((test, devices.get(dev, dev) or '-', status.replace('passed', 'passed'),
                         '; '.join(reasons) or '-', '-', '-'))
            continue
        k = cands[0]
        seen.add(k)
        rows.append(row_of(k, results[k], reasons, counts, devname))
    for k in sorted(set(results) - seen):
        rows.append(row_of(k, results[k], [], counts, devname))
    shut = subprocess.run(['bash', '-c', '. "$1"; kmsg_judge_poweroff "$2"', 'kmsg', KMSG,
                           os.path.join(run, 'console.log')], capture_output=True, text=True)
    rows.append(('(before the tests)', '-', 'passed' if before == 0 else 'failed',
                 '-' if before == 0 else 'kernel log', '-', str(before)))
    rows.append(('(shutdown)', '-', 'passed' if shut.returncode == 0 else 'failed',
                 '-' if shut.returncode == 0 else
                 (shut.stdout.splitlines() or ['?'])[0].replace(run + '/', ''), '-', '-'))
    with open(os.path.join(run, 'table.tsv'), 'w') as f:
        f.write('\t'.join(COLUMNS) + '\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')
    text = render(run, rows, logf)
    with open(os.path.join(run, 'table.txt'), 'w') as f:
        f.write(text)
    sys.stdout.write(text)


def row_of(k, kv, reasons, counts, devname):
    status = {'pass': 'passed', 'fail': 'failed'}.get(kv.get('status', ''), kv.get('status', '?'))
    if status == 'failed':
        reason = kv.get('reason', '?') + (': ' + reasons[0] if reasons else '')
    elif status == 'not run':
        reason = '; '.join(reasons) or '?'
    else:
        reason = '-'
    n = counts.get((k[0], kv.get('date', '')))
    return (k[0], devname(k[1]), status, reason, kv.get('runtime', '-'),
            '-' if n is None else str(n))


def render(run, rows, logf):
    where = os.path.abspath(run)
    if where.startswith(TOP + os.sep):
        where = os.path.relpath(where, TOP)
    out = ['# blktests in %s: per test and device (- = nodev; a disk by its driver),' % where,
           '# status and blktests\' reason, runtime, kernel log lines KMSG_BAD matches'
           ' (lib/kmsg.sh; from %s)' % os.path.relpath(logf, run)]
    w = [max(len(r[i]) for r in rows + [COLUMNS]) for i in range(len(COLUMNS))]
    w[3] = min(w[3], 70)
    fmt = '%-*s  %-*s  %-*s  %-*s  %*s  %*s'
    out.append(fmt % (w[0], 'test', w[1], 'device', w[2], 'status', w[3], 'reason',
                      w[4], 'runtime', w[5], 'kmsg'))
    for r in rows:
        reason = r[3] if len(r[3]) <= 70 else r[3][:67] + '...'
        out.append(fmt % (w[0], r[0], w[1], r[1], w[2], r[2], w[3], reason, w[4], r[4], w[5], r[5]))
    tests = [r for r in rows if not r[0].startswith('(')]
    n = {s: sum(1 for r in tests if r[2] == s) for s in ('passed', 'failed', 'not run')}
    secs = sum(float(r[4].rstrip('s')) for r in tests if re.fullmatch(r'[0-9.]+s', r[4]))
    out.append('# %d passed, %d failed, %d not run; %.0f s in tests that ran (%d)'
               % (n['passed'], n['failed'], n['not run'], secs, n['passed'] + n['failed']))
    return '\n'.join(out) + '\n'


def load(path):
    if os.path.isdir(path):
        path = os.path.join(path, 'table.tsv')
    if not os.path.exists(path):
        sys.stderr.write('compare: no %s (table.py table RUN-DIR first)\n' % path)
        sys.exit(2)
    rows = {}
    lines = open(path).read().splitlines()
    if not lines or tuple(lines[0].split('\t')) != COLUMNS:
        sys.stderr.write('compare: %s is no table.tsv\n' % path)
        sys.exit(2)
    for line in lines[1:]:
        r = line.split('\t')
        rows[(r[0], r[1])] = r
    return rows


def num(s):
    return int(s) if s.isdigit() else 0


def compare(vpath, ppath):
    v, p = load(vpath), load(ppath)
    keys = list(v) + [k for k in p if k not in v]
    w = max([len(k[0]) + len(k[1]) + 1 for k in keys] + [10])
    print('%-*s  %-28s  %-28s  %s' % (w, 'test device', 'vanilla', 'patched', 'verdict'))
    regress = 0
    for k in keys:
        a, b = v.get(k), p.get(k)
        va = '%s%s' % (a[2], ' kmsg ' + a[5] if a and num(a[5]) else '') if a else 'absent'
        pb = '%s%s' % (b[2], ' kmsg ' + b[5] if b and num(b[5]) else '') if b else 'absent'
        why = []
        if b and b[2] == 'failed' and (not a or a[2] != 'failed'):
            why.append('adds a failure (%s)' % b[3])
        if b and a and num(b[5]) > num(a[5]):
            why.append('adds kernel log lines')
        if a and a[2] != 'not run' and (not b or b[2] == 'not run'):
            why.append('ran on vanilla, not on patched')
        verdict = 'REGRESSION: ' + ', '.join(why) if why else ('same' if va == pb else 'ok')
        regress += bool(why)
        print('%-*s  %-28s  %-28s  %s' % (w, (k[0] + ' ' + k[1]).strip(), va[:28], pb[:28], verdict))
    print('# %d regression(s) of patched (%s) against vanilla (%s)' % (regress, ppath, vpath))
    return 1 if regress else 0


def main(argv):
    if len(argv) == 3 and argv[1] == 'table':
        make_table(argv[2])
        return 0
    if len(argv) == 4 and argv[1] == 'compare':
        return compare(argv[2], argv[3])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
