#!/usr/bin/env python3
"""Compare fio results recorded by run.sh, e.g. a vanilla and a patched kernel.

    report.py [--baseline LABEL] [--text F] [--json F] [--png F]
              [--meter-text F] [--meter-summary F] [--meter-png F] [--meter-llc KIB:WAYS:LINE] DIR [DIR..]
    report.py --from-json FILE --part iops|meter
    report.py --selftest

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
gets only the compact vanilla -> patched table (what the cover letter quotes).

--run-id ID records which run made the results in --json ("run_id"; compare.sh
gives it).  --from-json FILE prints, from such a JSON alone, the IOPS table
(--part iops: what --text holds) or the meter's compact summary (--part
meter: what --meter-summary holds): the cover letter reads these.

Standard library only: the statistics are in stats.py; --selftest runs its
unit tests (test_stats.py) and this directory's other test_*.py.
"""
import argparse
import json
import math
import os
import re
import sys

import meter_report
import plot as plot_bars
import stats
from stats import mean, stddev

ALPHA = 0.05                       # two-sided significance level
MARGIN_TEXT = ("no regression?: \"met\" iff the 95%% CI's lower bound of the ratio is\n"
               ">= %.2f: the patched kernel's IOPS is at least %.0f%% of vanilla's with\n"
               "95%% confidence (stats.py DELTA); else \"not met\" and why."
               % (1 - stats.DELTA, 100 * (1 - stats.DELTA)))
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


class InputError(Exception):
    """Missing or malformed input: report.py exits 1 with the message."""


def load_fio(path):
    """IOPS and p99 clat (usec, None if no I/O of that kind) of one fio run."""
    try:
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
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        raise InputError("%s: not a fio JSON result (%s: %s)" % (path, type(e).__name__, e))


MANIFEST_COLS = ("label", "job", "qd", "cpu_node", "mem_node", "rep", "file", "target",
                 "window", "dev_ios", "cpus", "irq_cpus", "dev_node")


def load(dirs):
    """{(target, job, qd, cpu_node, mem_node): {label: [run, ..]}}

    manifest.tsv: label job qd cpu_node mem_node rep file [target window
    dev_ios [cpus irq_cpus [dev_node]]] (the last ones from newer run.sh;
    "-" = none).  Raises InputError on a missing directory, manifest or
    result file, or a malformed line."""
    runs = {}   # json path -> (key, label, rep, extra); a repeated run overrides
    for d in dirs:
        if not os.path.isdir(d):
            raise InputError("%s: no such directory" % d)
        found = manifests(d)
        if not found:
            raise InputError("no manifest.tsv in %s or its subdirectories" % d)
        for m in found:
            with open(m) as f:
                for ln, line in enumerate(f, 1):
                    cols = line.rstrip("\n").split("\t")
                    if cols[0] == "label" or not line.strip():
                        continue
                    if len(cols) not in (7, 10, 12, 13) or not cols[2].isdigit() or \
                            not cols[5].isdigit():
                        raise InputError("%s:%d: not a run.sh manifest line (%d columns, "
                                         "expected 7, 10, 12 or 13: %s)"
                                         % (m, ln, len(cols), " ".join(MANIFEST_COLS)))
                    cols += ["-"] * (13 - len(cols))
                    label, job, qd, cpu, mem, rep, name, target, win, dios, cpus, irqc, dnode = cols
                    path = os.path.realpath(os.path.join(os.path.dirname(m), name))
                    extra = {"dir": os.path.dirname(m), "file": name,
                             "window": int(win) if win.isdigit() else None,
                             "dev_ios": int(dios) if dios.isdigit() else None,
                             "cpu_node": cpu,
                             "cpus": None if cpus == "-" else cpus,
                             "irq_cpus": None if irqc == "-" else irqc,
                             "dev_node": dnode,
                             "perf_file": path[:-len(".json")] + ".perf"
                             if path.endswith(".json") else None}
                    runs[path] = ((target, job, int(qd), cpu, mem), label, int(rep), extra)
    groups = {}
    for path, (key, label, rep, extra) in runs.items():
        if not os.path.isfile(path):
            raise InputError("%s is listed in %s/manifest.tsv but missing"
                             % (path, extra["dir"]))
        run = load_fio(path)
        run.update(extra)
        run["rep"] = rep
        groups.setdefault(key, {}).setdefault(label, []).append(run)
    return groups


