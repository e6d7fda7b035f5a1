#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare fio results recorded by run.sh, e.g. a vanilla and a patched kernel.

    report.py [--baseline LABEL] [--text F] [--json F] [--png F]
              [--meter-text F] [--meter-summary F] [--meter-png F]
              [--meter-llc KIB:WAYS[:LINE]] [--vm-clock TEXT] [--run-id ID]
              DIR [DIR..]
    report.py --out REPORTDIR VANILLA_DIR PATCHED_DIR
    report.py --from-json FILE --part iops|meter
    report.py --verdict FILE [FILE..]
    report.py --from-json FILE --letter DIR

Each DIR is an OUTDIR/LABEL written by run.sh (it holds manifest.tsv) or an
OUTDIR holding several such LABEL directories.  Runs are grouped by
(job, queue depth, CPU node, memory node) and label (= kernel).  For every
group the table gives IOPS mean +- sample stddev over the repetitions, the
p99 completion latency (mean over repetitions), the change of the mean
against the baseline label and whether that change is significant by a
two-sided Welch t-test at the 95% level.  Runs of several targets (run.sh
--target, manifest column "target") are grouped by target first.

When the runs carry meter windows (scsi_numa_meter QEMU plugin) or perf counts
(bare metal), a second table gives per group the IOPS 95% confidence
interval and the remote memory accesses / remote LLC misses per I/O with
their ratio to the baseline (meter_report.py): appended to --text, in
--json, and alone in --meter-text, charted in --meter-png; --meter-summary
gets only the compact vanilla -> patched table (the cover letter computes
its own meter lines from --json's file, evidence.txt prints this table
from it with --part meter).

