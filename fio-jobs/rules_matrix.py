#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The queue-node rules over several topologies: make compare-rules with
RULES_TOPO naming more than one (each topology's run in its own
directory, rules.json of rules_report.py), in one table per question.

    rules_matrix.py --topo-dir harness/topo [--text F] DIR [DIR..]

Kernels: vanilla, rule-a (the series: the only queue of a map on the tag
set's node) and rule-b (the alternative of patches/alt/rule-b.patch: the
node nearest most of the queue's CPUs, by the sum of distances).  Per
topology (CPUs per node, the device's node from the topology file) and
target, one metric: the placement inspector's objects' remote accesses
per I/O (hctx, tags, requests, SCSI objects) for the SCSI targets, the
kernel's remote accesses per I/O for null_blk (no inspector objects).

  Who gains, who loses: per submitting node, rule-a over vanilla.
  The decision: rule-b over rule-a, I/O from each node alike (the sum
  over the nodes) and in proportion to each node's CPUs (weighted).

Ratios with their 95% CIs (stats.ratio_ci95: delta method, Welch df; the
repetitions of two kernels are independent guests).  Exit 0 when
written, 1 on missing or malformed input.  Standard library.
"""
import argparse
import json
import os
import re
import sys

import stats
from meter_report import render_table

SERIES, ALT, REF = "rule-a", "rule-b", "vanilla"
METRIC = {"null_blk": ("remote_acc_k", "kernel")}
DEFAULT_METRIC = ("obj_remote_acc", "objects")
# The targets of the changelog's table (the others: the full tables).
CHANGELOG_TARGETS = ("megaraid_sas",)


class InputError(Exception):
    pass


def topo_facts(topo_dir, name):
    """The device's node (TOPO_DEV_NODE) of harness/topo/NAME."""
    path = os.path.join(topo_dir, name)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputError("topology %s: %s" % (name, e))
    dev = re.search(r"^TOPO_DEV_NODE=(\d+)", text, re.M)
    if not dev:
        raise InputError("%s: no TOPO_DEV_NODE" % path)
    return int(dev.group(1))


def load(d):
    try:
        with open(os.path.join(d, "rules.json"), encoding="utf-8") as f:
            j = json.load(f)
    except (OSError, ValueError) as e:
        raise InputError("%s: %s" % (d, e))
    for k in ("topology", "node_cpus", "groups", "run_id"):
        if k not in j:
            raise InputError("%s/rules.json: no %r" % (d, k))
    try:
        with open(os.path.join(d, "series-commit"), encoding="utf-8") as f:
            j["series"] = f.read().split()
    except OSError:
        j["series"] = ["unknown"]
    return j


def ratio(base, other):
    """other / base with its CI from two lists, or None."""
    return stats.ratio_ci95(base, other) if base and other else None


def fmt(rc, nd=2):
    if not rc:
        return "-"
    f = "%." + str(nd) + "f"
    return ("x" + f + " [" + f + ", " + f + "]") % tuple(rc)


def who(rc):
    """Fewer (gains), more (loses) or not resolved, by the CI."""
    if not rc:
        return "-"
    return "gains" if rc[2] < 1 else "loses" if rc[1] > 1 else "not resolved"


def rows(runs, topo_dir):
    out = []
    for j in runs:
        cpus = {str(k): v for k, v in j["node_cpus"].items()}
        nodes = sorted(cpus, key=int)
        dev = topo_facts(topo_dir, j["topology"])
        split = "+".join(str(cpus[n]) for n in nodes)
        devc = cpus.get(str(dev), 0)
        side = ("larger" if devc > max(v for n, v in cpus.items() if n != str(dev)) else
                "smaller" if devc < min(v for n, v in cpus.items() if n != str(dev)) else
                "equal") if len(cpus) > 1 else "-"
        for g in j["groups"]:
            if (g["job"], g["qd"]) != ("randread-4k", 32):
                continue
            key, mname = METRIC.get(g["target"], DEFAULT_METRIC)
            ks = g["kernels"]
            ent = {lb: ks.get(lb, {}).get(key) for lb in (REF, SERIES, ALT)}
            if not all(ent.values()):
                continue
            pernode = {}
            for n in nodes:
                vals = {lb: (ent[lb]["nodes"].get(n) or {}).get("values") for lb in ent}
                pernode[n] = (ratio(vals[REF], vals[SERIES]), vals)
            out.append({
                "topology": j["topology"], "run_id": j["run_id"], "series": j["series"],
                "cpus": split, "dev": dev, "side": side, "target": g["target"],
                "metric": mname, "nodes": nodes, "pernode": pernode,
                "equal": ratio(ent[SERIES].get("sum"), ent[ALT].get("sum")),
                "weighted": ratio(ent[SERIES].get("wsum"), ent[ALT].get("wsum")),
                "means": {lb: {n: (ent[lb]["nodes"].get(n) or {}).get("mean") for n in nodes}
                          for lb in ent},
            })
    return out


def fmt_text(rs, runs):
    series = sorted({" ".join(r["series"]) for r in rs})
    out = ["# make compare-rules over %d topologies; the series measured: %s"
           % (len(runs), "; ".join(series)),
           "# run ids: %s" % ", ".join("%s %s" % (j["topology"], j["run_id"]) for j in runs),
           "# rule-a: the series (the only queue of a map on the tag set's node);",
           "# rule-b: patches/alt/rule-b.patch (the node nearest most of the queue's CPUs).",
           "# QEMU TCG guests, the remote-access meter: counts, not times; no real hardware.",
           "# Written by fio-jobs/rules_matrix.py from each topology's rules.json.",
           ""]
    out.append("Who gains, who loses: rule-a / vanilla, remote accesses per I/O of the")
    out.append("submitters on each node (< 1: fewer, the submitters gain)")
    out.append("")
    head = ["CPUs", "device", "target", "metric", "node", "vanilla", "rule-a",
            "rule-a/vanilla [95% CI]", "submitters"]
    lines = []
    for r in rs:
        for n in r["nodes"]:
            rc = r["pernode"][n][0]
            m = r["means"]
            lines.append([r["cpus"], "node %d (%s)" % (r["dev"], r["side"]), r["target"],
                          r["metric"], n, "%.1f" % m[REF][n] if m[REF][n] is not None else "-",
                          "%.1f" % m[SERIES][n] if m[SERIES][n] is not None else "-",
                          fmt(rc), who(rc)])
    out += render_table(head, lines, 3)
    out += ["", "The decision: rule-b / rule-a, remote accesses per I/O summed over the",
            "nodes (each node submits alike) and weighted by each node's CPUs",
            "(< 1: rule-b has fewer)", ""]
    head = ["CPUs", "device", "target", "metric", "rule-b/rule-a equal [95% CI]",
            "rule-b/rule-a weighted [95% CI]"]
    lines = [[r["cpus"], "node %d (%s)" % (r["dev"], r["side"]), r["target"], r["metric"],
              fmt(r["equal"]), fmt(r["weighted"])] for r in rs]
    out += render_table(head, lines, 2)
    out += ["", "For the changelog (%s; x/y: mean ratio [95%% CI]; < 1: fewer"
            % ", ".join(CHANGELOG_TARGETS),
            "remote accesses per I/O for the first kernel named):", ""]
    out += fmt_changelog(rs, CHANGELOG_TARGETS)
    return "\n".join(out) + "\n"


def fmt3(rc):
    return "%.2f [%.2f,%.2f]" % tuple(rc) if rc else "-"


def fmt_changelog(rs, targets):
    """The table the rule's changelog quotes, under 73 columns: per
    topology and target in TARGETS, per submitting node rule-a/vanilla
    and rule-b/rule-a, then rule-b/rule-a summed (each node alike) and
    weighted by the CPUs; a group's keys on its first row only."""
    head = ["CPUs", "dev", "target", "submitters", "series/vanilla", "rule-b/series"]
    groups = []
    for r in rs:
        if r["target"] not in targets:
            continue
        rows_ = []
        for n in r["nodes"]:
            rc, vals = r["pernode"][n]
            rows_.append(["node %s" % n, fmt3(rc), fmt3(ratio(vals[SERIES], vals[ALT]))])
        rows_.append(["all alike", "", fmt3(r["equal"])])
        rows_.append(["by CPUs", "", fmt3(r["weighted"])])
        groups.append([[r["cpus"], "%d" % r["dev"], r["target"]] + rows_[0]] +
                      [["", "", ""] + x for x in rows_[1:]])
    cells = [head] + [line for g in groups for line in g]
    w = [max(len(c[i]) for c in cells) for i in range(len(head))]

    def one(c):
        return "  ".join(x.ljust(wi) for x, wi in zip(c, w)).rstrip()
    out = [one(head)]
    for g in groups:
        out.append("")
        out += [one(c) for c in g]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--topo-dir", required=True)
    ap.add_argument("--text")
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    args = ap.parse_args()
    try:
        runs = [load(d) for d in args.dirs]
        rs = rows(runs, args.topo_dir)
        if not rs:
            raise InputError("no target with all of %s, %s, %s" % (REF, SERIES, ALT))
    except InputError as e:
        print("rules_matrix.py: %s" % e, file=sys.stderr)
        return 1
    text = fmt_text(rs, runs)
    sys.stdout.write(text)
    if args.text:
        with open(args.text, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
