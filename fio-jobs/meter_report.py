"""Remote memory accesses per I/O, for report.py.

Two sources, per fio run (one manifest line of run.sh):
  * the snimeter QEMU plugin (qemu-plugin/): run.sh opened one meter window
    around the fio run (manifest column "window"); the plugin's counts of
    that window are in meter-r<rep>.txt in the label's directory (copied
    there by test/harness/compare.sh from the guest's out/meter.txt);
  * perf on bare metal (run.sh FIO_PERF=1): <result>.perf next to the fio
    JSON, "perf stat -x," output of kernel-mode remote-DRAM events.
The count is divided by the I/O of the run: the block layer's completed
requests over the window (manifest column dev_ios, ramp included, as the
window is) when run.sh could read them, else fio's read + write total_ios
(after the ramp).  With the plugin's objects= the kernel remote accesses
and misses are also split by object kind (the placement inspector's kinds,
"other" for the rest): keys "obj_acc:<kind>" / "obj_miss:<kind>", table
fmt_object_table().  Every metric is a mean +- sample stddev over the
repetitions; the ratio is the label's mean over the baseline's mean.
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

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
# In report.json only.
METER_EXTRA = [
    ("acc_k", "kernel-mode accesses (any node) per I/O"),
    ("remote_acc", "remote accesses, kernel + user mode, per I/O"),
    ("remote_miss", "remote LLC misses, kernel + user mode, per I/O"),
]


def parse_meter(path):
    """{window number: {"lines": [(cpu, mem, mode, reads, writes, misses, remote_misses)],
    "summary": {field: int}}} of a snimeter output file; windows "total"/"open"
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
            win = wins.setdefault(int(w[1]), {"lines": [], "summary": {}, "objects": {}})
            if w[2] == "cpu_node":
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
    "dev_ios" (int or None), "total_ios" (fio), "perf_file" (path or None).
    Raises ValueError when a window is recorded and its counts are missing.
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
        raw.update(window_counts(wins[run["window"]]))
    if run.get("perf_file") and os.path.isfile(run["perf_file"]):
        raw.update(parse_perf(run["perf_file"]))
    if not raw or not ios:
        return {}
    m = {k: v if k == "obj_share" else v / ios for k, v in raw.items()}
    m["ios"] = ios
    m["ios_source"] = src
    return m


# --------------------------------------------------------------------------

def t_quantile(df, p_two_sided, t_two_sided_p):
    """t with P(|T| >= t) = p (bisection on report.py's t_two_sided_p)."""
    lo, hi = 0.0, 1e6
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > p_two_sided:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def ci95(xs, stats):
    """Half width of the 95% confidence interval of the mean (Student t)."""
    if len(xs) < 2:
        return None
    return t_quantile(len(xs) - 1, 0.05, stats["t_two_sided_p"]) * \
        stats["stddev"](xs) / math.sqrt(len(xs))


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