--run-id ID records which run made the results in --json ("run_id"; compare.sh
gives it).  --from-json FILE prints, from such a JSON alone, the IOPS table
(--part iops: what --text holds) or the meter's compact summary (--part
meter: what --meter-summary holds): the cover letter reads these.
--verdict FILE..: one line over the IOPS rows of the series' kernel in
such JSONs (not those of iops_table.py's ALTERNATIVES: rule-b), "verdict:
met in N of N rows", "verdict: not met in N of M rows: ROW; ROW" (exit 3)
or "verdict: no verdict: N repetitions, below MIN_REPS" (stats.py);
harness/compare-verdict.sh ends make compare with it.
--from-json FILE --letter DIR: what the cover letter reads, in one run
(harness/cover-letter.sh): DIR/run_id, DIR/verdict (the --verdict line,
its exit status in DIR/verdict.rc, 1 where no row has one), DIR/iops and DIR/meter (--part's
tables) and DIR/meter-lines (one line a target: the patched/vanilla ratio
of remote accesses per I/O, all and to the SCSI objects, summed over the
CPU nodes, with its 95% CI; empty without meter counts).
--vm-clock TEXT says in the text what the guests' clock was (compare.sh).
--out REPORTDIR: two kernels, VANILLA_DIR and PATCHED_DIR (one label each,
the first the baseline): writes REPORTDIR/report.{txt,json,tsv} and prints
report.txt.

Standard library only.  The parts: results.py reads run.sh's results,
iops_table.py makes the IOPS tables with the verdict of stats.py,
meter_metrics.py / meter_parse.py / meter_report.py the meter's tables,
plot.py the charts.  Tests: test_*.py (python3 -m unittest, make lint).
"""
import argparse
import json
import os
import sys

import meter_metrics
import meter_report
import plot as plot_bars
import stats
from iops_table import (ALPHA, TSV_HEAD, build_rows, fmt_compare, fmt_table,
                        perf_table, rejudge, tsv_rows, verdict_line)
from results import InputError, load, load_iouring, run_info


def write_out(outdir, dirs, groups, rows, baseline, label):
    """--out: report.txt, report.json, report.tsv under @outdir."""
    peak_rows = build_rows(load_iouring(dirs), baseline)
    text = ["fio: %s vs %s (%s)" % (label, baseline, " vs ".join(dirs)), ""]
    text += run_info(dirs) + [""]
    table = fmt_compare(rows, baseline, label)
    text.append(table or "(no target, job, qd and submitter was run on both kernels)\n")
    if peak_rows:
        text += ["Peak IOPS: t/io_uring, 4 KiB random reads, no polling", "",
                 fmt_compare(peak_rows, baseline, label, legend=False)]
    else:
        text += ["Peak IOPS (t/io_uring): not run (run-info.txt says why).", ""]
    ptab = perf_table(rows, baseline, label)
    text += ["Remote DRAM per I/O (perf)", "", ptab] if ptab else \
        ["Remote DRAM per I/O (perf): not counted (run-info.txt says why).", ""]
    text += ["All runs, each kernel", "", fmt_table(rows, baseline)]
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "report.txt"), "w") as f:
        f.write("\n".join(text))
    with open(os.path.join(outdir, "report.tsv"), "w") as f:
        f.write(tsv_rows(rows + peak_rows, baseline, label))
    with open(os.path.join(outdir, "report.json"), "w") as f:
        json.dump({"baseline": baseline, "label": label, "dirs": dirs,
                   "margin": {"delta": stats.DELTA, "min_lower_bound": 1 - stats.DELTA,
                              "text": stats.MARGIN_WORDS},
                   "columns": TSV_HEAD,
                   "pairs": [dict(zip(TSV_HEAD, ln.split("\t")))
                             for ln in tsv_rows(rows + peak_rows, baseline, label).splitlines()[1:]],
                   "rows": rows, "peak_rows": peak_rows}, f, indent=1)
        f.write("\n")
    return "\n".join(text)


# --------------------------------------------------------------------------
# Chart
# --------------------------------------------------------------------------

def plot(rows, png):
    """Clustered bars of mean IOPS with stddev error bars, one series per
    label; skipped with a message without gnuplot."""
    labels, cats, cell = [], [], {}
    for r in rows:
        cat = "%s qd%d cpu%s" % (r["job"], r["qd"], r["cpu_node"])
        if r["target"] != "-":
            cat = r["target"] + " " + cat
        if r["mem_node"] not in (r["cpu_node"], "default", "none"):
            cat += " mem%s" % r["mem_node"]
        if cat not in cats:
            cats.append(cat)
        if r["label"] not in labels:
            labels.append(r["label"])
        cell[cat, r["label"]] = (r["iops_mean"], r["iops_stddev"] or 0.0)
    return plot_bars.bars(png, [("fio IOPS per job / queue depth / CPU node: mean and stddev "
                                 "over repetitions", "IOPS", cell, False)], cats, labels)


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
                    "(gnuplot; skipped without it)")
    ap.add_argument("--meter-llc", help="the meter's LLC model (KIB:WAYS[:LINE]), for the text")
    ap.add_argument("--vm-clock", help="what the guests' clock was (compare.sh), for the text")
    ap.add_argument("--out", metavar="REPORTDIR",
                    help="two kernels: VANILLA_DIR PATCHED_DIR (one label each, the first is the "
                    "baseline); write REPORTDIR/report.{txt,json,tsv} and print report.txt")
    ap.add_argument("--run-id", help="the run that made the results (compare.sh), for --json")
    ap.add_argument("--from-json", metavar="FILE",
                    help="print --part of the report from a --json FILE alone")
    ap.add_argument("--part", choices=("iops", "meter"),
                    help="with --from-json: the IOPS table or the meter summary")
    ap.add_argument("--letter", metavar="DIR",
                    help="with --from-json: the cover letter's inputs, one file each, in DIR")
    ap.add_argument("--verdict", nargs="+", metavar="FILE",
                    help="one verdict line over the IOPS rows of --json FILEs; exit 3 "
                    "when a row is not met")
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    args = ap.parse_args()
    if args.verdict:
        if args.dirs or args.from_json or args.part or args.letter:
            ap.error("--verdict FILE.. alone")
        try:
            line, ok = verdict_line([r for f in args.verdict for r in load_json(f)[1]])
        except InputError as e:
            sys.exit("report.py: %s" % e)
        print(line)
        sys.exit(0 if ok else 3)
    if args.letter:
        if not args.from_json or args.part or args.dirs:
            ap.error("--from-json FILE --letter DIR, and no --part or DIR")
        try:
            letter_parts(args.from_json, args.letter)
        except InputError as e:
            sys.exit("report.py: %s" % e)
        return
    if args.from_json or args.part:
        if not (args.from_json and args.part) or args.dirs:
            ap.error("--from-json FILE --part iops|meter, and no DIR")
        try:
            sys.stdout.write(from_json(args.from_json, args.part))
        except InputError as e:
            sys.exit("report.py: %s" % e)
        return
    if not args.dirs:
        ap.error("at least one DIR is needed")
    if args.out and len(args.dirs) != 2:
        ap.error("--out takes two DIRs: the vanilla kernel's, then the patched kernel's")
    try:
        report(args)
    except InputError as e:
        sys.exit("report.py: %s" % e)


def iops_text(rows, baseline, vm_clock):
    """The IOPS table with its verdicts (--text, --from-json --part iops)."""
    table = fmt_table(rows, baseline)
    if vm_clock:
        table += "Guest clock: %s.\n" % vm_clock
    return table


def meter_summary_text(rows, baseline):
    """The meter's compact summary and its split tables (--meter-summary,
    --from-json --part meter); empty without meter counts."""
    stable = meter_report.fmt_summary(rows, baseline)
    split = meter_report.fmt_split_table(rows, baseline)
    if split:
        stable += "\nSubmit vs other CPUs, and the sum over the CPU nodes\n\n" + split
    osplit = meter_report.fmt_split_table(rows, baseline, meter_metrics.OBJ_SPLIT_COLS)
    if osplit:
        stable += "\nSCSI objects: submit vs other CPUs\n\n" + osplit
    return stable


def load_json(path):
    """(doc, rows) of a --json file, the rows judged by today's rule.
    InputError on a file that is not such a JSON."""
    try:
        with open(path) as f:
            doc = json.load(f)
        rejudge(doc["rows"], doc["baseline"])
        return doc, doc["rows"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError("%s: not a report.py --json file (%s: %s)" % (path, type(e).__name__, e))


def from_json(path, part):
    """--from-json: @part ("iops" or "meter") of the report, from the rows
    that --json wrote."""
    doc, rows = load_json(path)
    if part == "iops":
        return iops_text(rows, doc["baseline"], doc.get("vm_clock"))
    return meter_summary_text(rows, doc["baseline"]) if doc.get("have_meter", True) else ""


def meter_letter_lines(rows, baseline):
    """Per target, the patched/vanilla ratio of the kernel's remote
    accesses per I/O and of those to the SCSI objects, summed over the CPU
    nodes (meter_metrics.split_sums, as the split tables), with the 95% CI
    where there are repetitions: the letter's lines.  The misses (an LLC
    model) and every spread are in evidence.txt's full tables."""
    out = {}
    for cols, what in ((meter_metrics.SPLIT_COLS, "acc"),
                       (meter_metrics.OBJ_SPLIT_COLS, "SCSI obj acc")):
        _sums, ratios, spread = meter_metrics.split_sums(rows, baseline, cols)
        for (g, label), r in ratios.items():
            cells = out.setdefault((g.name(), label), [])
            if r[cols[2]] is None:
                continue
            ci = spread.get((g, label), {}).get(cols[2], (None, None))[1]
            cells.append("%s x%.2f" % (what, r[cols[2]]) + (" [%.2f, %.2f]" % tuple(ci) if ci else ""))
    return "".join("%s%s: %s\n" % (name, "" if label == "patched" else " (%s)" % label, "; ".join(cells))
                   for (name, label), cells in out.items())


