# SPDX-License-Identifier: GPL-2.0
"""Remote memory accesses per I/O, for report.py (tables: meter_report.py).

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
import os
from typing import NamedTuple

import stats
from meter_parse import MeterCache, parse_irq_cpus, parse_perf
from results import Group

# The repository's one cpulist parser (fio-jobs/cpulist.py links to
# ../lib/cpulist.py, beside cpulist.sh, which run.sh sources).
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
        key = Group.of(row)
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


# The columns of the split tables: submit, other, all; accesses then misses.
SPLIT_COLS = ["remote_acc_k_sub", "remote_acc_k_oth", "remote_acc_k",
              "remote_miss_k_sub", "remote_miss_k_oth", "remote_miss_k"]
# The same for the SCSI objects alone (objects=).
OBJ_SPLIT_COLS = ["obj_remote_acc_sub", "obj_remote_acc_oth", "obj_remote_acc",
                  "obj_remote_miss_sub", "obj_remote_miss_oth", "obj_remote_miss"]


class SplitGroup(NamedTuple):
    """A group of the split tables: the runs on every CPU node of one
    target, job and queue depth; mem "cpu" when fio's buffers followed the
    CPU node, else the memory node."""
    target: str
    job: str
    qd: int
    mem: str

    def name(self):
        """The target alone for randread-4k at qd 32, else with job and qd;
        the memory node when it is fixed."""
        text = self.target if (self.job, self.qd) == ("randread-4k", 32) else \
            "%s %s qd%s" % (self.target, self.job, self.qd)
        return text if self.mem == "cpu" else text + " (mem %s)" % self.mem


def split_groups(rows, cols=SPLIT_COLS):
    """{SplitGroup: {label: {cpu_node: row}}} of the rows that have the
    split @cols.  Groups in the order of the rows."""
    by = {}
    for r in rows:
        if not all(k in r["meter"] for k in cols):
            continue
        mem = "cpu" if r["mem_node"] == r["cpu_node"] else r["mem_node"]
        by.setdefault(SplitGroup(r["target"], r["job"], r["qd"], mem), {}).setdefault(
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
