"""Remote memory accesses per I/O, for report.py.

Two sources, per fio run (one manifest line of run.sh):
  * the scsi_numa_meter QEMU plugin (qemu-plugin/): run.sh opened one meter window
    around the fio run (manifest column "window"); the plugin's counts of
    that window are in meter-r<rep>.txt in the label's directory (copied
    there by harness/compare.sh from the guest's out/meter.txt);
  * perf on bare metal (run.sh --perf): <result>.perf next to the fio
    JSON, "perf stat -x," output of kernel-mode remote-DRAM events.
The count is divided by the I/O of the run: the block layer's completed
requests over the window (manifest column dev_ios, ramp included, as the
window is) when run.sh could read them, else fio's read + write total_ios
(after the ramp).  With the plugin's objects= the kernel remote accesses
and misses are also split by object kind (the placement inspector's kinds,
"other" for the rest): keys "obj_acc:<kind>" / "obj_miss:<kind>", table
fmt_object_table().  The plugin's per-vCPU records split the kernel remote
accesses and misses by CPU: "submit" = the CPUs fio ran on (manifest column
cpus), "other" = every other CPU, where the completions run when the
device's interrupt is elsewhere (keys remote_acc_k_sub/_oth,
remote_miss_k_sub/_oth; run.sh's irq_cpus gives the device's interrupts,
keys irq, irq_sub); fmt_split_table() adds the sums over the CPU nodes.
Every metric is a mean +- sample stddev over the repetitions; the ratio is
the label's mean over the baseline's mean.
"""
import math
import os
import re
import sys
import tempfile

import plot
import stats

# The repository's one cpulist parser, lib/cpulist.py, beside cpulist.sh
# (which run.sh sources from there too): fio-jobs/cpulist.py is a symlink.
import cpulist

# Meter metrics: key, column title, what it is (report.json).
METER_METRICS = [
    ("remote_acc_k", "remote acc/IO (kernel)",
     "kernel-mode accesses by a vCPU of node a to memory of node b != a, per I/O"),
    ("remote_miss_k", "remote LLC miss/IO (kernel)",
     "kernel-mode misses of the accessing node's modelled LLC to memory of another node, per I/O"),
    ("obj_remote_acc", "SCSI objects remote acc/IO",
     "kernel remote accesses to the objects the placement inspector reports (every kind "
     "but 'other'), per I/O"),
    ("obj_remote_miss", "SCSI objects remote miss/IO",
     "kernel remote LLC misses on those objects, per I/O"),
]
# The split by CPU (fmt_split_table; report.json).
METER_SPLIT = [
    ("remote_acc_k_sub", "kernel remote accesses per I/O by the CPUs fio ran on (submit side)"),
    ("remote_acc_k_oth", "kernel remote accesses per I/O by every other CPU (completion side)"),
    ("remote_miss_k_sub", "kernel remote LLC misses per I/O by the CPUs fio ran on"),
    ("remote_miss_k_oth", "kernel remote LLC misses per I/O by every other CPU"),
    ("irq", "the device's interrupts per I/O (run.sh --irqs)"),
    ("irq_sub", "the device's interrupts per I/O taken by the CPUs fio ran on"),
    ("obj_remote_acc_sub", "kernel remote accesses to the SCSI objects per I/O by fio's CPUs"),
    ("obj_remote_acc_oth", "kernel remote accesses to the SCSI objects per I/O by the others"),
    ("obj_remote_miss_sub", "kernel remote LLC misses on the SCSI objects per I/O by fio's CPUs"),
    ("obj_remote_miss_oth", "kernel remote LLC misses on the SCSI objects per I/O by the others"),
]
# In report.json only.
METER_EXTRA = [
    ("acc_k", "kernel-mode accesses (any node) per I/O"),
    ("remote_acc", "remote accesses, kernel + user mode, per I/O"),
    ("remote_miss", "remote LLC misses, kernel + user mode, per I/O"),
]


