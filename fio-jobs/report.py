#!/usr/bin/env python3
"""Compare fio results recorded by run.sh, e.g. a vanilla and a patched kernel.

    report.py [--baseline LABEL] [--text F] [--json F] [--png F]
              [--meter-text F] [--meter-summary F] [--meter-png F] [--meter-llc KIB:WAYS:LINE] DIR [DIR..]
    report.py --selftest

Each DIR is an OUTDIR/LABEL written by run.sh (it holds manifest.tsv) or an
OUTDIR holding several such LABEL directories.  Runs are grouped by
(job, queue depth, CPU node, memory node) and label (= kernel).  For every
group the table gives IOPS mean +- sample stddev over the repetitions, the
p99 completion latency (mean over repetitions), the change of the mean
against the baseline label and whether that change is significant by a
two-sided Welch t-test at the 95% level.  Runs of several targets (run.sh
FIO_TARGET, manifest column "target") are grouped by target first.

When the runs carry meter windows (snimeter QEMU plugin) or perf counts
(bare metal), a second table gives per group the IOPS 95% confidence
interval and the remote memory accesses / remote LLC misses per I/O with
their ratio to the baseline (meter_report.py): appended to --text, in
--json, and alone in --meter-text, charted in --meter-png; --meter-summary
gets only the compact vanilla -> patched table (what the cover letter quotes).

Standard library only: the statistics are in stats.py; --selftest runs its
unit tests (test_stats.py) and this directory's other test_*.py.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import meter_report
import stats
from stats import mean, stddev

ALPHA = 0.05                       # two-sided significance level
JOB_ORDER = ["randread-4k", "randwrite-4k", "randrw-70-30-4k", "seqread-128k"]


def selftest():
    """The unit tests of stats.py and of this report (test_*.py here) and
    meter_report's arithmetic; returns the number of failures."""
    import unittest
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here, pattern="test_*.py", top_level_dir=here)
    res = unittest.TextTestRunner(stream=sys.stdout, verbosity=1).run(suite)
    bad = len(res.failures) + len(res.errors) + (0 if res.testsRun else 1)
    bad += meter_report.selftest()
    print("selftest: %s" % ("passed" if not bad else "%d FAILED" % bad))
    return bad


# --------------------------------------------------------------------------
# Reading run.sh results
# --------------------------------------------------------------------------

def manifests(path):
    """manifest.tsv files of DIR, or of its immediate LABEL subdirectories."""
    own = os.path.join(path, "manifest.tsv")
    if os.path.isfile(own):
        return [own]
    subs = [os.path.join(path, d, "manifest.tsv") for d in sorted(os.listdir(path))]
    return [m for m in subs if os.path.isfile(m)]


def load_fio(path):
    """IOPS and p99 clat (usec, None if no I/O of that kind) of one fio run."""
    with open(path) as f:
        text = f.read()
    # fio may print warnings ahead of the JSON document into --output.
    doc = json.loads(text[text.index("{"):])
    jobs = doc["jobs"]      # group_reporting: one entry for the whole job
    iops = sum(j["read"]["iops"] + j["write"]["iops"] for j in jobs)

    def p99(ddir):
        clat = jobs[0][ddir]["clat_ns"]
        if not clat.get("N"):
            return None
        return clat["percentile"]["99.000000"] / 1000.0

    return {"iops": iops, "p99_read": p99("read"), "p99_write": p99("write"),
            "total_ios": sum(j["read"].get("total_ios", 0) + j["write"].get("total_ios", 0)
                             for j in jobs)}


