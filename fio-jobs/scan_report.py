#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scan report of make compare (harness/compare-scan.sh): a scan of many
scsi_debug LUNs on one host and the memory of a host's tag set, kernel
against kernel, from harness/guest-scan's output.

    scan_report.py [--run-id ID] [--vm-clock TEXT] [--topology NAME]
                   [--text FILE] [--json FILE] DIR DIR [DIR..]

Each DIR is one kernel's (its name is the label; the first is the
baseline) and holds r<N>/ per guest boot, each a copy of guest-scan's
output directory.  Prints the text (also written to --text); --json gets
the same numbers as data.  Exit 0 when written, 1 on missing or malformed
input.  Standard library only (stats.py); tests: test_scan_report.py.

Measured, per scan: the time between the kernel log's timestamps of the
markers written just before and after the write to the host's scan
attribute; the same for the host's removal; slab bytes (the sum over
/proc/slabinfo's caches of active objects x object size, every cache
shrunk first) and MemFree after minus before, divided by the LUNs found.
Per memory phase: the same slab and MemFree differences around adding
H hosts of one LUN each without a scan, divided by H (each host has one
tag set).  Computed: the size of the per-tag-set node cache of patch 03,
nr_hw_queues (read from sysfs in the guest) x sizeof(int) (4 bytes on
x86-64), and the kmalloc cache it comes from (the smallest kmalloc-N of
the guest's /proc/slabinfo that holds it).
"""
import argparse
import json
import os
import re
import sys

import stats

SIZEOF_INT = 4          # x86-64, the guests' architecture
MARK = re.compile(r"^\[\s*([0-9]+\.[0-9]+)\]\s+scsi_numa_scan q=([0-9]+) r=([0-9]+) (scan|remove) (start|end)$")
KMALLOC = re.compile(r"^kmalloc-([0-9]+)(k?)$")


class InputError(Exception):
    pass


def read_lines(path):
    """The lines of a file the guest wrote; InputError naming it if unreadable."""
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))


def read_tsv(path):
    lines = [ln.split("\t") for ln in read_lines(path) if ln.strip()]
    if not lines:
        raise InputError("%s: empty" % path)
    head = lines[0]
    rows = []
    for ln in lines[1:]:
        if len(ln) != len(head):
            raise InputError("%s: a row of %d fields under %d columns" % (path, len(ln), len(head)))
        rows.append(dict(zip(head, ln)))
    return rows


def read_slabinfo(path):
    """{cache: (active objects, object size)} of a /proc/slabinfo copy."""
    caches = {}
    try:
        for ln in read_lines(path):
            if ln.startswith(("slabinfo", "#")):
                continue
            w = ln.split()
            if len(w) < 4:
                continue
            caches[w[0]] = (int(w[1]), int(w[3]))
    except ValueError:
        raise InputError("%s: not /proc/slabinfo" % path)
    if not caches:
        raise InputError("%s: no cache" % path)
    return caches


def read_meminfo(path):
    """{field: kB} of a /proc/meminfo copy."""
    out = {}
    for ln in read_lines(path):
        k, _, v = ln.partition(":")
        w = v.split()
        if w:
            out[k] = int(w[0])
    for k in ("MemFree", "Slab"):
        if k not in out:
            raise InputError("%s: no %s" % (path, k))
    return out


def slab_bytes(caches):
    return sum(n * size for n, size in caches.values())


def cache_deltas(before, after):
    """{cache: bytes after - before}, caches that changed."""
    d = {}
    for name in set(before) | set(after):
        b = before.get(name, (0, 0))
        a = after.get(name, (0, 0))
        x = a[0] * a[1] - b[0] * b[1]
        if x:
            d[name] = x
    return d


def kmalloc_class(nbytes, caches):
    """(name, size) of the smallest kmalloc-N cache holding nbytes."""
    best = None
    for name in caches:
        m = KMALLOC.match(name)
        if not m:
            continue
        size = int(m.group(1)) * (1024 if m.group(2) else 1)
        if size >= nbytes and (best is None or size < best[1]):
            best = (name, size)
    return best


def read_info(path):
    """{key: value} of guest-scan's info.txt (tab-separated); {} without it."""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for ln in f:
                k, _, v = ln.rstrip("\n").partition("\t")
                out[k] = v
    return out


def read_marks(path):
    """{(q, r): {"scan": seconds, "remove": seconds}} from the markers."""
    ts = {}
    try:
        with open(path) as f:
            for ln in f:
                m = MARK.match(ln.strip())
                if m:
                    ts[(m.group(2), m.group(3), m.group(4), m.group(5))] = float(m.group(1))
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))
    out = {}
    for (q, r, what, edge), t in ts.items():
        if edge != "start":
            continue
        end = ts.get((q, r, what, "end"))
        if end is None:
            raise InputError("%s: q=%s r=%s %s start without end" % (path, q, r, what))
        out.setdefault((q, r), {})[what] = end - t
    return out


