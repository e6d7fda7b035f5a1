# SPDX-License-Identifier: GPL-2.0
"""The scsi_numa_meter plugin's and perf's output files, parsed (for
meter_metrics.py): parse_meter(), parse_perf(), parse_irq_cpus(), and
MeterCache, which parses each meter file once."""
import re


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