def load(dirs):
    """{(target, job, qd, cpu_node, mem_node): {label: [run, ..]}}

    manifest.tsv: label job qd cpu_node mem_node rep file [target window
    dev_ios [cpus irq_cpus]] (the last ones from newer run.sh; "-" = none)."""
    runs = {}   # json path -> (key, label, rep, extra); a repeated run overrides
    for d in dirs:
        found = manifests(d)
        if not found:
            sys.exit("report.py: no manifest.tsv in %s or its subdirectories" % d)
        for m in found:
            with open(m) as f:
                for line in f:
                    cols = line.rstrip("\n").split("\t")
                    if len(cols) not in (7, 10, 12) or cols[0] == "label":
                        continue
                    cols += ["-"] * (12 - len(cols))
                    label, job, qd, cpu, mem, rep, name, target, win, dios, cpus, irqc = cols
                    path = os.path.realpath(os.path.join(os.path.dirname(m), name))
                    extra = {"dir": os.path.dirname(m), "file": name,
                             "window": int(win) if win.isdigit() else None,
                             "dev_ios": int(dios) if dios.isdigit() else None,
                             "cpu_node": cpu,
                             "cpus": None if cpus == "-" else cpus,
                             "irq_cpus": None if irqc == "-" else irqc,
                             "perf_file": path[:-len(".json")] + ".perf"
                             if path.endswith(".json") else None}
                    runs[path] = ((target, job, int(qd), cpu, mem), label, int(rep), extra)
    groups = {}
    for path, (key, label, rep, extra) in runs.items():
        if not os.path.isfile(path):
            print("report.py: warning: %s listed but missing, skipped" % path,
                  file=sys.stderr)
            continue
        run = load_fio(path)
        run.update(extra)
        run["rep"] = rep
        groups.setdefault(key, {}).setdefault(label, []).append(run)
    return groups


# --------------------------------------------------------------------------
# Table
# --------------------------------------------------------------------------

def build_rows(groups, baseline):
    def job_rank(job):
        return (JOB_ORDER.index(job) if job in JOB_ORDER else len(JOB_ORDER), job)

    def num(s):      # sort node numbers numerically
        return (0, int(s)) if s.isdigit() else (1, s)

    rows = []
    def target_rank(t):     # scsi_debug first, the HBAs in topology order
        order = ["-", "scsi_debug", "megaraid_sas", "ahci", "virtio_scsi"]
        return (order.index(t) if t in order else len(order), t)

    for key in sorted(groups, key=lambda k: (target_rank(k[0]), job_rank(k[1]), k[2],
                                             num(k[3]), num(k[4]))):
        target, job, qd, cpu, mem = key
        labels = sorted(groups[key], key=lambda l: (l != baseline, l))
        base = groups[key].get(baseline)
        base_iops = [r["iops"] for r in base] if base else None
        for label in labels:
            rs = sorted(groups[key][label], key=lambda r: r["rep"])
            iops = [r["iops"] for r in rs]
            m, sd = mean(iops), stddev(iops)
            row = {
                "target": target, "job": job, "qd": qd, "label": label, "cpu_node": cpu,
                "mem_node": mem, "n": len(iops), "iops": iops,
                "iops_mean": m, "iops_stddev": sd,
                "iops_stddev_pct": None if sd is None or m == 0 else 100.0 * sd / m,
                "change_pct": None, "t": None, "df": None, "p_value": None,
                "significant": None, "ratio": None, "ratio_ci95": None,
            }
            for ddir in ("read", "write"):
                vals = [r["p99_" + ddir] for r in rs if r["p99_" + ddir] is not None]
                row["p99_%s_usec" % ddir] = mean(vals) if vals else None
            if base_iops is not None and label != baseline:
                bm = mean(base_iops)
                row["change_pct"] = None if bm == 0 else 100.0 * (m - bm) / bm
                rc = stats.ratio_ci95(base_iops, iops)
                if rc is not None:
                    row["ratio"], row["ratio_ci95"] = rc[0], [rc[1], rc[2]]
                elif bm:
                    row["ratio"] = m / bm
                w = stats.welch(base_iops, iops)
                if w is not None:
                    row["t"], row["df"], row["p_value"] = w
                    if math.isinf(w[0]):      # zero spread, different means
                        row["t"] = None       # (keep the JSON standard)
                    row["significant"] = w[2] < ALPHA
            rows.append(row)
    return rows