def letter_parts(path, outdir):
    """--from-json FILE --letter DIR: the cover letter's inputs.  Only a
    FILE that is no JSON object fails (InputError); a part that cannot be
    made is empty, its error in DIR/PART.err, and a verdict that cannot
    be given has status 1 (as --verdict's exit)."""
    try:
        with open(path) as f:
            doc = json.load(f)
        run_id = doc.get("run_id")
    except (OSError, ValueError, AttributeError) as e:
        raise InputError("%s: not JSON (%s: %s)" % (path, type(e).__name__, e))
    parts = {"run_id": "%s\n" % (run_id or "")}
    try:
        _doc, rows = load_json(path)
        line, ok = verdict_line(rows)
        rc = 0 if ok else 3
    except InputError as e:
        line, rc, rows = "report.py: %s" % e, 1, None
    parts.update({"verdict": line + "\n", "verdict.rc": "%d\n" % rc})
    have_meter = doc.get("have_meter", True)
    for name, make in (
            ("iops", lambda: iops_text(rows, doc["baseline"], doc.get("vm_clock"))),
            ("meter", lambda: meter_summary_text(rows, doc["baseline"]) if have_meter else ""),
            ("meter-lines", lambda: meter_letter_lines(rows, doc["baseline"]) if have_meter else "")):
        try:
            if rows is None:
                raise InputError(line)
            parts[name] = make()
        except Exception as e:  # noqa: BLE001 (any error: the letter says the part is missing)
            parts[name] = ""
            parts[name + ".err"] = "%s: %s\n" % (type(e).__name__, e)
    os.makedirs(outdir, exist_ok=True)
    for name, text in parts.items():
        with open(os.path.join(outdir, name), "w") as f:
            f.write(text)