def read_before_after(bd, tag):
    """Slab and meminfo copies around one step: (slab before, after, meminfo before, after)."""
    return (read_slabinfo(os.path.join(bd, "slab-%s-before.txt" % tag)),
            read_slabinfo(os.path.join(bd, "slab-%s-after.txt" % tag)),
            read_meminfo(os.path.join(bd, "meminfo-%s-before.txt" % tag)),
            read_meminfo(os.path.join(bd, "meminfo-%s-after.txt" % tag)))


def load_kernel(d):
    """Samples of one kernel's directory: {"scan": {q: [..]}, "hosts": {q: [..]}}."""
    boots = sorted((x for x in os.listdir(d) if re.match(r"^r[0-9]+$", x)), key=lambda x: int(x[1:]))
    if not boots:
        raise InputError("%s: no r<N>/ directory" % d)
    scans, hosts = {}, {}
    caches_seen = None
    for b in boots:
        bd = os.path.join(d, b)
        marks = read_marks(os.path.join(bd, "marks.txt"))
        hz = read_info(os.path.join(bd, "info.txt")).get("clk_tck", "100")
        if not hz.isdigit() or int(hz) <= 0:
            raise InputError("%s/info.txt: clk_tck '%s'" % (bd, hz))
        for row in read_tsv(os.path.join(bd, "scan.tsv")):
            q, r = row["queues"], row["rep"]
            tag = "q%s-r%s" % (q, r)
            sb, sa, mb, ma = read_before_after(bd, tag)
            caches_seen = sa
            devs, luns = int(row["devices"]), int(row["luns"])
            if devs != luns or devs == 0:
                raise InputError("%s: %s found %d LUNs of %d" % (bd, tag, devs, luns))
            t = marks.get((q, r))
            if not t or "scan" not in t or "remove" not in t:
                raise InputError("%s: no markers of %s" % (bd, tag))
            busy = {}
            if "scan_busy_ticks" in row:
                busy = {"busy_s": int(row["scan_busy_ticks"]) / int(hz),
                        "idle_s": int(row["scan_idle_ticks"]) / int(hz)}
            scans.setdefault(q, []).append(dict(busy, **{
                "boot": b, "scan": int(r), "luns": devs, "nr_hw_queues": int(row["nr_hw_queues"]),
                "scan_s": t["scan"], "remove_s": t["remove"],
                "scan_s_epoch": int(row["scan_us_epoch"]) / 1e6,
                "slab_bytes_per_lun": (slab_bytes(sa) - slab_bytes(sb)) / devs,
                "memfree_bytes_per_lun": (mb["MemFree"] - ma["MemFree"]) * 1024 / devs,
                "meminfo_slab_bytes_per_lun": (ma["Slab"] - mb["Slab"]) * 1024 / devs,
                "memavailable_bytes_per_lun": (mb.get("MemAvailable", 0) - ma.get("MemAvailable", 0)) * 1024 / devs,
                "caches_per_lun": {k: v / devs for k, v in cache_deltas(sb, sa).items()},
            }))
        for row in read_tsv(os.path.join(bd, "hosts.tsv")):
            q, n = row["queues"], int(row["hosts"])
            if int(row["added"]) != n:
                raise InputError("%s: q=%s: %s hosts of %d" % (bd, q, row["added"], n))
            tag = "q%s-hosts" % q
            sb, sa, mb, ma = read_before_after(bd, tag)
            caches_seen = caches_seen or sa
            hosts.setdefault(q, []).append({
                "boot": b, "hosts": n, "nr_hw_queues": int(row["nr_hw_queues"]),
                "slab_bytes_per_host": (slab_bytes(sa) - slab_bytes(sb)) / n,
                "memfree_bytes_per_host": (mb["MemFree"] - ma["MemFree"]) * 1024 / n,
                "caches_per_host": {k: v / n for k, v in cache_deltas(sb, sa).items()},
            })
    sizes = {}
    sp = os.path.join(d, "sizes.tsv")
    if os.path.exists(sp):
        with open(sp) as f:
            for ln in f:
                w = ln.split()
                if len(w) == 2 and w[1].isdigit():
                    sizes[w[0]] = int(w[1])
    return {"scan": scans, "hosts": hosts, "boots": len(boots), "caches": caches_seen, "sizes": sizes}