def fmt_table(rows, baseline):
    # A target column only for results of several (or named) targets.
    targets = any(r["target"] != "-" for r in rows)
    head = (["target"] if targets else []) + ["job", "qd", "kernel", "CPU node", "IOPS mean ± stddev (%)", "n",
            "p99 clat usec", "vs " + (baseline or "baseline"), "ratio [95% CI]", "significant"]
    lines = []
    for r in rows:
        if r["iops_stddev"] is None:
            iops = "%.0f ± n/a" % r["iops_mean"]
        else:
            iops = "%.0f ± %.0f (%.1f%%)" % (r["iops_mean"], r["iops_stddev"],
                                             r["iops_stddev_pct"] or 0.0)
        # p99 latency: r = reads, w = writes (mixed jobs show both)
        lat = " / ".join("%s %.1f" % (d[0], r["p99_%s_usec" % d])
                         for d in ("read", "write") if r["p99_%s_usec" % d] is not None)
        node = r["cpu_node"] if r["mem_node"] == r["cpu_node"] else \
            "%s (mem %s)" % (r["cpu_node"], r["mem_node"])
        ratio = "-"
        if r["label"] == baseline:
            change, sig = "baseline", "-"
        elif r["change_pct"] is None:
            change, sig = "-", "-"
        else:
            change = "%+.1f%%" % r["change_pct"]
            if r["ratio_ci95"] is not None:
                ratio = "%.3f [%.3f, %.3f]" % (r["ratio"], r["ratio_ci95"][0], r["ratio_ci95"][1])
            elif r["ratio"] is not None:
                ratio = "%.3f [n/a]" % r["ratio"]
            p = r["p_value"]
            sig = "n/a" if p is None else "%s (%s)" % (
                "YES" if r["significant"] else "no",
                "p<0.001" if p < 0.001 else "p=%.3f" % p)
        lines.append(([r["target"]] if targets else []) +
                     [r["job"], str(r["qd"]), r["label"], node, iops,
                      str(r["n"]), lat or "-", change, ratio, sig])
    # blank line between (target,) job, qd
    out = meter_report.render_table(head, lines, 3 if targets else 2)
    out += ["",
            "IOPS = read + write IOPS of the group-reported job; stddev is the",
            "sample stddev over repetitions (n/a with n < 2).  p99 clat: 99th",
            "percentile completion latency, mean over repetitions; r = reads,",
            "w = writes.  significant: two-sided Welch t-test against the",
            "baseline at 95% (p < 0.05); n/a when either side has n < 2.",
            "ratio: mean IOPS / the baseline's; its 95% CI by the delta method",
            "on log(ratio) with Welch-Satterthwaite degrees of freedom.",
            "VM results: no-regression check only, never a NUMA gain (see README)."]
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Chart
# --------------------------------------------------------------------------

