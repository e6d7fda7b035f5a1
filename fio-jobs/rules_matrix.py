#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The queue-node rules over several topologies: make compare-rules with
RULES_TOPO naming more than one (each topology's run in its own
directory, rules.json of rules_report.py), in one table per question.

    rules_matrix.py --topo-dir harness/topo [--text F] [--how TEXT] DIR [DIR..]

--how: how the runs were made (the command), printed first.

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
CHANGELOG_TARGETS = ("megaraid_sas", "virtio_scsi")


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
    """other / base with its CI from two lists, or None; (0, 0, 0) when
    every value of other is 0 (stats.ratio_ci95 takes logs)."""
    if not base or not other:
        return None
    if all(v == 0 for v in other) and stats.mean(base) > 0:
        return (0.0, 0.0, 0.0)
    return stats.ratio_ci95(base, other)


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
        others = [v for n, v in cpus.items() if n != str(dev)]
        side = ("larger" if devc > max(others) else "smaller" if devc < max(others) else
                "equal") if others else "-"
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
                "break_even": break_even(j, g["target"], key),
            })
    return out


def fmt_text(rs, runs, how=""):
    series = sorted({" ".join(r["series"]) for r in rs})
    reps = sorted({len(v) for r in rs for n in r["nodes"]
                   for v in r["pernode"][n][1].values() if v})
    out = (["# " + how] if how else []) + [
           "# make compare-rules over %d topologies, %s repetitions per kernel;"
           % (len(runs), ", ".join(map(str, reps))),
           "# the series measured (commit tree): %s" % "; ".join(series),
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
    out += ["", "For the changelog (%s):" % ", ".join(CHANGELOG_TARGETS),
            "remote accesses per I/O of the submitters on each node,",
            "mean±95% CI half width over the guests;",
            "rule-b/series: ratio [95% CI], below 1: rule-b has fewer.", ""]
    out += fmt_changelog(rs, CHANGELOG_TARGETS)
    return "\n".join(out) + "\n"


def fmt3(rc):
    return "%.2f [%.2f,%.2f]" % tuple(rc) if rc else "-"


def fmt_mean(vals):
    """mean±half width of its 95% CI, integers (counts per I/O)."""
    if not vals:
        return "-"
    h = stats.ci95_half(vals) if len(vals) > 1 else None
    return "%.0f" % stats.mean(vals) + ("±%.0f" % h if h is not None else "")


def break_even(j, target, key):
    """rules_report.py's break-even of rule-b against rule-a (its
    rules.json: the CPU ratio node A : node B, two nodes only) as
    (ratio, side), or None where it wrote none."""
    for b in j.get("break_even", []):
        if (b.get("pair") == [ALT, SERIES] and b.get("target") == target and
                b.get("metric") == key and (b.get("job"), b.get("qd")) == ("randread-4k", 32)):
            return (b.get("ratio"), b.get("side"))
    return None


def fmt_changelog(rs, targets):
    """The table the rule's changelog quotes, under 73 columns: per
    topology and target in TARGETS, per submitting node the remote
    accesses per I/O of each kernel (mean±95% CI half width), then
    rule-b/rule-a summed over the nodes (each node alike) and weighted
    by the CPUs, and the CPU ratio at which the two weigh the same."""
    head = ["CPUs", "dev", "target", "submitters", "vanilla", "series", "rule-b"]
    groups = []
    for r in rs:
        if r["target"] not in targets:
            continue
        rows_ = []
        for i, n in enumerate(r["nodes"]):
            vals = r["pernode"][n][1]
            key = [r["cpus"], "%d" % r["dev"], r["target"]] if i == 0 else ["", "", ""]
            rows_.append(key + ["node %s" % n] + [fmt_mean(vals[lb]) for lb in (REF, SERIES, ALT)])
        text = ["rule-b/series: nodes alike %s, by CPUs %s" % (fmt3(r["equal"]), fmt3(r["weighted"]))]
        be = r["break_even"]
        if all(rc and rc[1] <= 1 <= rc[2] for rc in (r["equal"], r["weighted"])):
            text.append("no difference resolved between rule-b and series")
        elif be:
            ratio_, side = be
            text.append("rule-b has fewer by CPUs " + (
                "at any ratio" if side == "always" else "at no ratio" if side == "never" else
                "while node %s : node %s CPUs is %s %.2f" % (r["nodes"][0], r["nodes"][1], side, ratio_)))
        groups.append((rows_, text))
    cells = [head] + [c for g, _t in groups for c in g]
    w = [max(len(c[i]) for c in cells) for i in range(len(head))]

    def one(c):
        return "  ".join(x.ljust(wi) for x, wi in zip(c, w)).rstrip()
    out = [one(head)]
    for g, text in groups:
        out.append("")
        out += [one(c) for c in g]
        out += ["  " + t for t in text]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--topo-dir", required=True)
    ap.add_argument("--text")
    ap.add_argument("--how", default="")
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
    text = fmt_text(rs, runs, args.how)
    sys.stdout.write(text)
    if args.text:
        with open(args.text, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