def add_meter(rows, groups, baseline, stats):
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
        row["iops_ci95"] = ci95(row["iops"], stats)
        vals, srcs = per.get((key, row["label"]), ({}, set()))
        base = per.get((key, baseline), ({}, set()))[0]
        row["meter"] = {}
        row["meter_ios_source"] = ", ".join(sorted(srcs)) or None
        for k, xs in vals.items():
            m = stats["mean"](xs)
            bm = stats["mean"](base[k]) if base.get(k) else None
            row["meter"][k] = {
                "values": xs, "n": len(xs), "mean": m, "stddev": stats["stddev"](xs),
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
            "Meter: QEMU TCG plugin snimeter%s." %
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
    baseline -> label for each meter metric (means).  No IOPS: under the
    plugin they are neither NUMA figures nor a no-regression check (the
    IOPS table of a run without the meter is).  Empty without a baseline
    or meter counts."""
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
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        sys.exit("report.py: gnuplot not found: cannot write %s "
                 "(apt-get install gnuplot-nox)" % png)
    keys = [k for k in metric_keys(rows) if not k.startswith("perf:")][:4] or metric_keys(rows)[:2]
    if not keys:
        sys.exit("report.py: no meter counts to chart in %s" % png)
    labels, cats, cell = [], [], {}
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
                cell[k, cat, r["label"]] = (m["mean"], m["stddev"] or 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        panels = []
        for k in keys:
            data = os.path.join(tmp, k.replace(":", "_"))
            vals_all = [m for (kk, _c, _l), (m, _s) in cell.items() if kk == k]
            pos = [v for v in vals_all if v > 0]
            logy = bool(pos) and max(pos) / min(pos) > 50
            with open(data, "w") as f:
                for c in cats:
                    vals = []
                    for l in labels:
                        m, sd = cell.get((k, c, l), (None, None))
                        if m is None or (logy and m <= 0):
                            vals += ["NaN", "NaN"]
                        else:
                            vals += ["%g" % m, "%g" % sd]
                    f.write('"%s" %s\n' % (c, " ".join(vals)))
            panels.append("""
set title "%(title)s: mean and stddev over repetitions%(log)s"
set ylabel "%(title)s"
%(scale)s
plot for [i=1:%(n)d] "%(data)s" using (column(2*i)):(column(2*i+1)):xtic(1) title word(labels, i)
""" % {"title": title_of(k), "n": len(labels), "data": data,
                "log": " (log scale, 0 not shown)" if logy else "",
                "scale": "set logscale y\nset yrange [*:*]" if logy else
                         "unset logscale y\nset yrange [0:%g]" % (
                             1.1 * max([m + s for (kk, _c, _l), (m, s) in cell.items()
                                        if kk == k] + [1e-9]))})
        script = """
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size %(w)d,%(h)d noenhanced
} else {
    set terminal png size %(w)d,%(h)d noenhanced
}
set output "%(png)s"
set multiplot layout %(np)d,1
set grid ytics
set key outside right top
set datafile missing "NaN"
set style data histograms
set style histogram errorbars gap 1 lw 1
set style fill solid 0.7 border -1
set xtics rotate by 30 right nomirror
set bmargin 10
set lmargin 22
labels = "%(labels)s"
%(panels)s
unset multiplot
""" % {"w": max(900, 90 * len(cats) * max(1, len(labels)) // 2 + 350),
           "h": 520 * len(keys), "np": len(keys),
           "png": png.replace('"', '\\"'), "labels": " ".join(labels),
           "panels": "".join(panels)}
        res = subprocess.run([gnuplot], input=script, text=True, capture_output=True)
        if res.returncode != 0 or not os.path.isfile(png) or os.path.getsize(png) == 0:
            sys.exit("report.py: gnuplot failed to write %s:\n%s" % (png, res.stderr))


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
window 2 cpu_node 1 mem_node 1 mode kernel reads 1000 writes 1000 llc_misses 10 remote_misses 0
window 2 cpu_node 1 mem_node 0 mode kernel reads 10 writes 10 llc_misses 2 remote_misses 2
window total cpu_node 0 mem_node 1 mode kernel reads 999 writes 999 llc_misses 999 remote_misses 999
end windows 2
"""


def selftest(stats):
    """Per-I/O arithmetic on a tiny synthetic meter file; returns failures."""
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "meter-r1.txt"), "w") as f:
            f.write(SELFTEST_METER)
        with open(os.path.join(tmp, "meter-r2.txt"), "w") as f:
            f.write(SELFTEST_METER.replace("reads 300 writes 100", "reads 500 writes 300"))
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
            ("ci95 n=2", ci95([10.0, 12.0], stats), 12.706205 * math.sqrt(2) / math.sqrt(2)),
            ("ci95 n=5", ci95([1.0, 2.0, 3.0, 4.0, 5.0], stats),
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
        add_meter(rows, groups, "vanilla", stats)
        v, p = rows[0]["meter"]["remote_acc_k"], rows[1]["meter"]["remote_acc_k"]
        checks += [
            ("vanilla mean", v["mean"], (10 + 18) / 2),
            ("vanilla stddev", v["stddev"], math.sqrt(2 * 4 ** 2)),
            ("patched mean", p["mean"], (0.4 + 0.8) / 2),
            ("ratio patched/vanilla", p["ratio"], 0.6 / 14),
            ("baseline ratio", v["ratio"] is None, True),
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