def plot(rows, png):
    """Clustered bars of mean IOPS with stddev error bars, one series per label."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        print("report.py: gnuplot not found, chart %s skipped "
              "(apt-get install gnuplot-nox)" % png, file=sys.stderr)
        return False
    labels = []
    cats = []
    cell = {}
    for r in rows:
        cat = "%s qd%d cpu%s" % (r["job"], r["qd"], r["cpu_node"])
        if r["target"] != "-":
            cat = r["target"] + " " + cat
        if r["mem_node"] != r["cpu_node"]:
            cat += " mem%s" % r["mem_node"]
        if cat not in cats:
            cats.append(cat)
        if r["label"] not in labels:
            labels.append(r["label"])
        cell[cat, r["label"]] = (r["iops_mean"], r["iops_stddev"] or 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")
        with open(data, "w") as f:
            # one line per category: "name" mean1 sd1 mean2 sd2 ...
            for c in cats:
                vals = []
                for l in labels:      # NaN: label has no runs for this category
                    m, sd = cell.get((c, l), (None, None))
                    vals += ["NaN", "NaN"] if m is None else ["%g" % m, "%g" % sd]
                f.write('"%s" %s\n' % (c, " ".join(vals)))
        script = """
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size %(w)d,600 noenhanced
} else {
    set terminal png size %(w)d,600 noenhanced
}
set output "%(png)s"
set title "fio IOPS per job / queue depth / CPU node: mean and stddev over repetitions"
set ylabel "IOPS"
set yrange [0:%(ymax)g]
set grid ytics
set key outside right top
set datafile missing "NaN"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set xtics rotate by 30 right nomirror
set bmargin 9
labels = "%(labels)s"
plot for [i=1:%(n)d] "%(data)s" using (column(2*i)):(column(2*i+1)):xtic(1) title word(labels, i)
""" % {"w": max(800, 90 * len(cats) * max(1, len(labels)) // 2 + 300),
       "png": png.replace('"', '\\"'), "labels": " ".join(labels),
       "n": len(labels), "data": data,
       # room above the highest error bar (autoscale ignores error bars)
       "ymax": 1.1 * max([m + sd for m, sd in cell.values()] + [1.0])}
        res = subprocess.run([gnuplot], input=script, text=True,
                             capture_output=True)
        if res.returncode != 0:
            print("report.py: gnuplot failed, chart skipped:\n" + res.stderr,
                  file=sys.stderr)
            return False
    return True


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", help='label to compare with (default "vanilla" if present)')
    ap.add_argument("--text", help="also write the table to this file")
    ap.add_argument("--json", help="write the table as JSON to this file")
    ap.add_argument("--png", help="write a bar chart with error bars (gnuplot)")
    ap.add_argument("--meter-text", help="write the remote-access-per-I/O table to this file")
    ap.add_argument("--meter-summary", help="write the compact summary of it to this file")
    ap.add_argument("--meter-png", help="chart remote accesses and misses per I/O "
                    "(gnuplot; fails without it)")
    ap.add_argument("--meter-llc", help="the meter's LLC model (KIB:WAYS[:LINE]), for the text")
    ap.add_argument("--vm-clock", help="what the guests' clock was (compare.sh), for the text")
    ap.add_argument("--selftest", action="store_true",
                    help="check the t-test numerics and exit")
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    args = ap.parse_args()
    if args.selftest:
        sys.exit(1 if selftest() else 0)
    if not args.dirs:
        ap.error("at least one DIR is needed")

    groups = load(args.dirs)
    if not groups:
        sys.exit("report.py: no results found")
    labels = {l for g in groups.values() for l in g}
    baseline = args.baseline
    if baseline is None:
        baseline = "vanilla" if "vanilla" in labels else None
    elif baseline not in labels:
        sys.exit("report.py: baseline label %r not found (labels: %s)"
                 % (baseline, ", ".join(sorted(labels))))

    rows = build_rows(groups, baseline)
    try:
        have_meter = meter_report.add_meter(rows, groups, baseline)
    except ValueError as e:
        if args.meter_text or args.meter_png:
            sys.exit("report.py: meter: %s" % e)
        print("report.py: warning: meter counts left out: %s" % e, file=sys.stderr)
        have_meter = False
        for r in rows:
            r["meter"] = {}
    if (args.meter_text or args.meter_png) and not have_meter:
        sys.exit("report.py: --meter-text/--meter-png given, but no run has meter "
                 "windows or perf counts")
    table = fmt_table(rows, baseline)
    if args.vm_clock:
        table += "Guest clock: %s.\n" % args.vm_clock
    mtable = meter_report.fmt_meter_table(rows, baseline, args.meter_llc) if have_meter else ""
    otable = meter_report.fmt_object_table(rows, baseline) if have_meter else ""
    stable = meter_report.fmt_summary(rows, baseline) if have_meter else ""
    split = meter_report.fmt_split_table(rows, baseline) if have_meter else ""
    if split:
        stable += "\nSubmit vs other CPUs, and the sum over the CPU nodes\n\n" + split
    osplit = meter_report.fmt_split_table(rows, baseline, meter_report.OBJ_SPLIT_COLS) \
        if have_meter else ""
    if osplit:
        stable += "\nSCSI objects: submit vs other CPUs\n\n" + osplit
    if stable:
        mtable = "Summary\n\n" + stable + "\n" + mtable
    if otable:
        mtable += "\nKernel remote accesses per I/O by object kind\n\n" + otable
    if mtable:
        table += "\nRemote memory accesses per I/O\n\n" + mtable
    sys.stdout.write(table)
    if args.meter_summary and stable:
        with open(args.meter_summary, "w") as f:
            f.write(stable)
    if args.meter_text:
        with open(args.meter_text, "w") as f:
            f.write(mtable)
    if args.text:
        with open(args.text, "w") as f:
            f.write(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"baseline": baseline, "alpha": ALPHA, "vm_clock": args.vm_clock,
                       "iops": "read + write IOPS, sample stddev over repetitions",
                       "p99": "clat_ns percentile 99.000000 in usec, mean over repetitions",
                       "iops_ci95": "half width of the 95% confidence interval of the mean IOPS",
                       "ratio": "mean IOPS / the baseline's mean IOPS",
                       "ratio_ci95": "95% confidence interval [lo, hi] of ratio (delta "
                                     "method on log(ratio), Welch-Satterthwaite df)",
                       "meter": dict([(k, d) for k, _t, d in meter_report.METER_METRICS] +
                                     meter_report.METER_SPLIT + meter_report.METER_EXTRA +
                                     [("ratio", "mean / the baseline's mean"),
                                      ("per I/O", "count in the run's window / I/O requests "
                                       "of the window (block layer), else fio total_ios")]),
                       "rows": rows}, f, indent=1)
            f.write("\n")
    if args.png:
        plot(rows, args.png)
    if args.meter_png:
        meter_report.plot_meter(rows, args.meter_png)


if __name__ == "__main__":
    main()