# --------------------------------------------------------------------------
# Table
# --------------------------------------------------------------------------

def where(cpu, dev_node):
    """local / remote / unpinned of a submitter (run.sh's cpu_node) against
    the device's node; "node" when that is unknown or NUMA_NO_NODE (-1)."""
    if cpu == "unpinned":
        return "unpinned"
    if not dev_node.isdigit():
        return "node"
    return "local" if cpu == dev_node else "remote"


def submitter(r):
    """A row's submitter as the tables name it: "node 1 (local)",
    "node 0 (remote)", "node 0" (device node unknown), "unpinned"; the
    memory node when it is not the submitter's."""
    cpu, mem = r["cpu_node"], r["mem_node"]
    w = r.get("where") or where(cpu, r.get("dev_node", "-"))
    text = "unpinned" if cpu == "unpinned" else \
        "node %s" % cpu + ("" if w == "node" else " (%s)" % w)
    if mem not in (cpu, "default", "none"):
        text += " mem %s" % mem
    return text


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
            dnodes = {r["dev_node"] for lr in groups[key].values() for r in lr}
            row = {
                "target": target, "job": job, "qd": qd, "label": label, "cpu_node": cpu,
                "mem_node": mem, "n": len(iops), "iops": iops,
                "dev_node": dnodes.pop() if len(dnodes) == 1 else "-",
                "iops_mean": m, "iops_stddev": sd, "iops_min": min(iops), "iops_max": max(iops),
                "iops_stddev_pct": None if sd is None or m == 0 else 100.0 * sd / m,
                "change_pct": None, "t": None, "df": None, "p_value": None,
                "significant": None, "ratio": None, "ratio_ci95": None, "verdict": None,
            }
            row["where"] = where(cpu, row["dev_node"])
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
                judge(row, base_iops)
            rows.append(row)
    return rows


def judge(row, base_iops):
    """The row's no-regression verdict and the repetitions that would meet
    the margin (stats.py), from its ratio, CI and IOPS."""
    row["verdict"] = stats.verdict(row["ratio"], row["ratio_ci95"])
    row["reps_for_margin"] = stats.reps_for_margin(base_iops, row["iops"])


def rejudge(rows, baseline):
    """judge() every judged row again: a --json file keeps the verdict of
    the rule it was written under, the text gives today's."""
    base = {(r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"]): r["iops"]
            for r in rows if r["label"] == baseline}
    for r in rows:
        key = (r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"])
        if r.get("verdict") and key in base:
            judge(r, base[key])


def verdict_summary(rows):
    """Lines saying in how many rows the no-regression margin was met and,
    for a row that missed it, how many repetitions per kernel would meet it
    if the ratio and spread stayed as seen (stats.reps_for_margin)."""
    judged = [r for r in rows if r.get("verdict")]
    if not judged:
        return []
    met = [r for r in judged if r["verdict"] == "met"]
    floor = 1 - stats.DELTA
    out = ["No regression (95%% CI lower bound of patched/vanilla >= %.2f): met in %d of %d rows."
           % (floor, len(met), len(judged))]
    for r in judged:
        if r in met:
            continue
        what = " ".join(x for x in (r["target"] if r["target"] != "-" else "", r["job"],
                                    "qd%d" % r["qd"], submitter(r), r["label"]) if x)
        hint = ""
        if "no CI" in r["verdict"]:
            hint = "; a CI needs 2 repetitions or more per kernel"
        elif r["ratio"] is not None and r["ratio"] < floor:
            hint = "; the ratio itself is below %.2f: more repetitions cannot meet it" % floor
        elif "lower bound" in r["verdict"]:
            need = r.get("reps_for_margin")
            hint = "; it would be met with %s repetitions per kernel at this ratio and " \
                "spread (now %d)" % ("more than 10000" if need is None else "about %d" % need,
                                     r["n"])
        out.append("  not met: %s: %s%s" % (what, r["verdict"][len("not met ("):-1], hint))
    return out


def fmt_table(rows, baseline):
    # A target column only for results of several (or named) targets.
    targets = any(r["target"] != "-" for r in rows)
    head = (["target"] if targets else []) + ["job", "qd", "kernel", "submitter", "IOPS mean ± stddev (%)",
            "min–max", "n", "p99 clat usec", "vs " + (baseline or "baseline"), "ratio [95% CI]",
            "significant", "no regression?"]
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
        node = submitter(r)
        ratio, verdict = "-", r["verdict"] or "-"
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
                      "%.0f–%.0f" % (r["iops_min"], r["iops_max"]),
                      str(r["n"]), lat or "-", change, ratio, sig, verdict])
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
            MARGIN_TEXT,
            "VM results: no-regression check only, never a NUMA gain (see README)."]
    summary = verdict_summary(rows)
    if summary:
        out += [""] + summary
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Two kernels side by side (--out): text, TSV, JSON
# --------------------------------------------------------------------------