def labels_of(d):
    """The labels of one result directory (load() of it alone)."""
    return sorted({l for g in load([d]).values() for l in g})


def report(args):
    if args.out:
        per = [labels_of(d) for d in args.dirs]
        for d, ls in zip(args.dirs, per):
            if len(ls) != 1:
                raise InputError("%s holds %s: --out needs one kernel's directory (OUT/LABEL) each"
                                 % (d, "no runs" if not ls else "several labels: " + ", ".join(ls)))
        if per[0] == per[1]:
            raise InputError("both directories are label %r: run.sh OUT LABEL with two labels"
                             % per[0][0])
        if args.baseline and args.baseline != per[0][0]:
            raise InputError("--baseline %s, but the first directory is %s"
                             % (args.baseline, per[0][0]))
        args.baseline = per[0][0]
    groups = load(args.dirs)
    if not groups:
        raise InputError("no results found")
    labels = {l for g in groups.values() for l in g}
    baseline = args.baseline
    if baseline is None:
        baseline = "vanilla" if "vanilla" in labels else None
    elif baseline not in labels:
        raise InputError("baseline label %r not found (labels: %s)"
                         % (baseline, ", ".join(sorted(labels))))

    rows = build_rows(groups, baseline)
    try:
        have_meter = meter_metrics.add_meter(rows, groups, baseline)
    except ValueError as e:
        if args.meter_text or args.meter_png:
            raise InputError("meter: %s" % e)
        print("report.py: warning: meter counts left out: %s" % e, file=sys.stderr)
        have_meter = False
        for r in rows:
            r["meter"] = {}
    if (args.meter_text or args.meter_png) and not have_meter:
        raise InputError("--meter-text/--meter-png given, but no run has meter "
                         "windows or perf counts")
    if args.out:
        sys.stdout.write(write_out(args.out, args.dirs, groups, rows, baseline,
                                   [l for l in labels if l != baseline][0]))
        return
    table = iops_text(rows, baseline, args.vm_clock)
    mtable = meter_report.fmt_meter_table(rows, baseline, args.meter_llc) if have_meter else ""
    otable = meter_report.fmt_object_table(rows, baseline) if have_meter else ""
    stable = meter_summary_text(rows, baseline) if have_meter else ""
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
            json.dump({"run_id": args.run_id, "baseline": baseline, "alpha": ALPHA,
                       "vm_clock": args.vm_clock, "have_meter": have_meter,
                       "iops": "read + write IOPS, sample stddev over repetitions",
                       "p99": "clat_ns percentile 99.000000 in usec, mean over repetitions",
                       "iops_ci95": "half width of the 95% confidence interval of the mean IOPS",
                       "ratio": "mean IOPS / the baseline's mean IOPS",
                       "ratio_ci95": "95% confidence interval [lo, hi] of ratio (delta "
                                     "method on log(ratio), Welch-Satterthwaite df)",
                       "meter": dict([(k, d) for k, _t, d in meter_metrics.METER_METRICS] +
                                     meter_metrics.METER_SPLIT + meter_metrics.METER_EXTRA +
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
