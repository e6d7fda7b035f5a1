# SPDX-License-Identifier: GPL-2.0
"""The IOPS tables of report.py with the no-regression verdict (stats.py):
rows of every group and kernel (build_rows), the table of all runs
(fmt_table), the two kernels side by side (fmt_compare, tsv_rows,
perf_table)."""
import math

import stats
from meter_report import fmt_num, render_table
from results import Group, InputError
from stats import mean, stddev

ALPHA = 0.05                       # two-sided significance level
MARGIN_TEXT = ("no regression?: \"met\" iff the 95%% CI's lower bound of the ratio is\n"
               ">= %.2f: the patched kernel's IOPS is at least %.0f%% of vanilla's with\n"
               "95%% confidence (stats.py DELTA); else \"not met\" and why.  \"no verdict\":\n"
               "fewer than %d repetitions per kernel (stats.py MIN_REPS)."
               % (1 - stats.DELTA, 100 * (1 - stats.DELTA), stats.MIN_REPS))
NO_VERDICT = "no verdict"
# Kernels measured beside the series for comparison, never the series
# itself (compare.sh --rules: rule-b, patches/alt/rule-b.patch; the series
# there is rule-a).  Their rows are shown and judged in the tables, but
# the one verdict line (verdict_line) is over the series' rows only.
ALTERNATIVES = ("rule-b",)
NEEDS = "a verdict needs %d repetitions per kernel: fio-jobs/README.compare" % stats.MIN_REPS
JOB_ORDER = ["randread-4k", "randwrite-4k", "randrw-70-30-4k", "seqread-128k"]


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

    for key in sorted(groups, key=lambda g: (target_rank(g.target), job_rank(g.job), g.qd,
                                             num(g.cpu_node), num(g.mem_node))):
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
    the margin (stats.py), from its ratio, CI and IOPS; "no verdict" with
    fewer than stats.MIN_REPS repetitions of either kernel."""
    n = min(row["n"], len(base_iops))
    row["verdict"] = stats.verdict(row["ratio"], row["ratio_ci95"]) if n >= stats.MIN_REPS \
        else "%s (n = %d < %d)" % (NO_VERDICT, n, stats.MIN_REPS)
    row["reps_for_margin"] = stats.reps_for_margin(base_iops, row["iops"])


def rejudge(rows, baseline):
    """judge() every judged row again: a --json file keeps the verdict of
    the rule it was written under, the text gives today's."""
    base = {(r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"]): r["iops"]
            for r in rows if r["label"] == baseline}
    for r in rows:
        key = Group.of(r)
        if r.get("verdict") and key in base:
            judge(r, base[key])


def row_name(r):
    """"ahci randread-4k qd32 node 1 (local) patched": a row, in one line."""
    return " ".join(x for x in (r["target"] if r["target"] != "-" else "", r["job"],
                                "qd%d" % r["qd"], submitter(r), r.get("label", "")) if x)


def _sorts(rows):
    """(met, not met, no verdict): the rows that have a verdict, by kind."""
    judged = [r for r in rows if r.get("verdict")]
    return ([r for r in judged if r["verdict"] == "met"],
            [r for r in judged if r["verdict"].startswith("not met")],
            [r for r in judged if r["verdict"].startswith(NO_VERDICT)])


def _at_n(rows):
    """"n = 2" or "n = 2, 5": the repetitions of rows without a verdict."""
    ns = sorted({int(r["verdict"].split("n = ")[1].split()[0]) for r in rows})
    return "n = " + ", ".join(map(str, ns))


def verdict_summary(rows):
    """Lines saying in how many rows the no-regression margin was met and,
    for a row that missed it, how many repetitions per kernel would meet it
    if the ratio and spread stayed as seen (stats.reps_for_margin)."""
    met, bad, none = _sorts(rows)
    if not (met or bad or none):
        return []
    floor = 1 - stats.DELTA
    head = "No regression (95%% CI lower bound of patched/vanilla >= %.2f): " % floor
    if not (met or bad):
        return [head + "no verdict at %s (%s)." % (_at_n(none), NEEDS)]
    out = [head + "met in %d of %d rows%s." % (len(met), len(met) + len(bad),
                                               "; no verdict in %d at %s" % (len(none), _at_n(none))
                                               if none else "")]
    for r in bad:
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
        out.append("  not met: %s: %s%s" % (row_name(r), r["verdict"][len("not met ("):-1], hint))
    return out


def verdict_line(rows):
    """(line, ok): the one "verdict:" line over the series' rows (every
    kernel against the baseline but ALTERNATIVES), naming each row not met
    (ok False); "verdict: no verdict: N repetitions, below MIN_REPS" when
    no row has enough repetitions for one.  InputError when no row of the
    series has a verdict at all."""
    met, bad, none = _sorts([r for r in rows if r.get("label") not in ALTERNATIVES])
    more = " (%d more rows: %s)" % (len(none), _below(none)) if none else ""
    if bad:
        return "verdict: not met in %d of %d rows: %s%s" % (
            len(bad), len(met) + len(bad), "; ".join(row_name(r) for r in bad), more), False
    if met:
        return "verdict: met in %d of %d rows%s" % (len(met), len(met), more), True
    if none:
        return "verdict: %s (%s)" % (_below(none), NEEDS), True
    raise InputError("no row compares the series' kernel with the baseline")


def _below(rows):
    """"no verdict: 2 repetitions, below MIN_REPS" for rows without one."""
    return "%s: %s repetitions, below MIN_REPS" % (NO_VERDICT, _at_n(rows)[len("n = "):])


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
    out = render_table(head, lines, 3 if targets else 2)
    out += ["",
            "IOPS = read + write IOPS of the group-reported job; stddev is the",
            "sample stddev over repetitions (n/a with n < 2).  p99 clat: 99th",
            "percentile completion latency, mean over repetitions; r = reads,",
            "w = writes.  significant: two-sided Welch t-test against the",
            "baseline at 95% (p < 0.05); n/a when either side has n < 2.",
            "ratio: mean IOPS / the baseline's; its 95% CI by the delta method",
            "on log(ratio) with Welch-Satterthwaite degrees of freedom.",
            MARGIN_TEXT,
            "VM results: no-regression check only, never a NUMA gain (see fio-jobs/README)."]
    summary = verdict_summary(rows)
    if summary:
        out += [""] + summary
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Two kernels side by side (--out): text, TSV
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
        by.setdefault(Group.of(r),
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
    out = render_table(head, lines, 3)
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
            out.append("  only %s ran: %s" % (r["label"], row_name(dict(r, label=""))))
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


def perf_table(rows, baseline, label):
    """perf's remote-DRAM events per I/O, both kernels (run.sh --perf)."""
    lines = []
    for b, r in pairs(rows, baseline, label):
        for k in sorted(set(b.get("meter", {})) | set(r.get("meter", {}))):
            if not k.startswith("perf:"):
                continue
            mb, mr = b["meter"].get(k), r["meter"].get(k)
            lines.append([r["target"], r["job"], str(r["qd"]), submitter(r), k[5:],
                          fmt_num(mb["mean"]) if mb else "-",
                          fmt_num(mr["mean"]) if mr else "-",
                          "-" if not (mb and mr and mb["mean"]) else "%.3f" % (mr["mean"] / mb["mean"])])
    if not lines:
        return ""
    out = render_table(["target", "job", "qd", "submitter", "event (kernel mode)",
                                     baseline + " /IO", label + " /IO", "ratio"], lines, 3)
    out += ["", "perf stat -a counts of the event during each fio run / the I/Os of the run",
            "(block layer, else fio), mean over the repetitions (events: fio-jobs/README.compare)."]
    return "\n".join(out) + "\n"