def summary(xs):
    h = stats.ci95_half(xs)
    return {"n": len(xs), "mean": stats.mean(xs), "ci95_half": h, "min": min(xs), "max": max(xs)}


def compare(a, b):
    """b against a: ratio of the means with its 95% CI, Welch's p."""
    out = {"ratio": None, "ci95": None, "p": None}
    if stats.mean(a) > 0 and stats.mean(b) > 0:
        out["ratio"] = stats.mean(b) / stats.mean(a)
    rc = stats.ratio_ci95(a, b)
    if rc:
        out["ratio"], out["ci95"] = rc[0], [rc[1], rc[2]]
    w = stats.welch(a, b)
    if w:
        out["p"] = w[2]
    return out


def diff_ci95(a, b):
    """mean(b) - mean(a) and the half width of its 95% CI (Welch); None
    for the half width with fewer than 2 values on either side."""
    d = stats.mean(b) - stats.mean(a)
    if len(a) < 2 or len(b) < 2:
        return d, None
    va, vb = stats.stddev(a) ** 2 / len(a), stats.stddev(b) ** 2 / len(b)
    if va + vb == 0.0:
        return d, 0.0
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return d, stats.t_quantile(df) * (va + vb) ** 0.5


def build(dirs):
    labels = [os.path.basename(os.path.normpath(d)) for d in dirs]
    if len(set(labels)) != len(labels):
        raise InputError("two directories of one label: %s" % " ".join(labels))
    data = {lab: load_kernel(d) for lab, d in zip(labels, dirs)}
    base = labels[0]
    qs = sorted(data[base]["scan"], key=int, reverse=True)
    for lab in labels[1:]:
        if sorted(data[lab]["scan"], key=int, reverse=True) != qs:
            raise InputError("%s and %s ran different queue counts" % (base, lab))
    res = {"baseline": base, "kernels": labels, "queues": [int(q) for q in qs],
           "boots": {lab: data[lab]["boots"] for lab in labels}, "scan": [], "tag_set": [],
           "caches_per_lun": [], "caches_per_host": [], "cache_array": [], "sizes": []}
    for lab in labels:
        sz = data[lab]["sizes"]
        if "blk_mq_tag_set" not in sz or "Scsi_Host" not in sz:
            continue
        kc = kmalloc_class(sz["Scsi_Host"], data[lab]["caches"])
        row = {"kernel": lab, "blk_mq_tag_set": sz["blk_mq_tag_set"], "Scsi_Host": sz["Scsi_Host"],
               "Scsi_Host_kmalloc": kc[0] if kc else None, "Scsi_Host_kmalloc_bytes": kc[1] if kc else None}
        bsz = data[base]["sizes"]
        if lab != base and "blk_mq_tag_set" in bsz:
            row["blk_mq_tag_set_minus_baseline"] = sz["blk_mq_tag_set"] - bsz["blk_mq_tag_set"]
        res["sizes"].append(row)
    metrics = ("scan_s", "remove_s", "scan_s_epoch", "slab_bytes_per_lun", "memfree_bytes_per_lun",
               "meminfo_slab_bytes_per_lun", "memavailable_bytes_per_lun")
    if all("busy_s" in x for lab in labels for q in qs for x in data[lab]["scan"][q]):
        metrics += ("busy_s", "idle_s")
    for q in qs:
        for lab in labels:
            s = data[lab]["scan"][q]
            row = {"queues": int(q), "kernel": lab, "luns": s[0]["luns"],
                   "nr_hw_queues": sorted({x["nr_hw_queues"] for x in s})}
            for m in metrics:
                row[m] = summary([x[m] for x in s])
                row[m]["values"] = [x[m] for x in s]
            row["us_per_lun"] = summary([x["scan_s"] * 1e6 / x["luns"] for x in s])
            if lab != base:
                for m in metrics:
                    row[m]["vs_baseline"] = compare([x[m] for x in data[base]["scan"][q]], [x[m] for x in s])
            res["scan"].append(row)
            h = data[lab]["hosts"].get(q, [])
            if h:
                hwq = sorted({x["nr_hw_queues"] for x in h})
                trow = {"queues": int(q), "kernel": lab, "hosts": h[0]["hosts"], "nr_hw_queues": hwq,
                        "slab_bytes_per_host": summary([x["slab_bytes_per_host"] for x in h]),
                        "memfree_bytes_per_host": summary([x["memfree_bytes_per_host"] for x in h])}
                if lab != base and data[base]["hosts"].get(q):
                    bh = data[base]["hosts"][q]
                    for m in ("slab_bytes_per_host", "memfree_bytes_per_host"):
                        d, h95 = diff_ci95([x[m] for x in bh], [x[m] for x in h])
                        trow[m]["minus_baseline"], trow[m]["minus_baseline_ci95_half"] = d, h95
                        trow[m]["vs_baseline"] = compare([x[m] for x in bh], [x[m] for x in h])
                res["tag_set"].append(trow)
        # The node cache's array on a kernel that has it: one int per hardware queue.
        hwq = max(x["nr_hw_queues"] for x in data[base]["scan"][q])
        kc = kmalloc_class(hwq * SIZEOF_INT, data[base]["caches"])
        arow = {"queues": int(q), "nr_hw_queues": hwq, "bytes": hwq * SIZEOF_INT,
                "kmalloc": kc[0] if kc else None, "kmalloc_bytes": kc[1] if kc else None}
        if kc and all(data[lab]["hosts"].get(q) for lab in labels):
            # What that kmalloc cache grew by per host, measured: the array's bytes and
            # anything else of that size class a host allocates.
            arow["measured_bytes_per_host"] = {
                lab: stats.mean([x["caches_per_host"].get(kc[0], 0.0) for x in data[lab]["hosts"][q]])
                for lab in labels}
        res["cache_array"].append(arow)
        # The caches whose bytes per LUN / per host differ most from the baseline's.
        for key, src, dst in (("caches_per_lun", "scan", "caches_per_lun"),
                              ("caches_per_host", "hosts", "caches_per_host")):
            if not data[base][src].get(q):
                continue
            mean_of = {}
            for lab in labels:
                runs = data[lab][src][q]
                names = set().union(*(x[key] for x in runs))
                mean_of[lab] = {c: stats.mean([x[key].get(c, 0.0) for x in runs]) for c in names}
            names = set().union(*(set(m) for m in mean_of.values()))
            diffs = []
            for c in names:
                d = max(abs(mean_of[lab].get(c, 0.0) - mean_of[base].get(c, 0.0)) for lab in labels[1:])
                if d >= 0.5:
                    diffs.append((d, c))
            for d, c in sorted(diffs, reverse=True)[:8]:
                res[dst].append({"queues": int(q), "cache": c,
                                 "bytes": {lab: mean_of[lab].get(c, 0.0) for lab in labels}})
    return res