def parse_meter(path):
    """{window number: {"lines": [(cpu, mem, mode, reads, writes, misses, remote_misses)],
    "vcpus": [(vcpu, cpu, mem, mode, reads, ...)], "objects": {kind: (acc, miss)},
    "vcpu_objects": [(vcpu, kind, acc, miss)],
    "summary": {field: int}}} of a scsi_numa_meter output file; windows "total"/"open"
    are left out.  Raises ValueError on a malformed record."""
    wins = {}
    end = None
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "end" and len(w) == 3 and w[1] == "windows":
                end = int(w[2])
                continue
            if w[0] != "window" or len(w) < 3 or not w[1].isdigit():
                continue
            win = wins.setdefault(int(w[1]), {"lines": [], "summary": {}, "objects": {},
                                              "vcpus": [], "vcpu_objects": []})
            if w[2] == "vcpu" and len(w) > 4 and w[4] == "object":
                if len(w) != 10 or not w[3].isdigit() or w[6] != "remote" or \
                        w[8] != "remote_misses":
                    raise ValueError("%s:%d: bad record: %s" % (path, ln, line.strip()))
                win["vcpu_objects"].append((int(w[3]), w[5], int(w[7]), int(w[9])))
            elif w[2] == "vcpu":
                if len(w) != 18 or not w[3].isdigit() or w[4] != "cpu_node" or \
                        w[6] != "mem_node" or w[8] != "mode":
                    raise ValueError("%s:%d: bad record: %s" % (path, ln, line.strip()))
                kv = dict(zip(w[10::2], (int(x) for x in w[11::2])))
                win["vcpus"].append((int(w[3]), w[5], w[7], w[9], kv["reads"], kv["writes"],
                                     kv["llc_misses"], kv["remote_misses"]))
            elif w[2] == "cpu_node":
                if len(w) != 16 or w[4] != "mem_node" or w[6] != "mode":
                    raise ValueError("%s:%d: bad record: %s" % (path, ln, line.strip()))
                kv = dict(zip(w[8::2], (int(x) for x in w[9::2])))
                win["lines"].append((w[3], w[5], w[7], kv["reads"], kv["writes"],
                                     kv["llc_misses"], kv["remote_misses"]))
            elif w[2] == "object":
                if len(w) != 8 or w[4] != "remote" or w[6] != "remote_misses":
                    raise ValueError("%s:%d: bad record: %s" % (path, ln, line.strip()))
                win["objects"][w[3]] = (int(w[5]), int(w[7]))
            elif w[2] == "summary":
                win["summary"] = dict(zip(w[3::2], (int(x) for x in w[4::2])))
    if end is None:
        raise ValueError("%s: no 'end windows' line (QEMU killed before exit?)" % path)
    return wins


def window_counts(win):
    """Raw counts of one window: remote/all accesses and remote misses."""
    c = {"remote_acc_k": 0, "remote_miss_k": 0, "acc_k": 0,
         "remote_acc": 0, "remote_miss": 0}
    for cpu, mem, mode, reads, writes, _misses, rmiss in win["lines"]:
        remote = cpu != mem and cpu != "none" and mem != "none"
        kern = mode == "kernel"
        if kern:
            c["acc_k"] += reads + writes
            c["remote_miss_k"] += rmiss
        c["remote_miss"] += rmiss
        if remote:
            c["remote_acc"] += reads + writes
            if kern:
                c["remote_acc_k"] += reads + writes
    objs = win.get("objects", {})
    for kind, (acc, miss) in objs.items():
        c["obj_acc:" + kind] = acc
        c["obj_miss:" + kind] = miss
    if objs:
        c["obj_remote_acc"] = sum(a for k, (a, _m) in objs.items() if k != "other")
        c["obj_remote_miss"] = sum(m for k, (_a, m) in objs.items() if k != "other")
        # The plugin attributes exactly the kernel remote accesses; only the
        # instant of a window's close can add a few to one side.
        attributed = sum(a for a, _m in objs.values())
        c["obj_share"] = attributed / c["remote_acc_k"] if c["remote_acc_k"] else 1.0
    return c


