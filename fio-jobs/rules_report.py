#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The queue-node rule comparison (make compare-rules): N kernels, each
against a reference and against each other in given pairs.

    rules_report.py --ref LABEL [--pair LABEL:REF ..] [--node-cpus N=C,..]
                    [--text F] [--json F] [--summary F] [--run-id ID]
                    [--topology NAME] DIR [DIR..]

DIR as for report.py (OUTDIR/LABEL of run.sh, or an OUTDIR of several).
For every target, metric (meter_metrics: kernel remote accesses per I/O,
the same for the objects the placement inspector reports, kernel remote
LLC misses per I/O) and kernel: the mean per submitter CPU node with the
half width of its 95% CI, the sum over the CPU nodes (fio on each node in
turn: one guest's runs per repetition) with its stddev over the
repetitions, and the CPU-weighted sum (each node's value times its share
of the present CPUs, --node-cpus: I/O submitted in proportion to the CPUs,
what the distance-sum rule optimises); then each kernel's sum and weighted
sum over the reference's and over each --pair's, with the ratio's 95% CI
(stats.ratio_ci95: delta method, Welch df), pairing nothing: the
repetitions of two kernels are independent guests.  --summary: the sums
alone, with the first --pair's ratios (the decision's table).
Exit 0 when written, 1 on missing or malformed input.  Standard library.
"""
import argparse
import json
import sys

import meter_metrics
import stats
from meter_report import fmt_num, render_table
from results import InputError, load

# The blk-mq objects among the inspector's kinds (rq_page: the static
# requests with their scsi_cmnd and driver pdus); the other kinds are the
# SCSI objects (include/scsi_numa_inspect.h).
BLK_MQ_KINDS = ("hctx", "tags", "rq_page", "request_queue")
# The metrics of the rule table: key, title.
METRICS = [
    ("remote_acc_k", "kernel remote acc/IO"),
    ("obj_remote_acc", "all objects remote acc/IO"),
    ("blkmq_remote_acc", "blk-mq objects remote acc/IO"),
    ("scsi_remote_acc", "SCSI objects remote acc/IO"),
    ("remote_miss_k", "kernel remote LLC miss/IO"),
]


def parse_node_cpus(text):
    """"0=3,1=2" -> {"0": 3, "1": 2}; ValueError on anything else."""
    out = {}
    for part in (text or "").split(","):
        if not part:
            continue
        node, _eq, cpus = part.partition("=")
        if not node.isdigit() or not cpus.isdigit() or int(cpus) < 0:
            raise ValueError("--node-cpus %r: N=CPUS,.." % text)
        out[node] = int(cpus)
    return out


def run_values(run, cache):
    """The METRICS of one run (meter_metrics.run_metrics), {} without meter
    counts.  A kind the window did not touch counts 0 (the meter prints
    only the kinds it saw)."""
    m = meter_metrics.run_metrics(run, cache)
    if "remote_acc_k" not in m:
        return {}
    out = {"remote_acc_k": m["remote_acc_k"], "remote_miss_k": m["remote_miss_k"]}
    if "obj_remote_acc" in m:
        out["obj_remote_acc"] = m["obj_remote_acc"]
        blk = sum(m.get("obj_acc:" + k, 0.0) for k in BLK_MQ_KINDS)
        out["blkmq_remote_acc"] = blk
        out["scsi_remote_acc"] = m["obj_remote_acc"] - blk
    return out


def aggregate(groups, node_cpus):
    """{(target, job, qd): {label: {metric: entry}}}, entry = {"nodes":
    {node: {mean, ci95, n, values}}, "reps": [..], "sum": [per
    repetition], "wsum": [per repetition]}.  Runs whose memory follows the
    CPU node only; a sum over the repetitions every CPU node has."""
    cache = meter_metrics.MeterCache()
    per = {}
    for g, labels in groups.items():
        if g.mem_node != g.cpu_node:
            continue
        for label, runs in labels.items():
            for r in runs:
                for k, v in run_values(r, cache).items():
                    per.setdefault((g.target, g.job, g.qd), {}).setdefault(label, {}) \
                        .setdefault(k, {}).setdefault(g.cpu_node, {})[r["rep"]] = v
    total = sum(node_cpus.values())
    out = {}
    for key in sorted(per, key=lambda k: (TARGET_ORDER.index(k[0]) if k[0] in TARGET_ORDER
                                          else len(TARGET_ORDER), k)):
        for label, metrics in per[key].items():
            ent = {}
            for k, _t in METRICS:
                bynode = metrics.get(k)
                if not bynode:
                    continue
                reps = sorted(set.intersection(*(set(v) for v in bynode.values())))
                e = {"nodes": {}, "reps": reps}
                for n, v in bynode.items():
                    xs = [v[r] for r in sorted(v)]
                    e["nodes"][n] = {"mean": stats.mean(xs), "ci95": stats.ci95_half(xs),
                                     "n": len(xs), "values": xs}
                e["sum"] = [sum(v[r] for v in bynode.values()) for r in reps]
                if total and all(n in node_cpus for n in bynode):
                    e["wsum"] = [sum(node_cpus[n] * v[r] / total for n, v in bynode.items())
                                 for r in reps]
                ent[k] = e
            out.setdefault(key, {})[label] = ent
    return out


TARGET_ORDER = ["null_blk", "scsi_debug", "megaraid_sas", "ahci", "virtio_scsi"]


def compare(agg, comparisons):
    """Adds, per entry, "vs": {ref: {"sum": [r, lo, hi] or None, "wsum": ..}}."""
    for labels in agg.values():
        for label, ent in labels.items():
            for ref in comparisons.get(label, []):
                base = labels.get(ref)
                if not base:
                    continue
                for k, e in ent.items():
                    b = base.get(k)
                    if not b:
                        continue
                    e.setdefault("vs", {})[ref] = {
                        agg_key: (list(stats.ratio_ci95(b[agg_key], e[agg_key]) or [])
                                  or None) if agg_key in e and agg_key in b else None
                        for agg_key in ("sum", "wsum")}


def fmt_ratio(rc):
    if not rc:
        return "-"
    return "x%.3f [%.3f, %.3f]" % tuple(rc)


def fmt_text(agg, labels, comparisons, nodes):
    refs = []
    for label in labels:
        for ref in comparisons.get(label, []):
            if ref not in refs:
                refs.append(ref)
    out = []
    for (target, job, qd), by in agg.items():
        out.append("%s, %s qd %s" % (target, job, qd))
        out.append("")
        head = ["metric", "kernel"] + ["node %s" % n for n in nodes] + \
            ["sum ± sd", "weighted ± sd"] + \
            ["sum x %s [95%% CI]" % r for r in refs] + ["weighted x %s [95%% CI]" % r for r in refs]
        lines = []
        for k, title in METRICS:
            for label in labels:
                e = by.get(label, {}).get(k)
                if not e:
                    continue
                line = [title, label]
                for n in nodes:
                    ne = e["nodes"].get(n)
                    line.append("-" if not ne else "%s ± %s" % (
                        fmt_num(ne["mean"]), fmt_num(ne["ci95"])))
                for agg_key in ("sum", "wsum"):
                    xs = e.get(agg_key)
                    line.append("-" if not xs else "%s ± %s" % (
                        fmt_num(stats.mean(xs)), fmt_num(stats.stddev(xs))))
                for agg_key in ("sum", "wsum"):
                    for r in refs:
                        line.append("" if r == label or r not in comparisons.get(label, [])
                                    else fmt_ratio((e.get("vs", {}).get(r) or {}).get(agg_key)))
                lines.append(line)
        out += render_table(head, lines, 1)
        out.append("")
    n = sorted({len(ne["values"]) for by in agg.values() for ent in by.values()
                for e in ent.values() for ne in e["nodes"].values()})
    out += [
        "Per submitter node: mean ± 95%% CI half width over the repetitions (n = %s);"
        % ", ".join(map(str, n)),
        "sum: over the CPU nodes, each repetition one guest, ± sample stddev;",
        "weighted: each node's value x its share of the present CPUs (%s);"
        % ", ".join("node %s: %s" % kv for kv in sorted(comparisons.get("__cpus__", {}).items())),
        "x REF: the kernel's mean over REF's, 95% CI (delta method, Welch df).",
        "blk-mq objects: the placement inspector's hctx, tags, rq_page (static requests",
        "with their scsi_cmnd and driver pdus) and request_queue; SCSI objects: its other",
        "kinds.  The inspector walks SCSI hosts only: null_blk has no object rows.",
    ]
    return "\n".join(out) + "\n"


def break_even(agg, pair):
    """On two CPU nodes: {(target, job, qd, metric): (ratio, side)}: the
    CPU-count ratio node A : node B (A, B the two nodes in order) at which
    PAIR's two kernels have the same CPU-weighted mean, with "below" when
    the pair's first kernel has fewer at ratios below it, "above" when
    above; (None, "always") or (None, "never") when no ratio ties them.
    From the per-node means: w_A d_A + w_B d_B = 0, d = first - second."""
    label, ref = pair
    out = {}
    for (t, j, q), by in agg.items():
        for k, _t in METRICS:
            a, b = (by.get(label, {}).get(k), by.get(ref, {}).get(k))
            if not a or not b or len(a["nodes"]) != 2 or set(a["nodes"]) != set(b["nodes"]):
                continue
            na, nb = sorted(a["nodes"], key=int)
            da = a["nodes"][na]["mean"] - b["nodes"][na]["mean"]
            db = a["nodes"][nb]["mean"] - b["nodes"][nb]["mean"]
            if da * db >= 0:
                out[t, j, q, k] = (None, "always" if da + db < 0 else "never")
            else:
                out[t, j, q, k] = (-db / da, "below" if da > 0 else "above")
    return out


def fmt_break_even(be, pair, nodes):
    """The break-even lines of the summary."""
    lines = []
    for (t, j, q, k), (r, side) in be.items():
        if k not in ("obj_remote_acc", "blkmq_remote_acc"):
            continue        # the whole kernel's background is too noisy for it
        title = dict(METRICS)[k]
        name = t if (j, q) == ("randread-4k", 32) else "%s %s qd%s" % (t, j, q)
        if r is None:
            lines.append("  %s, %s: %s has fewer %s" % (name, title, pair[0],
                         "at any CPU ratio" if side == "always" else "at no CPU ratio"))
        else:
            lines.append("  %s, %s: %s has fewer while CPUs node %s : node %s is %s %.2f"
                         % (name, title, pair[0], nodes[0], nodes[1], side, r))
    return lines


def fmt_summary(agg, labels, pair):
    """The compact table: per target and metric the sums of every kernel
    and PAIR (label, ref)'s ratio of the sums and of the weighted sums."""
    label, ref = pair
    head = ["target", "metric (sum over the CPU nodes)"] + labels + \
        ["%s/%s sum [95%% CI]" % pair, "%s/%s CPU-weighted [95%% CI]" % pair]
    lines = []
    for (target, job, qd), by in agg.items():
        name = target if (job, qd) == ("randread-4k", 32) else "%s %s qd%s" % (target, job, qd)
        for k, title in METRICS:
            if k == "remote_miss_k" or not any(k in by.get(lb, {}) for lb in labels):
                continue
            line = [name, title]
            for lb in labels:
                e = by.get(lb, {}).get(k)
                line.append("-" if not e or not e["sum"] else "%s ± %s" % (
                    fmt_num(stats.mean(e["sum"])), fmt_num(stats.stddev(e["sum"]))))
            vs = (by.get(label, {}).get(k) or {}).get("vs", {}).get(ref) or {}
            line += [fmt_ratio(vs.get("sum")), fmt_ratio(vs.get("wsum"))]
            lines.append(line)
    out = render_table(head, lines, 1)
    nodes = sorted({n for by in agg.values() for ent in by.values() for e in ent.values()
                    for n in e["nodes"]}, key=int)
    be = break_even(agg, pair)
    if be and len(nodes) == 2:
        out += ["", "Break-even of the CPU-weighted means (point estimates from the per-node means):"]
        out += fmt_break_even(be, pair, nodes)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ref", required=True, help="the reference label (vanilla)")
    ap.add_argument("--pair", action="append", default=[], metavar="LABEL:REF",
                    help="also compare LABEL with REF (repeatable)")
    ap.add_argument("--node-cpus", default="", metavar="N=C,..",
                    help="present CPUs per node, for the weighted sum")
    ap.add_argument("--text")
    ap.add_argument("--json")
    ap.add_argument("--summary", help="write the compact table of the sums and of the "
                    "first --pair's ratios to this file")
    ap.add_argument("--run-id")
    ap.add_argument("--topology")
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    args = ap.parse_args()
    try:
        node_cpus = parse_node_cpus(args.node_cpus)
        groups = load(args.dirs)
        if not groups:
            raise InputError("no results found")
        labels = sorted({l for g in groups.values() for l in g},
                        key=lambda l: (l != args.ref, l))
        if args.ref not in labels:
            raise InputError("reference %r not found (labels: %s)" % (args.ref, ", ".join(labels)))
        comparisons = {l: [args.ref] for l in labels if l != args.ref}
        for p in args.pair:
            label, _c, ref = p.partition(":")
            if label not in labels or ref not in labels or label == ref:
                raise InputError("--pair %r: two different labels of %s" % (p, ", ".join(labels)))
            comparisons.setdefault(label, []).append(ref)
        agg = aggregate(groups, node_cpus)
        if not agg:
            raise InputError("no meter counts in %s" % " ".join(args.dirs))
    except (InputError, ValueError) as e:
        print("rules_report.py: %s" % e, file=sys.stderr)
        return 1
    compare(agg, comparisons)
    nodes = sorted({g.cpu_node for g in groups}, key=lambda n: (not n.isdigit(), int(n) if n.isdigit() else n))
    text = fmt_text(agg, labels, dict(comparisons, __cpus__=node_cpus), nodes)
    sys.stdout.write(text)
    if args.text:
        with open(args.text, "w") as f:
            f.write(text)
    if args.summary:
        pairs = [p.partition(":")[::2] for p in args.pair] or \
            [(l, args.ref) for l in labels if l != args.ref][:1]
        with open(args.summary, "w") as f:
            f.write(fmt_summary(agg, labels, pairs[0]) if pairs else "")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"run_id": args.run_id, "topology": args.topology, "ref": args.ref,
                       "break_even": [{"pair": list(pair), "target": t, "job": j, "qd": q,
                                       "metric": k, "ratio": r, "side": side}
                                      for pair in [p.partition(":")[::2] for p in args.pair]
                                      for (t, j, q, k), (r, side) in break_even(agg, pair).items()],
                       "labels": labels, "comparisons": comparisons, "node_cpus": node_cpus,
                       "metrics": dict(METRICS),
                       "groups": [{"target": t, "job": j, "qd": q, "kernels": by}
                                  for (t, j, q), by in agg.items()]}, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