def fmt_ci(s, fmt):
    if s["ci95_half"] is None:
        return (fmt % s["mean"]) + " (n=1)"
    return (fmt + " ± " + fmt) % (s["mean"], s["ci95_half"])


def fmt_ratio(c):
    if c is None or c["ratio"] is None:
        return "-"
    if c["ci95"] is None:
        return "x%.4f (no CI)" % c["ratio"]
    return "x%.4f [%.4f, %.4f] p=%.2g" % (c["ratio"], c["ci95"][0], c["ci95"][1], c["p"])


def table(rows):
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in rows]


def render(res, run_id=None, clock=None, topology=None):
    base = res["baseline"]
    L = []
    L.append("# Scan of %d scsi_debug LUNs on one host, and a host's tag set in memory: %s"
             % (res["scan"][0]["luns"], " vs ".join(res["kernels"])))
    if run_id:
        L.append("# run %s" % run_id)
    L.append("# Guest clock: %s." % (clock or "not given"))
    L.append("# VM figures only: no real hardware was measured; a QEMU guest has no remote-memory cost.")
    L.append("# The kernels differ by everything between them (a whole series), not by the node cache alone.")
    L.append("# Topology %s; guest boots per kernel: %s (alternating order); %s"
             % (topology or "?", ", ".join("%s %d" % (k, n) for k, n in res["boots"].items()),
                "n below = boots x scans per boot."))
    L.append("# Measured: scan = kernel-log timestamps around `echo '- - -' > /sys/class/scsi_host/hostN/scan`"
             " (scsi_mod.scan=manual, sd not bound, scsi_debug delay=0);")
    L.append("#   remove = the same around the host's removal; slab B/LUN = slab bytes after - before"
             " (every cache shrunk first) / LUNs.")
    L.append("")
    busy = "busy_s" in res["scan"][0]
    rows = [["queues", "kernel", "n", "scan s", "us/LUN", "remove s", "slab B/LUN", "scan vs %s [95%% CI]" % base]]
    for r in res["scan"]:
        rows.append([str(r["queues"]), r["kernel"], str(r["scan_s"]["n"]), fmt_ci(r["scan_s"], "%.3f"),
                     fmt_ci(r["us_per_lun"], "%.1f"), fmt_ci(r["remove_s"], "%.3f"),
                     fmt_ci(r["slab_bytes_per_lun"], "%.0f"),
                     fmt_ratio(r["scan_s"].get("vs_baseline")) if r["kernel"] != base else "baseline"])
    L += table(rows)
    if busy:
        L.append("")
        L.append("# The scan's CPU time: busy and idle time of all guest CPUs over the write (/proc/stat); the"
                 " guest clock")
        L.append("#   counts instructions only while a CPU is busy, idle time passes in real time on the"
                 " shared host.")
        rows = [["queues", "kernel", "n", "busy s", "idle s", "busy vs %s [95%% CI]" % base]]
        for r in res["scan"]:
            rows.append([str(r["queues"]), r["kernel"], str(r["busy_s"]["n"]), fmt_ci(r["busy_s"], "%.2f"),
                         fmt_ci(r["idle_s"], "%.2f"),
                         fmt_ratio(r["busy_s"].get("vs_baseline")) if r["kernel"] != base else "baseline"])
        L += table(rows)
    L.append("")
    if res["tag_set"]:
        L.append("# A host's memory, measured: %d scsi_debug hosts of one LUN added without a scan (one tag set"
                 % res["tag_set"][0]["hosts"])
        L.append("#   each): slab bytes (caches shrunk first) and MemFree bytes (slab and pages: the requests)"
                 " after - before, / hosts.")
        rows = [["queues", "kernel", "nr_hw_queues", "slab B/host", "MemFree B/host", "slab - %s [95%% CI]" % base]]
        for t in res["tag_set"]:
            d = t["slab_bytes_per_host"].get("minus_baseline")
            h95 = t["slab_bytes_per_host"].get("minus_baseline_ci95_half")
            diff = "baseline"
            if d is not None:
                diff = "%+.1f" % d + (" (n=1)" if h95 is None else " ± %.1f" % h95)
            rows.append([str(t["queues"]), t["kernel"], ",".join(map(str, t["nr_hw_queues"])),
                         fmt_ci(t["slab_bytes_per_host"], "%.0f"), fmt_ci(t["memfree_bytes_per_host"], "%.0f"), diff])
        L += table(rows)
    L.append("")
    L.append("# A tag set's memory, computed (not measured): the node cache of patch 03 is one int per hardware"
             " queue,")
    L.append("#   allocated with the tag set, and what it adds to struct blk_mq_tag_set (which struct Scsi_Host"
             " embeds).")
    for a in res["cache_array"]:
        m = a.get("measured_bytes_per_host")
        L.append("#   submit_queues=%d: nr_hw_queues %d x sizeof(int) %d B = %d B -> %s (%s B per tag set)%s"
                 % (a["queues"], a["nr_hw_queues"], SIZEOF_INT, a["bytes"], a["kmalloc"], a["kmalloc_bytes"],
                    "; %s per host, measured: %s" % (a["kmalloc"], ", ".join(
                        "%s %.1f B" % (k, v) for k, v in m.items())) if m else ""))
    if res["sizes"]:
        L.append("#   sizeof per kernel, from its source at its commit (gcc, make kernels' config); a scsi_debug"
                 " host asks no private bytes:")
        rows = [["kernel", "struct blk_mq_tag_set", "vs %s" % base, "struct Scsi_Host -> kmalloc"]]
        for z in res["sizes"]:
            d = z.get("blk_mq_tag_set_minus_baseline")
            rows.append([z["kernel"], "%d B" % z["blk_mq_tag_set"], "-" if d is None else "%+d B" % d,
                         "%d B -> %s" % (z["Scsi_Host"], z["Scsi_Host_kmalloc"])])
        L += ["#   " + x for x in table(rows)]
    else:
        L.append("#   sizeof: not computed (compare-scan.sh says why).")
    for key, what in (("caches_per_lun", "per LUN"), ("caches_per_host", "per host")):
        if not res[key]:
            continue
        L.append("")
        L.append("# Slab caches whose bytes %s differ most from %s's (mean over scans; >= 0.5 B):" % (what, base))
        rows = [["queues", "cache"] + res["kernels"]]
        for c in res[key]:
            rows.append([str(c["queues"]), c["cache"]] + ["%.1f" % c["bytes"][k] for k in res["kernels"]])
        L += table(rows)
    return "\n".join(L) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run-id")
    ap.add_argument("--vm-clock")
    ap.add_argument("--topology")
    ap.add_argument("--text")
    ap.add_argument("--json")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args(argv)
    if len(a.dirs) < 2:
        print("scan_report: two kernels' directories or more", file=sys.stderr)
        return 1
    try:
        res = build(a.dirs)
    except InputError as e:
        print("scan_report: %s" % e, file=sys.stderr)
        return 1
    res["run_id"], res["vm_clock"], res["topology"] = a.run_id, a.vm_clock, a.topology
    text = render(res, a.run_id, a.vm_clock, a.topology)
    sys.stdout.write(text)
    if a.text:
        with open(a.text, "w") as f:
            f.write(text)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