def split_counts(win, submit, node=None, mode="kernel"):
    """Remote accesses and remote misses (of @mode) of one window by the
    vCPUs in @submit and by every other vCPU: {"acc_sub", "acc_oth",
    "miss_sub", "miss_oth"}, with the window's per-vCPU object records also
    "obj_acc_sub", ... "obj_miss_oth" (kernel remote accesses to the
    objects, every kind but "other"), or None when the window has no vcpu
    records.
    @node: the submitters' node, if known; a submitting vCPU the meter puts
    on another node means the guest's CPU numbers are not the vCPU indexes.
    Raises ValueError then, or when the vcpu records do not add up to the
    window's cpu_node records (the plugin makes them from one snapshot)."""
    if not win.get("vcpus"):
        return None
    c = {"acc_sub": 0, "acc_oth": 0, "miss_sub": 0, "miss_oth": 0}
    for v, cpu, mem, md, reads, writes, _misses, rmiss in win["vcpus"]:
        if node is not None and v in submit and cpu != node:
            raise ValueError("submitting CPU %d is on node %s by the meter, on node %s by "
                             "the run: guest CPU numbers are not vCPU indexes" % (v, cpu, node))
        if md != mode or cpu == mem or "none" in (cpu, mem):
            continue
        side = "sub" if v in submit else "oth"
        c["acc_" + side] += reads + writes
        c["miss_" + side] += rmiss
    acc = sum(r + w for cpu, mem, md, r, w, _m, _x in win["lines"]
              if md == mode and cpu != mem and "none" not in (cpu, mem))
    miss = sum(x for _c, _m, md, _r, _w, _mm, x in win["lines"] if md == mode)
    if (acc, miss) != (c["acc_sub"] + c["acc_oth"], c["miss_sub"] + c["miss_oth"]):
        raise ValueError("vcpu records add up to %d remote accesses / %d misses, the window "
                         "has %d / %d" % (c["acc_sub"] + c["acc_oth"],
                                          c["miss_sub"] + c["miss_oth"], acc, miss))
    if win.get("vcpu_objects") and mode == "kernel":
        per_kind = {}
        for k in ("obj_acc_sub", "obj_acc_oth", "obj_miss_sub", "obj_miss_oth"):
            c[k] = 0
        for v, kind, oacc, omiss in win["vcpu_objects"]:
            a, m = per_kind.get(kind, (0, 0))
            per_kind[kind] = (a + oacc, m + omiss)
            if kind != "other":
                side = "sub" if v in submit else "oth"
                c["obj_acc_" + side] += oacc
                c["obj_miss_" + side] += omiss
        if per_kind != win.get("objects", {}):
            raise ValueError("vcpu object records %s do not add up to the window's %s"
                             % (per_kind, win.get("objects")))
    return c


def parse_irq_cpus(text, submit):
    """(interrupts, those on CPUs in @submit) of run.sh's irq_cpus
    ("CPU:count,..." or "0")."""
    total = sub = 0
    for part in text.split(","):
        if ":" in part:
            cpu, n = part.split(":")
            total += int(n)
            sub += int(n) if int(cpu) in submit else 0
    return total, sub


def parse_perf(path):
    """{event: count} of a "perf stat -x," output file; unsupported or
    uncounted events are left out."""
    out = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split(",")
            if len(cols) < 3 or not re.match(r"^[0-9.]+$", cols[0]):
                continue
            out["perf:" + cols[2]] = float(cols[0])
    return out


class MeterCache:
    """Parses each meter file once."""

    def __init__(self):
        self.files = {}

    def get(self, path):
        if path not in self.files:
            self.files[path] = parse_meter(path)
        return self.files[path]


def run_metrics(run, cache):
    """Per-I/O metrics of one run (a dict of report.py's load()), or {}.

    run: "dir" (label directory), "rep", "window" (int or None),
    "dev_ios" (int or None), "total_ios" (fio), "perf_file" (path or None),
    "cpu_node", "cpus" (fio's CPU list or None: the vCPUs of cpu_node),
    "irq_cpus" (or None).
    Raises ValueError when a window is recorded and its counts are missing,
    or when "cpus" is not a CPU list (cpulist.expand).
    """
    ios, src = run.get("dev_ios"), "block layer"
    if not ios:
        ios, src = run.get("total_ios"), "fio total_ios"
    raw = {}
    if run.get("window") is not None:
        path = os.path.join(run["dir"], "meter-r%d.txt" % run["rep"])
        if not os.path.isfile(path):
            raise ValueError("run %s has meter window %d but there is no %s"
                             % (run["file"], run["window"], path))
        wins = cache.get(path)
        if run["window"] not in wins:
            raise ValueError("%s has no window %d (run %s)" % (path, run["window"], run["file"]))
        win = wins[run["window"]]
        raw.update(window_counts(win))
        node = run.get("cpu_node")
        if run.get("cpus"):
            submit = set(cpulist.expand(run["cpus"]))
        else:
            submit = {v for v, cpu, *_rest in win.get("vcpus", []) if cpu == node}
        sp = split_counts(win, submit, node)
        if sp:
            raw.update({"remote_acc_k_sub": sp["acc_sub"], "remote_acc_k_oth": sp["acc_oth"],
                        "remote_miss_k_sub": sp["miss_sub"], "remote_miss_k_oth": sp["miss_oth"]})
            if "obj_acc_sub" in sp and "obj_remote_acc" in raw:
                raw.update({"obj_remote_acc_sub": sp["obj_acc_sub"],
                            "obj_remote_acc_oth": sp["obj_acc_oth"],
                            "obj_remote_miss_sub": sp["obj_miss_sub"],
                            "obj_remote_miss_oth": sp["obj_miss_oth"]})
            if run.get("irq_cpus"):
                raw["irq"], raw["irq_sub"] = parse_irq_cpus(run["irq_cpus"], submit)
    if run.get("perf_file") and os.path.isfile(run["perf_file"]):
        raw.update(parse_perf(run["perf_file"]))
    if not raw or not ios:
        return {}
    m = {k: v if k == "obj_share" else v / ios for k, v in raw.items()}
    m["ios"] = ios
    m["ios_source"] = src
    return m


