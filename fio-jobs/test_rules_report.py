#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of rules_report.py's arithmetic: the per-node means, the sum
and CPU-weighted sum per repetition, the ratios against a reference and a
pair, kinds a window did not touch counted 0.  The per-run metrics are
given (meter_metrics.run_metrics stubbed); their own tests are in
test_meter_report.py.  Run: python3 test_rules_report.py."""
import os
import sys
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rules_report as rr  # noqa: E402
from results import Group  # noqa: E402


def runs(vals):
    """Runs of repetitions 1.., each with its given metrics."""
    return [{"rep": i + 1, "m": m} for i, m in enumerate(vals)]


def m(acc, hctx=None, obj=None):
    d = {"remote_acc_k": acc, "remote_miss_k": acc / 100.0}
    if obj is not None:
        d["obj_remote_acc"] = obj
        if hctx is not None:
            d["obj_acc:hctx"] = hctx
    return d


class Rules(unittest.TestCase):
    def setUp(self):
        # rule-a: objects remote for node 1's submitters; rule-b: for node 0's.
        self.groups = {
            Group("hba", "randread-4k", 32, "0", "0"): {
                "vanilla": runs([m(100, 0, 0), m(110, 0, 0)]),
                "rule-a": runs([m(100, 0, 0), m(110, 0, 0)]),
                "rule-b": runs([m(140, 30, 40), m(150, 30, 40)])},
            Group("hba", "randread-4k", 32, "1", "1"): {
                "vanilla": runs([m(200, 30, 40), m(210, 30, 40)]),
                "rule-a": runs([m(200, 30, 40), m(210, 30, 40)]),
                "rule-b": runs([m(160, None, 0), m(170, None, 0)])},
            # another memory node: left out
            Group("hba", "randread-4k", 32, "0", "1"): {"vanilla": runs([m(999)])},
        }
        patcher = mock.patch.object(rr.meter_metrics, "run_metrics", lambda r, _c: r["m"])
        patcher.start()
        self.addCleanup(patcher.stop)
        self.agg = rr.aggregate(self.groups, {"0": 3, "1": 2})
        rr.compare(self.agg, {"rule-a": ["vanilla"], "rule-b": ["vanilla", "rule-a"]})

    def test_node_cpus(self):
        self.assertEqual(rr.parse_node_cpus("0=3,1=2"), {"0": 3, "1": 2})
        self.assertRaises(ValueError, rr.parse_node_cpus, "0:3")

    def test_sums(self):
        e = self.agg["hba", "randread-4k", 32]["rule-b"]["remote_acc_k"]
        self.assertEqual(e["sum"], [300, 320])
        self.assertAlmostEqual(e["nodes"]["0"]["mean"], 145)
        self.assertEqual(e["nodes"]["1"]["n"], 2)
        self.assertAlmostEqual(e["wsum"][0], (3 * 140 + 2 * 160) / 5)

    def test_kinds(self):
        by = self.agg["hba", "randread-4k", 32]
        # hctx absent from node 1's windows of rule-b: 0 there
        self.assertEqual(by["rule-b"]["blkmq_remote_acc"]["sum"], [30, 30])
        self.assertEqual(by["rule-b"]["scsi_remote_acc"]["sum"], [10, 10])
        self.assertEqual(by["vanilla"]["scsi_remote_acc"]["nodes"]["1"]["values"], [10, 10])

    def test_ratios(self):
        by = self.agg["hba", "randread-4k", 32]
        r, lo, hi = by["rule-b"]["remote_acc_k"]["vs"]["rule-a"]["sum"]
        self.assertAlmostEqual(r, 310 / 310)
        self.assertTrue(lo < 1 < hi)
        # weighted: rule-b (3x145 + 2x165)/5 = 153 against rule-a (3x105 + 2x205)/5 = 145
        self.assertAlmostEqual(by["rule-b"]["remote_acc_k"]["vs"]["rule-a"]["wsum"][0], 153 / 145)
        self.assertNotIn("vs", by["vanilla"]["remote_acc_k"])
        text = rr.fmt_text(self.agg, ["vanilla", "rule-a", "rule-b"],
                           {"rule-a": ["vanilla"], "rule-b": ["vanilla", "rule-a"]}, ["0", "1"])
        self.assertIn("sum x rule-a [95% CI]", text)
        self.assertEqual(sum(1 for ln in text.splitlines()
                             if ln.startswith("kernel remote acc/IO ") and "| rule-b " in ln
                             and "x1.000 [" in ln), 1)

    def test_summary(self):
        text = rr.fmt_summary(self.agg, ["vanilla", "rule-a", "rule-b"], ("rule-b", "rule-a"))
        row = [ln for ln in text.splitlines() if ln.startswith("hba ") and "| kernel remote acc" in ln]
        self.assertEqual(len(row), 1)
        self.assertIn("| 310 ± 14.1 ", row[0])
        self.assertIn("x1.055 [", row[0])      # weighted: 153 / 145
        self.assertNotIn("LLC miss", text)

    def test_break_even(self):
        be = rr.break_even(self.agg, ("rule-b", "rule-a"))
        # kernel: rule-b - rule-a = +40 on node 0, -40 on node 1: tie at 1.0
        r, side = be["hba", "randread-4k", 32, "remote_acc_k"]
        self.assertAlmostEqual(r, 1.0)
        self.assertEqual(side, "below")
        # blk-mq objects: +30 on node 0, -30 on node 1
        self.assertAlmostEqual(be["hba", "randread-4k", 32, "blkmq_remote_acc"][0], 1.0)
        text = rr.fmt_summary(self.agg, ["vanilla", "rule-a", "rule-b"], ("rule-b", "rule-a"))
        self.assertIn("blk-mq objects remote acc/IO: rule-b has fewer while CPUs node 0 : "
                      "node 1 is below 1.00", text)


if __name__ == "__main__":
    unittest.main()