TSV_HEAD = ["target", "job", "qd", "submitter", "where"] + \
    ["%s_%s" % (k, c) for k in ("vanilla", "patched")
     for c in ("n", "iops", "min", "max", "p99_read_us", "p99_write_us")] + \
    ["ratio", "ci_lo", "ci_hi", "verdict"]
WHERE_ORDER = ["local", "remote", "node", "unpinned"]


def pairs(rows, baseline, label):
    """[(baseline row, label row)] per target, job, qd and submitter, in
    table order: local, remote, node (device node unknown), unpinned."""
    by = {}
    for r in rows:
        by.setdefault((r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"]),
                      {})[r["label"]] = r
    out = [(g[baseline], g[label]) for g in by.values() if baseline in g and label in g]
    order = {k: i for i, k in enumerate(dict.fromkeys((r["target"], r["job"], r["qd"]) for r in rows))}
    return sorted(out, key=lambda p: (order[p[1]["target"], p[1]["job"], p[1]["qd"]],
                                      WHERE_ORDER.index(p[1]["where"]),
                                      (0, int(p[1]["cpu_node"])) if p[1]["cpu_node"].isdigit()
                                      else (1, p[1]["cpu_node"])))


def _p99(r):
    return " / ".join("%s %.0f" % (d[0], r["p99_%s_usec" % d]) for d in ("read", "write")
                      if r["p99_%s_usec" % d] is not None) or "-"


def fmt_compare(rows, baseline, label, legend=True):
    """The table maintainers ask for: per target, job, qd and submitter the
    IOPS mean [min–max] and n of both kernels, p99 latency (a column only
    when some run has one), the ratio with its 95% CI and the
    no-regression verdict."""
    lines = []
    for b, r in pairs(rows, baseline, label):
        ratio = "-" if r["ratio"] is None else "%.3f" % r["ratio"] + (
            " [%.3f, %.3f]" % tuple(r["ratio_ci95"]) if r["ratio_ci95"] else " [n/a]")
        lines.append([r["target"], r["job"], str(r["qd"]), submitter(r)] +
                     ["%.0f [%.0f–%.0f] n=%d" % (x["iops_mean"], x["iops_min"], x["iops_max"], x["n"])
                      for x in (b, r)] +
                     ["%s -> %s" % (_p99(b), _p99(r)), ratio, r["verdict"]])
    if not lines:
        return ""
    head = ["target", "job", "qd", "submitter", "%s IOPS mean [min–max]" % baseline,
            "%s IOPS mean [min–max]" % label, "p99 clat usec", "%s/%s [95%% CI]" % (label, baseline),
            "no regression?"]
    if all(ln[6] == "- -> -" for ln in lines):
        del head[6]
        for ln in lines:
            del ln[6]
    out = meter_report.render_table(head, lines, 3)
    if not legend:
        return "\n".join(out) + "\n"
    out += ["",
            "submitter: the node of fio's CPUs and buffers, local or remote to the",
            "device's node (run.sh dev_node; \"node N\" when unknown), or unpinned",
            "(every CPU, no memory policy).  IOPS = read + write IOPS, mean over the",
            "n repetitions, [lowest–highest].  p99 clat: 99th percentile completion",
            "latency (r reads, w writes), mean over the repetitions.  Ratio: mean over",
            "mean; 95% CI by the delta method on log(ratio), Welch-Satterthwaite df.",
            MARGIN_TEXT, ""] + verdict_summary([p[1] for p in pairs(rows, baseline, label)])
    paired = {id(x) for p in pairs(rows, baseline, label) for x in p}
    for r in rows:
        if id(r) not in paired and r["label"] in (baseline, label):
            out.append("  only %s ran: %s" % (r["label"], " ".join(
                x for x in (r["target"] if r["target"] != "-" else "", r["job"],
                            "qd%d" % r["qd"], submitter(r)) if x)))
    return "\n".join(out) + "\n"


def tsv_rows(rows, baseline, label):
    """report.tsv: TSV_HEAD, then one line per pair(); "-" = none."""
    def f(x, fmt="%.1f"):
        return "-" if x is None else fmt % x
    out = ["\t".join(TSV_HEAD)]
    for b, r in pairs(rows, baseline, label):
        sub = r["cpu_node"] + ("" if r["mem_node"] in (r["cpu_node"], "default", "none")
                               else "/mem" + r["mem_node"])
        cells = [r["target"], r["job"], str(r["qd"]), sub, r["where"]]
        for x in (b, r):
            cells += [str(x["n"]), f(x["iops_mean"]), f(x["iops_min"]), f(x["iops_max"]),
                      f(x["p99_read_usec"]), f(x["p99_write_usec"])]
        ci = r["ratio_ci95"] or [None, None]
        cells += [f(r["ratio"], "%.4f"), f(ci[0], "%.4f"), f(ci[1], "%.4f"), r["verdict"] or "-"]
        out.append("\t".join(cells))
    return "\n".join(out) + "\n"


def parse_iouring(path):
    """Peak IOPS of one t/io_uring output: its "Maximum IOPS=" line, else
    the largest "IOPS=" line (K, M, G suffixes)."""
    scale = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
    best = peak = None
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"^(Maximum )?IOPS=([0-9.]+)([KMG]?)\b", line.strip())
                if m:
                    v = float(m.group(2)) * scale[m.group(3)]
                    if m.group(1):
                        peak = v
                    best = v if best is None else max(best, v)
    except OSError as e:
        raise InputError("%s: %s" % (path, e))
    if peak is None and best is None:
        raise InputError("%s: no IOPS= line (not t/io_uring output?)" % path)
    return peak if peak is not None else best


