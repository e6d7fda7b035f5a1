# SPDX-License-Identifier: GPL-2.0
"""The text tables and the chart of the meter's counts (report.py): the
metrics come from meter_metrics.py, the files from meter_parse.py."""
import sys

import plot
from meter_metrics import (OBJ_SPLIT_COLS, SPLIT_COLS, SplitGroup, metric_keys, split_groups,
                           split_sums, title_of)
from results import Group


def fmt_num(x):
    if x is None:
        return "n/a"
    a = abs(x)
    if a >= 100:
        return "%.0f" % x
    if a >= 10:
        return "%.1f" % x
    return "%.2f" % x


def render_table(head, lines, nkey):
    """Column-aligned " | " table: header, rule, then lines, with a blank
    line wherever the first nkey cells change.  A list of strings."""
    widths = [max(len(x) for x in col) for col in zip(head, *lines)]
    out = [" | ".join(c.ljust(w) for c, w in zip(head, widths)).rstrip(),
           "-+-".join("-" * w for w in widths)]
    prev = None
    for line in lines:
        if prev is not None and line[:nkey] != prev:
            out.append("")
        prev = line[:nkey]
        out.append(" | ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
    return out


def fmt_meter_table(rows, baseline, llc=None):
    keys = metric_keys(rows)
    head = ["target", "job", "qd", "kernel", "CPU node", "IOPS mean ± stddev",
            "IOPS 95% CI", "n"]
    for k in keys:
        head += [title_of(k) + " mean ± stddev", "x " + (baseline or "baseline")]
    lines = []
    for r in rows:
        if not r["meter"]:
            continue
        node = r["cpu_node"] if r["mem_node"] == r["cpu_node"] else \
            "%s (mem %s)" % (r["cpu_node"], r["mem_node"])
        iops = "%.0f ± %s" % (r["iops_mean"], "n/a" if r["iops_stddev"] is None
                               else "%.0f" % r["iops_stddev"])
        ci = "n/a" if r["iops_ci95"] is None else "%.0f .. %.0f" % (
            r["iops_mean"] - r["iops_ci95"], r["iops_mean"] + r["iops_ci95"])
        line = [r["target"], r["job"], str(r["qd"]), r["label"], node, iops, ci, str(r["n"])]
        for k in keys:
            m = r["meter"].get(k)
            if m is None:
                line += ["-", "-"]
                continue
            line.append("%s ± %s" % (fmt_num(m["mean"]), fmt_num(m["stddev"])))
            line.append("baseline" if r["label"] == baseline else
                        ("-" if m["ratio"] is None else "%.3f" % m["ratio"]))
        lines.append(line)
    if not lines:
        return ""
    out = render_table(head, lines, 3)
    srcs = sorted({s for r in rows for s in (r["meter_ios_source"] or "").split(", ") if s})
    out += ["",
            "Per I/O = count in the run's window / I/O requests of the window (%s)."
            % (", ".join(srcs) or "-"),
            "mean ± sample stddev over repetitions; x %s = mean / %s's mean."
            % (baseline or "baseline", baseline or "baseline"),
            "IOPS 95% CI: mean ± t(0.975, n-1) * stddev / sqrt(n)."]
    if any(k in ("remote_acc_k", "remote_miss_k") for k in keys):
        out += [
            "Meter: QEMU TCG plugin scsi_numa_meter%s." %
            (", LLC model %s (KiB:ways:line) per node" % llc if llc else ""),
            "A remote access is a guest access by a vCPU of node a to RAM of node b != a;",
            "kernel mode = instruction address in the kernel half.  A window (fio's",
            "exec_prerun .. exec_postrun: ramp included, fio's start-up and exit not)",
            "counts all vCPUs (fio, interrupts, kworkers, anything else running).  Page",
            "walks are not counted; interrupt delivery counts as the interrupted",
            "instruction.",
            "Data vs metadata: scsi_debug copies every payload with the CPU between its",
            "store and the I/O buffer, so its remote counts are dominated by data (where",
            "the store lives); an emulated HBA's payload moves by QEMU's DMA, outside",
            "any guest instruction, so its counts are the I/O path's own (requests, tags,",
            "sense buffers, driver and block-layer structures).",
            "QEMU has no remote-memory cost: these are counts of what would be remote",
            "on real hardware, not measured latencies; the IOPS are no-regression only."]
    return "\n".join(out) + "\n"


def fmt_summary(rows, baseline):
    """Compact table for the cover letter: per target, job, qd and CPU node,
    baseline -> label for each meter metric (means).  No IOPS: they are in
    report.py's IOPS table with the no-regression verdict (under -icount
    the meter does not slow the guest's clock, so metered IOPS are a
    no-regression check too; never NUMA figures).  Empty without a
    baseline or meter counts."""
    keys = [k for k in metric_keys(rows) if not k.startswith("perf:")]
    by = {}
    for r in rows:
        if r["meter"]:
            by.setdefault(Group.of(r),
                          {})[r["label"]] = r
    short = {"remote_acc_k": "remote acc/IO", "remote_miss_k": "remote miss/IO",
             "obj_remote_acc": "SCSI obj acc/IO", "obj_remote_miss": "SCSI obj miss/IO"}
    head = ["target", "CPU node"] + [short.get(k, k) for k in keys]
    lines = []
    for g in sorted(by, key=lambda g: tuple(str(x) for x in g)):
        base = by[g].get(baseline)
        if not base:
            continue
        for label, r in sorted(by[g].items()):
            if label == baseline:
                continue
            node = g.node()
            tgt = SplitGroup(g.target, g.job, g.qd, "cpu").name()
            line = [tgt, node]
            for k in keys:
                b, m = base["meter"].get(k), r["meter"].get(k)
                line.append("%s -> %s" % (fmt_num(b["mean"]) if b else "-",
                                          fmt_num(m["mean"]) if m else "-"))
            lines.append(line)
    if not lines:
        return ""
    widths = [max(len(x) for x in col) for col in zip(head, *lines)]
    out = ["  ".join(c.ljust(w) for c, w in zip(head, widths)).rstrip()]
    out += ["  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() for line in lines]
    out += ["(%s -> other label, means per I/O over the repetitions, kernel mode;"
            % baseline,
            " SCSI obj = the objects the placement inspector reports; randread-4k qd 32",
            " unless named; the full tables give spreads, ratios and the IOPS)"]
    return "\n".join(out) + "\n"


def fmt_split_table(rows, baseline, cols=SPLIT_COLS):
    """Kernel remote accesses and misses per I/O split into the submitting
    CPUs and the others (@cols: SPLIT_COLS, all of them; OBJ_SPLIT_COLS,
    those to the SCSI objects), per target, kernel and CPU node, with the
    sum over the CPU nodes per kernel and its ratio to the baseline's; the
    "all" columns of those get the stddev / 95% CI over the
    repetitions.  Empty when no run has the split."""
    groups = split_groups(rows, cols)
    if not groups:
        return ""
    sums, ratios, spread = split_sums(rows, baseline, cols)
    alls = (cols[2], cols[5])
    objs = cols is OBJ_SPLIT_COLS

    def with_sd(g, label, k):
        sd = spread.get((g, label), {}).get(k, (None, None))[0]
        text = fmt_num(sums[g, label][k])
        return text if sd is None or k not in alls else "%s ± %s" % (text, fmt_num(sd))

    def with_ci(g, label, k):
        r = ratios[g, label][k]
        if r is None:
            return "-"
        ci = spread.get((g, label), {}).get(k, (None, None))[1]
        return "x%.3f" % r if not ci or k not in alls else \
            "x%.3f [%.3f, %.3f]" % (r, ci[0], ci[1])

    def num(n):
        return (0, int(n)) if n.isdigit() else (1, n)

    what = "SCSI obj" if objs else "remote"
    head = ["target", "kernel", "CPU node", what + " acc/IO submit", "other", "all",
            what + " miss/IO submit", "other", "all"]
    if not objs:
        head.append("HBA IRQs/IO (on submit CPUs)")
    lines = []
    for g, labels in groups.items():
        tgt = g.name()
        order = sorted(labels, key=lambda l: (l != baseline, l))
        for label in order:
            byn = labels[label]
            for n in sorted(byn, key=num):
                m = byn[n]["meter"]
                line = [tgt, label, n] + [fmt_num(m[k]["mean"]) for k in cols]
                if not objs:
                    irq = "-"
                    if m.get("irq") and m["irq"]["mean"]:
                        irq = "%s (%.0f%%)" % (fmt_num(m["irq"]["mean"]),
                                               100.0 * m.get("irq_sub", {"mean": 0})["mean"] /
                                               m["irq"]["mean"])
                    line.append(irq)
                lines.append(line)
            if (g, label) in sums:
                lines.append([tgt, label, "sum " + "+".join(sorted(byn, key=num))] +
                             [with_sd(g, label, k) for k in cols] + [""] * (not objs))
        for label in order:
            if (g, label) in ratios:
                lines.append([tgt, "%s/%s" % (label, baseline), "sum"] +
                             [with_ci(g, label, k) for k in cols] + [""] * (not objs))
    out = render_table(head, lines, 1)
    if objs:
        out += ["",
                "The same for the kernel remote accesses and misses to the objects the",
                "placement inspector reports (every kind but \"other\")."]
        return "\n".join(out) + "\n"
    out += ["",
            "Kernel-mode remote accesses and remote LLC misses per I/O (means over the",
            "repetitions), split by the vCPU that made them: submit = the CPUs fio ran",
            "on (all the CPUs of its node), other = every other CPU: the completion",
            "side when the device's interrupt is on another CPU (its handler, the",
            "driver's reply walk and tag lookup, blk_mq_complete_request() up to the",
            "IPI: with rq_affinity=1 the request's completion goes back to the",
            "submitting CPU, which shares no cache with another vCPU here), but also",
            "anything else that ran (timers, RCU, kworkers).  all = submit + other.",
            "sum = the sum over the CPU nodes of the runs (fio on each node in turn:",
            "balanced load), ± the stddev over the repetitions of each repetition's",
            "sum; %s = that sum over %s's [95%% CI of the ratio, as the IOPS]."
            % ("label/" + str(baseline), baseline),
            "HBA IRQs/IO: the device's interrupts per I/O and the share taken by the",
            "submitting CPUs (irqs.txt says where each IRQ was)."]
    return "\n".join(out) + "\n"


def fmt_object_table(rows, baseline):
    """Kernel remote accesses and remote LLC misses per I/O by object kind,
    one line per (target, job, qd, CPU node, kind), the labels side by side.
    Empty when no run had object attribution."""
    labels = []
    cells = {}
    kinds_of = {}
    share = {}
    for r in rows:
        kinds = sorted(k[8:] for k in r["meter"] if k.startswith("obj_acc:"))
        if not kinds:
            continue
        if r["label"] not in labels:
            labels.append(r["label"])
        g = Group.of(r)
        kinds_of.setdefault(g, set()).update(kinds)
        for k in kinds:
            for what in ("acc", "miss"):
                m = r["meter"].get("obj_%s:%s" % (what, k))
                if m:
                    cells[g, k, what, r["label"]] = m["mean"]
        if r["meter"].get("obj_share"):
            share[g, r["label"]] = r["meter"]["obj_share"]["mean"]
    if not cells:
        return ""
    if baseline in labels:
        labels.remove(baseline)
        labels.insert(0, baseline)
    head = ["target", "job", "qd", "CPU node", "object kind"]
    head += ["remote acc/IO %s" % l for l in labels]
    head += ["remote miss/IO %s" % l for l in labels]
    lines = []
    for g in sorted(kinds_of, key=lambda g: tuple(str(x) for x in g)):
        node = g.node()
        # biggest first (over all labels), "other" last
        order = sorted(kinds_of[g], key=lambda k: (k == "other", -max(
            cells.get((g, k, "acc", l), 0) for l in labels)))
        for k in order:
            line = [g.target, g.job, str(g.qd), node, k]
            line += [fmt_num(cells.get((g, k, "acc", l), 0.0)) for l in labels]
            line += [fmt_num(cells.get((g, k, "miss", l), 0.0)) for l in labels]
            lines.append(line)
        line = [g.target, g.job, str(g.qd), node, "(attributed share)"]
        line += ["%.4f" % share[g, l] if (g, l) in share else "-" for l in labels]
        line += ["" for _l in labels]
        lines.append(line)
    out = render_table(head, lines, 4)
    out += ["",
            "Kernel-mode remote accesses (and remote misses of the LLC model) per I/O,",
            "by the object the accessed address belongs to: the placement inspector's",
            "objects of every SCSI host, read just before each window (rq_page = the",
            "requests with their scsi_cmnd and driver pdus); other = anything else",
            "(the I/O buffers, scsi_debug's store, stacks, per-CPU data, bios, ...).",
            "Means over repetitions.  Attributed share: (sum over kinds) / kernel",
            "remote accesses of the window (1 by construction, but for the accesses",
            "that race a window's close)."]
    return "\n".join(out) + "\n"


def plot_meter(rows, png):
    """Bar chart (mean ± stddev, one series per label) of each meter metric,
    one panel per metric.  Skipped with one line without gnuplot (plot.py);
    exits non-zero when gnuplot fails."""
    keys = [k for k in metric_keys(rows) if not k.startswith("perf:")][:4] or metric_keys(rows)[:2]
    if not keys:
        sys.exit("report.py: no meter counts to chart in %s" % png)
    labels, cats, cell = [], [], {k: {} for k in keys}
    for r in rows:
        if not r["meter"]:
            continue
        cat = "%s %s qd%d cpu%s" % (r["target"], r["job"], r["qd"], r["cpu_node"])
        if r["mem_node"] != r["cpu_node"]:
            cat += " mem%s" % r["mem_node"]
        if cat not in cats:
            cats.append(cat)
        if r["label"] not in labels:
            labels.append(r["label"])
        for k in keys:
            m = r["meter"].get(k)
            if m is not None:
                cell[k][cat, r["label"]] = (m["mean"], m["stddev"] or 0.0)
    plot.bars(png, [(title_of(k) + ": mean and stddev over repetitions", title_of(k), cell[k], True)
                    for k in keys], cats, labels, required=True)
