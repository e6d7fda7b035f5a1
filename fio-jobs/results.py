# SPDX-License-Identifier: GPL-2.0
"""run.sh's results, read (for report.py): manifest.tsv and the fio JSON
it lists (load), t/io_uring's output (load_iouring), run-info.txt
(run_info).  Runs are grouped by Group and label (= kernel)."""
import json
import os
import re
from typing import NamedTuple


class Group(NamedTuple):
    """The runs compared with each other across kernels: one target (run.sh
    --target, "-" for none), job, queue depth, CPU node and memory node."""
    target: str
    job: str
    qd: int
    cpu_node: str
    mem_node: str

    @classmethod
    def of(cls, row):
        """The group of a row of report.py's tables (a dict)."""
        return cls(row["target"], row["job"], row["qd"], row["cpu_node"], row["mem_node"])

    def node(self):
        """The CPU node, with the memory node when that differs: "1", "1 (mem 0)"."""
        return self.cpu_node if self.cpu_node == self.mem_node else \
            "%s (mem %s)" % (self.cpu_node, self.mem_node)


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
    """{Group: {label: [run, ..]}}

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
                    runs[path] = (Group(target, job, int(qd), cpu, mem), label, int(rep), extra)
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
                    groups.setdefault(Group(target, "t/io_uring", int(qd), cpu, cpu), {}) \
                        .setdefault(label, []).append(run)
    return groups


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