def load_iouring(dirs):
    """[rows like build_rows()'] of the t/io_uring runs (iouring.tsv of each
    label directory), job "t/io_uring"."""
    groups = {}
    for d in dirs:
        for m in manifests(d):
            t = os.path.join(os.path.dirname(m), "iouring.tsv")
            if not os.path.isfile(t):
                continue
            with open(t) as f:
                for ln, line in enumerate(f, 1):
                    cols = line.rstrip("\n").split("\t")
                    if cols[0] == "label":
                        continue
                    if len(cols) != 7 or not cols[1].isdigit() or not cols[3].isdigit():
                        raise InputError("%s:%d: not an iouring.tsv line" % (t, ln))
                    label, qd, cpu, rep, name, target, dnode = cols
                    run = {"iops": parse_iouring(os.path.join(os.path.dirname(t), name)),
                           "rep": int(rep), "dev_node": dnode,
                           "p99_read": None, "p99_write": None}
                    groups.setdefault((target, "t/io_uring", int(qd), cpu, cpu), {}) \
                        .setdefault(label, []).append(run)
    return groups


def perf_table(rows, baseline, label):
    """perf's remote-DRAM events per I/O, both kernels (run.sh --perf)."""
    lines = []
    for b, r in pairs(rows, baseline, label):
        for k in sorted(set(b.get("meter", {})) | set(r.get("meter", {}))):
            if not k.startswith("perf:"):
                continue
            mb, mr = b["meter"].get(k), r["meter"].get(k)
            lines.append([r["target"], r["job"], str(r["qd"]), submitter(r), k[5:],
                          meter_report.fmt_num(mb["mean"]) if mb else "-",
                          meter_report.fmt_num(mr["mean"]) if mr else "-",
                          "-" if not (mb and mr and mb["mean"]) else "%.3f" % (mr["mean"] / mb["mean"])])
    if not lines:
        return ""
    out = meter_report.render_table(["target", "job", "qd", "submitter", "event (kernel mode)",
                                     baseline + " /IO", label + " /IO", "ratio"], lines, 3)
    out += ["", "perf stat -a counts of the event during each fio run / the I/Os of the run",
            "(block layer, else fio), mean over the repetitions (events: README)."]
    return "\n".join(out) + "\n"