# --------------------------------------------------------------------------

def ci95(xs):
    """Half width of the 95% confidence interval of the mean (Student t)."""
    return stats.ci95_half(xs)


def metric_keys(rows):
    """Metrics present in the rows, table order."""
    keys = [k for k, _t, _d in METER_METRICS if any(k in r["meter"] for r in rows)]
    perf = sorted({k for r in rows for k in r["meter"] if k.startswith("perf:")})
    return keys + perf


def title_of(key):
    for k, t, _d in METER_METRICS:
        if k == key:
            return t
    return key[5:] + "/IO" if key.startswith("perf:") else key


def add_meter(rows, groups, baseline):
    """Adds "iops_ci95" and "meter" {metric: {mean, stddev, n, values,
    ratio}} to report.py's rows, from the runs of groups.  Returns True when
    any run had meter or perf counts."""
    cache = MeterCache()
    found = False
    per = {}
    for key, labels in groups.items():
        for label, runs in labels.items():
            vals = {}
            srcs = set()
            for r in sorted(runs, key=lambda r: r["rep"]):
                m = run_metrics(r, cache)
                if m:
                    found = True
                    srcs.add(m["ios_source"])
                for k, v in m.items():
                    if k not in ("ios", "ios_source"):
                        vals.setdefault(k, []).append(v)
            per[key, label] = (vals, srcs)
    for row in rows:
        key = (row["target"], row["job"], row["qd"], row["cpu_node"], row["mem_node"])
        row["iops_ci95"] = ci95(row["iops"])
        vals, srcs = per.get((key, row["label"]), ({}, set()))
        base = per.get((key, baseline), ({}, set()))[0]
        row["meter"] = {}
        row["meter_ios_source"] = ", ".join(sorted(srcs)) or None
        for k, xs in vals.items():
            m = stats.mean(xs)
            bm = stats.mean(base[k]) if base.get(k) else None
            row["meter"][k] = {
                "values": xs, "n": len(xs), "mean": m, "stddev": stats.stddev(xs),
                "ratio": None if row["label"] == baseline or not bm else m / bm,
            }
    return found


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
            by.setdefault((r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"]),
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
            node = g[3] if g[3] == g[4] else "%s (mem %s)" % (g[3], g[4])
            tgt = g[0] if g[1:3] == ("randread-4k", 32) else "%s %s qd%s" % g[:3]
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


# The columns of the split tables: submit, other, all; accesses then misses.
SPLIT_COLS = ["remote_acc_k_sub", "remote_acc_k_oth", "remote_acc_k",
              "remote_miss_k_sub", "remote_miss_k_oth", "remote_miss_k"]
# The same for the SCSI objects alone (objects=).
OBJ_SPLIT_COLS = ["obj_remote_acc_sub", "obj_remote_acc_oth", "obj_remote_acc",
                  "obj_remote_miss_sub", "obj_remote_miss_oth", "obj_remote_miss"]


def split_groups(rows, cols=SPLIT_COLS):
    """{(target, job, qd, mem): {label: {cpu_node: row}}} of the rows that
    have the split @cols; mem is "cpu" when fio's buffers followed the CPU
    node.  Groups in the order of the rows."""
    by = {}
    for r in rows:
        if not all(k in r["meter"] for k in cols):
            continue
        mem = "cpu" if r["mem_node"] == r["cpu_node"] else r["mem_node"]
        by.setdefault((r["target"], r["job"], r["qd"], mem), {}).setdefault(
            r["label"], {})[r["cpu_node"]] = r
    return by


def split_sums(rows, baseline, cols=SPLIT_COLS):
    """(sums, ratios, spread) of the metrics @cols: sums[group, label] =
    {metric: sum over the CPU nodes of the label's means} for every group
    whose labels all have the same CPU nodes; ratios[group, label] =
    {metric: sum / the baseline's sum (None when that is 0)} for the other
    labels.  With the same number of
    repetitions on every node, the sum of each repetition (its runs on
    every node: one guest) gives spread[group, label] = {metric: (stddev of
    those sums, 95% CI (lo, hi) of the ratio to the baseline or None)}."""
    sums, ratios, spread, per_rep = {}, {}, {}, {}
    for g, labels in split_groups(rows, cols).items():
        if len({frozenset(byn) for byn in labels.values()}) != 1:
            continue        # a label lacks a CPU node: no sum to compare
        for label, byn in labels.items():
            sums[g, label] = {k: sum(r["meter"][k]["mean"] for r in byn.values())
                              for k in cols}
            vals = [[r["meter"][k].get("values") for r in byn.values()] for k in cols]
            if all(v and len(v) == len(vs[0]) for vs in vals for v in vs):
                per_rep[g, label] = {k: [sum(x) for x in zip(*vs)]
                                     for k, vs in zip(cols, vals)}
        base = sums.get((g, baseline))
        for label in labels:
            if base and label != baseline:
                ratios[g, label] = {k: sums[g, label][k] / base[k] if base[k] else None
                                    for k in cols}
            if (g, label) in per_rep:
                bv = per_rep.get((g, baseline))
                spread[g, label] = {}
                for k, xs in per_rep[g, label].items():
                    ci = None
                    if bv and label != baseline:
                        rc = stats.ratio_ci95(bv[k], xs)
                        ci = rc[1:] if rc else None
                    spread[g, label][k] = (stats.stddev(xs), ci)
    return sums, ratios, spread


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
        tgt = g[0] if g[1:3] == ("randread-4k", 32) else "%s %s qd%s" % g[:3]
        if g[3] != "cpu":
            tgt += " (mem %s)" % g[3]
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
        g = (r["target"], r["job"], r["qd"], r["cpu_node"], r["mem_node"])
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
        node = g[3] if g[3] == g[4] else "%s (mem %s)" % (g[3], g[4])
        # biggest first (over all labels), "other" last
        order = sorted(kinds_of[g], key=lambda k: (k == "other", -max(
            cells.get((g, k, "acc", l), 0) for l in labels)))
        for k in order:
            line = [g[0], g[1], str(g[2]), node, k]
            line += [fmt_num(cells.get((g, k, "acc", l), 0.0)) for l in labels]
            line += [fmt_num(cells.get((g, k, "miss", l), 0.0)) for l in labels]
            lines.append(line)
        line = [g[0], g[1], str(g[2]), node, "(attributed share)"]
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
    one panel per metric.  Exits non-zero when gnuplot is missing or fails:
    the chart is part of the result."""
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


# --------------------------------------------------------------------------

SELFTEST_METER = """\
# window 1 start vcpu 0
# window 1 stop vcpu 0
window 1 cpu_node 0 mem_node 0 mode kernel reads 100 writes 50 llc_misses 7 remote_misses 0
window 1 cpu_node 0 mem_node 1 mode kernel reads 300 writes 100 llc_misses 20 remote_misses 20
window 1 cpu_node 0 mem_node 1 mode user reads 40 writes 10 llc_misses 5 remote_misses 5
window 1 cpu_node 1 mem_node 0 mode kernel reads 60 writes 40 llc_misses 3 remote_misses 3
window 1 cpu_node none mem_node 1 mode kernel reads 9 writes 9 llc_misses 0 remote_misses 0
window 1 io mode kernel reads 5 writes 5
window 1 object rq_page remote 300 remote_misses 15
window 1 object other remote 200 remote_misses 8
window 1 summary reads 509 writes 209 local 150 remote 550 unmapped 0 io 10 llc_misses 35 remote_misses 28
window 1 vcpu 0 cpu_node 0 mem_node 0 mode kernel reads 100 writes 50 llc_misses 7 remote_misses 0
window 1 vcpu 0 cpu_node 0 mem_node 1 mode kernel reads 200 writes 100 llc_misses 15 remote_misses 15
window 1 vcpu 0 cpu_node 0 mem_node 1 mode user reads 40 writes 10 llc_misses 5 remote_misses 5
window 1 vcpu 1 cpu_node 0 mem_node 1 mode kernel reads 100 writes 0 llc_misses 5 remote_misses 5
window 1 vcpu 2 cpu_node 1 mem_node 0 mode kernel reads 60 writes 40 llc_misses 3 remote_misses 3
window 1 vcpu 4 cpu_node none mem_node 1 mode kernel reads 9 writes 9 llc_misses 0 remote_misses 0
window 1 vcpu 0 object rq_page remote 200 remote_misses 10
window 1 vcpu 0 object other remote 100 remote_misses 5
window 1 vcpu 1 object rq_page remote 50 remote_misses 3
window 1 vcpu 1 object other remote 50 remote_misses 2
window 1 vcpu 2 object rq_page remote 50 remote_misses 2
window 1 vcpu 2 object other remote 50 remote_misses 1
window 2 cpu_node 1 mem_node 1 mode kernel reads 1000 writes 1000 llc_misses 10 remote_misses 0
window 2 cpu_node 1 mem_node 0 mode kernel reads 10 writes 10 llc_misses 2 remote_misses 2
window total cpu_node 0 mem_node 1 mode kernel reads 999 writes 999 llc_misses 999 remote_misses 999
end windows 2
"""


def selftest():
    """Per-I/O arithmetic on a tiny synthetic meter file; returns failures."""
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "meter-r1.txt"), "w") as f:
            f.write(SELFTEST_METER)
        with open(os.path.join(tmp, "meter-r2.txt"), "w") as f:
            f.write(SELFTEST_METER.replace("reads 300 writes 100", "reads 500 writes 300")
                    .replace("reads 200 writes 100", "reads 400 writes 300"))
        with open(os.path.join(tmp, "meter-r3.txt"), "w") as f:     # vcpus do not add up
            f.write(SELFTEST_METER.replace("mode kernel reads 100 writes 0", "mode kernel reads 101 writes 0"))
        with open(os.path.join(tmp, "meter-r4.txt"), "w") as f:     # vcpu objects do not
            f.write(SELFTEST_METER.replace("vcpu 2 object rq_page remote 50",
                                           "vcpu 2 object rq_page remote 51"))
        with open(os.path.join(tmp, "x.perf"), "w") as f:
            f.write("# started on x\n\n123000,,mem_load_l3_miss_retired.remote_dram:k,1,100.00,,\n"
                    "<not supported>,,ocr.x:k,0,0.00,,\n")
        cache = MeterCache()
        base = {"dir": tmp, "file": "x.json", "total_ios": 40, "perf_file": None}
        r1 = run_metrics(dict(base, rep=1, window=1, dev_ios=50), cache)
        r2 = run_metrics(dict(base, rep=2, window=1, dev_ios=None), cache)
        r3 = run_metrics(dict(base, rep=1, window=2, dev_ios=0), cache)
        r4 = run_metrics(dict(base, rep=1, window=None, dev_ios=100,
                              perf_file=os.path.join(tmp, "x.perf")), cache)
        missing = False
        try:
            run_metrics(dict(base, rep=1, window=3, dev_ios=1), cache)
        except ValueError:
            missing = True
        # the split by CPU: vCPUs 0, 1 on node 0, vCPU 2 on node 1
        s1 = run_metrics(dict(base, rep=1, window=1, dev_ios=50, cpu_node="0", cpus="0-1",
                              irq_cpus="2:40,0:10"), cache)
        s2 = run_metrics(dict(base, rep=1, window=1, dev_ios=50, cpu_node="0", cpus="0"), cache)
        s3 = run_metrics(dict(base, rep=1, window=1, dev_ios=50, cpu_node="1"), cache)
        s4 = run_metrics(dict(base, rep=2, window=1, dev_ios=50, cpu_node="0", cpus="0-1"), cache)
        raised = []
        for wrong in (dict(base, rep=1, window=1, dev_ios=50, cpu_node="0", cpus="2"),
                      dict(base, rep=3, window=1, dev_ios=50, cpu_node="0", cpus="0-1"),
                      dict(base, rep=4, window=1, dev_ios=50, cpu_node="0", cpus="0-1")):
            try:
                run_metrics(wrong, cache)
                raised.append(False)
            except ValueError:
                raised.append(True)
        checks = [
            # window 1: remote kernel = (300+100) + (60+40) = 500 over 50 block-layer I/Os;
            # "none" nodes are neither local nor remote
            ("w1 remote acc/IO", r1["remote_acc_k"], 500 / 50),
            ("w1 remote miss/IO", r1["remote_miss_k"], (20 + 3) / 50),
            ("w1 kernel acc/IO", r1["acc_k"], (150 + 400 + 100 + 18) / 50),
            ("w1 remote acc all/IO", r1["remote_acc"], (500 + 50) / 50),
            ("w1 remote miss all/IO", r1["remote_miss"], (23 + 5) / 50),
            ("w1 ios source", r1["ios_source"] == "block layer", True),
            # rep 2, no block count: fio's total_ios (40)
            ("r2 remote acc/IO (fio ios)", r2["remote_acc_k"], (800 + 100) / 40),
            ("r2 ios source", r2["ios_source"] == "fio total_ios", True),
            ("w2 remote acc/IO", r3["remote_acc_k"], 20 / 40),
            ("w2 remote miss/IO", r3["remote_miss_k"], 2 / 40),
            ("perf event/IO", r4.get("perf:mem_load_l3_miss_retired.remote_dram:k"), 1230.0),
            ("perf unsupported left out", len([k for k in r4 if k.startswith("perf:")]), 1),
            ("missing window raises", missing, True),
            # objects: 300 + 200 of the 500 kernel remote accesses
            ("w1 rq_page acc/IO", r1.get("obj_acc:rq_page"), 300 / 50),
            ("w1 rq_page miss/IO", r1.get("obj_miss:rq_page"), 15 / 50),
            ("w1 other acc/IO", r1.get("obj_acc:other"), 200 / 50),
            ("w1 attributed share", r1.get("obj_share"), 1.0),
            ("w1 objects remote acc/IO", r1.get("obj_remote_acc"), 300 / 50),
            ("w1 objects remote miss/IO", r1.get("obj_remote_miss"), 15 / 50),
            ("r2 attributed share", r2.get("obj_share"), 500 / 900),
            ("w2 no objects", "obj_share" in r3, False),
            # submit = vCPUs 0-1: vCPU 2's 100 remote accesses are the other side
            ("split 0-1 submit acc/IO", s1.get("remote_acc_k_sub"), 400 / 50),
            ("split 0-1 other acc/IO", s1.get("remote_acc_k_oth"), 100 / 50),
            ("split 0-1 submit miss/IO", s1.get("remote_miss_k_sub"), 20 / 50),
            ("split 0-1 other miss/IO", s1.get("remote_miss_k_oth"), 3 / 50),
            ("split 0-1 irq/IO", s1.get("irq"), 50 / 50),
            ("split 0-1 irq on submit/IO", s1.get("irq_sub"), 10 / 50),
            # submit = vCPU 0 only: vCPU 1, on the same node, is the other side
            ("split 0 submit acc/IO", s2.get("remote_acc_k_sub"), 300 / 50),
            ("split 0 other acc/IO", s2.get("remote_acc_k_oth"), 200 / 50),
            ("split 0 other miss/IO", s2.get("remote_miss_k_oth"), (5 + 3) / 50),
            ("split 0 no irq column", "irq" in s2, False),
            ("split 0-1 SCSI obj submit acc/IO", s1.get("obj_remote_acc_sub"), 250 / 50),
            ("split 0-1 SCSI obj other acc/IO", s1.get("obj_remote_acc_oth"), 50 / 50),
            ("split 0-1 SCSI obj submit miss/IO", s1.get("obj_remote_miss_sub"), 13 / 50),
            ("split 0-1 SCSI obj other miss/IO", s1.get("obj_remote_miss_oth"), 2 / 50),
            ("split 0 SCSI obj other acc/IO", s2.get("obj_remote_acc_oth"), 100 / 50),
            # no cpus column: the node's vCPUs (vCPU 2 for node 1)
            ("split node 1 submit acc/IO", s3.get("remote_acc_k_sub"), 100 / 50),
            ("split node 1 other acc/IO", s3.get("remote_acc_k_oth"), 400 / 50),
            ("split r2 submit acc/IO", s4.get("remote_acc_k_sub"), 800 / 50),
            ("split submit + other = all", s1["remote_acc_k_sub"] + s1["remote_acc_k_oth"],
             r1["remote_acc_k"]),
            ("split: submit CPU on another node raises", raised[0], True),
            ("split: vcpus not adding up raises", raised[1], True),
            ("split: vcpu objects not adding up raise", raised[2], True),
            ("w2 no split (no vcpu records)", "remote_acc_k_sub" in r3, False),
            ("ci95 n=2", ci95([10.0, 12.0]), 12.706205 * math.sqrt(2) / math.sqrt(2)),
            ("ci95 n=5", ci95([1.0, 2.0, 3.0, 4.0, 5.0]),
             2.776445 * math.sqrt(2.5) / math.sqrt(5)),
        ]
        # the mean/ratio of two labels through add_meter
        key = ("sd", "randread-4k", 32, "0", "0")
        mk = [dict(base, rep=1, window=1, dev_ios=50, iops=1.0),
              dict(base, rep=2, window=1, dev_ios=50, iops=1.0)]
        pk = [dict(base, rep=1, window=2, dev_ios=50, iops=1.0),
              dict(base, rep=1, window=2, dev_ios=25, iops=1.0)]
        groups = {key: {"vanilla": mk, "patched": pk}}
        rows = [{"target": "sd", "job": "randread-4k", "qd": 32, "cpu_node": "0",
                 "mem_node": "0", "label": l, "iops": [1.0, 1.0]} for l in ("vanilla", "patched")]
        add_meter(rows, groups, "vanilla")
        v, p = rows[0]["meter"]["remote_acc_k"], rows[1]["meter"]["remote_acc_k"]
        checks += [
            ("vanilla mean", v["mean"], (10 + 18) / 2),
            ("vanilla stddev", v["stddev"], math.sqrt(2 * 4 ** 2)),
            ("patched mean", p["mean"], (0.4 + 0.8) / 2),
            ("ratio patched/vanilla", p["ratio"], 0.6 / 14),
            ("baseline ratio", v["ratio"] is None, True),
        ]
        # sums over the CPU nodes and their ratio
        vals = {("vanilla", "0"): [10, 2, 12, 1.0, 0.5, 1.5], ("vanilla", "1"): [4, 6, 10, 0.2, 0.3, 0.5],
                ("patched", "0"): [14, 2, 16, 1.2, 0.4, 1.6], ("patched", "1"): [2, 4, 6, 0.1, 0.2, 0.3]}
        srows = [{"target": t, "job": "randread-4k", "qd": 32, "cpu_node": n, "mem_node": n,
                  "label": l, "meter": {k: {"mean": v} for k, v in zip(SPLIT_COLS, vs)}}
                 for t in ("hba", "half") for (l, n), vs in vals.items()
                 if not (t == "half" and (l, n) == ("patched", "1"))]
        for r in srows:     # two repetitions, +-1 around each mean
            for k, m in r["meter"].items():
                m["values"] = [m["mean"] - 1, m["mean"] + 1]
        sums, ratios, spread = split_sums(srows, "vanilla")
        g = ("hba", "randread-4k", 32, "cpu")
        stab = fmt_split_table(srows, "vanilla")
        checks += [
            ("sum vanilla acc all", sums[g, "vanilla"]["remote_acc_k"], 22),
            ("sum patched acc submit", sums[g, "patched"]["remote_acc_k_sub"], 16),
            ("sum patched miss all", sums[g, "patched"]["remote_miss_k"], 1.9),
            ("ratio acc all", ratios[g, "patched"]["remote_acc_k"], 1.0),
            ("ratio acc other", ratios[g, "patched"]["remote_acc_k_oth"], 0.75),
            ("ratio miss all", ratios[g, "patched"]["remote_miss_k"], 1.9 / 2.0),
            ("no sum without every node", (("half", "randread-4k", 32, "cpu"), "vanilla") in sums,
             False),
            # per-repetition sums 20, 24 (vanilla) and 20, 24 (patched): stddev 2*sqrt(2)
            ("sum stddev over reps", spread[g, "vanilla"]["remote_acc_k"][0], 2 * math.sqrt(2)),
            ("ratio ci contains 1", spread[g, "patched"]["remote_acc_k"][1][0] < 1 <
             spread[g, "patched"]["remote_acc_k"][1][1], True),
            ("split table ratio line",
             sum(1 for ln in stab.splitlines() if ln.startswith("hba ") and "patched/vanilla" in ln
                 and "x0.750" in ln and "x0.950" in ln), 1),
        ]
        orows = [dict(r, meter=dict(zip(OBJ_SPLIT_COLS, (r["meter"][k] for k in SPLIT_COLS))))
                 for r in srows]
        otab2 = fmt_split_table(orows, "vanilla", OBJ_SPLIT_COLS)
        checks += [
            ("object split table ratio line",
             sum(1 for ln in otab2.splitlines() if ln.startswith("hba ") and "patched/vanilla" in ln
                 and "x0.750" in ln), 1),
            ("object split table: no IRQ column", "IRQ" in otab2, False),
        ]
        otab = fmt_object_table(rows, "vanilla")
        checks += [
            ("object table rq_page line",
             sum(1 for ln in otab.splitlines() if "| rq_page " in ln and "| 6.00 " in ln), 1),
        ]
    for name, got, want in checks:
        ok = got is not None and abs(got - want) <= 1e-4 * max(1.0, abs(want))
        bad += not ok
        print("%-4s %-26s got %.6g  expected %.6g" % ("ok" if ok else "FAIL", name,
                                                      float(got or 0), float(want)))
    return bad