def run_info(dirs):
    """Per directory: the kernel, then one line per run.sh call of its
    run-info.txt: target, devices, the device's node, and what perf and
    t/io_uring did (used, or skipped and why)."""
    out = []
    for d in dirs:
        for m in manifests(d):
            info = os.path.join(os.path.dirname(m), "run-info.txt")
            if not os.path.isfile(info):
                continue
            calls, kernels = [], []
            with open(info) as f:
                for ln in f:
                    ln = ln.rstrip("\n")
                    if ln.startswith("# "):
                        calls.append({"date": ln.split()[1]})
                    elif calls and ln.startswith("kernel="):
                        if ln.split()[0] not in kernels:
                            kernels.append(ln.split()[0])
                    elif calls and ln.startswith("target="):
                        calls[-1]["target"] = " ".join(w for w in ln.split()
                                                       if w.startswith(("target=", "devices=",
                                                                        "dev_node=")))
                    elif calls and ln.startswith(("perf:", "io_uring:")):
                        calls[-1][ln.split(":")[0]] = ln
            out.append("%s: %s" % (os.path.dirname(m), ", ".join(kernels) or "kernel=?"))
            for c in calls:
                out.append("  %s %s" % (c["date"], c.get("target", "")))
                out += ["    " + c[k] for k in ("perf", "io_uring") if k in c]
    return out


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
                    "(gnuplot; fails without it)")
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
    ap.add_argument("--selftest", action="store_true",
                    help="run the unit tests (stats.py, the reports) and exit")
    ap.add_argument("dirs", nargs="*", metavar="DIR")
    args = ap.parse_args()
    if args.selftest:
        sys.exit(1 if selftest() else 0)
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
    osplit = meter_report.fmt_split_table(rows, baseline, meter_report.OBJ_SPLIT_COLS)
    if osplit:
        stable += "\nSCSI objects: submit vs other CPUs\n\n" + osplit
    return stable


def from_json(path, part):
    """--from-json: @part ("iops" or "meter") of the report, from the rows
    that --json wrote.  InputError on a file that is not such a JSON."""
    try:
        with open(path) as f:
            doc = json.load(f)
        rows, baseline = doc["rows"], doc["baseline"]
        rejudge(rows, baseline)
        if part == "iops":
            return iops_text(rows, baseline, doc.get("vm_clock"))
        return meter_summary_text(rows, baseline) if doc.get("have_meter", True) else ""
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise InputError("%s: not a report.py --json file (%s: %s)" % (path, type(e).__name__, e))


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
        have_meter = meter_report.add_meter(rows, groups, baseline)
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
