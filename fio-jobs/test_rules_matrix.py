#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of rules_matrix.py: the ratios of its tables from each
topology's rules.json, the device's side from the topology file, the
metric per target, and refusals of incomplete input.  The rules.json
files are written here, as rules_report.py writes them.  Run: python3
test_rules_matrix.py."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rules_matrix as rm  # noqa: E402
import stats  # noqa: E402


def entry(per_node, cpus):
    """A rules_report entry from {node: [values per repetition]}."""
    reps = list(range(1, len(next(iter(per_node.values()))) + 1))
    total = sum(cpus.values())
    return {"nodes": {n: {"mean": stats.mean(v), "values": v} for n, v in per_node.items()},
            "reps": reps,
            "sum": [sum(v[i] for v in per_node.values()) for i in range(len(reps))],
            "wsum": [sum(cpus[n] * v[i] / total for n, v in per_node.items())
                     for i in range(len(reps))]}


def write_run(d, topo, cpus, kernels, target="megaraid_sas", key="obj_remote_acc", be=None):
    os.makedirs(d)
    groups = [{"target": target, "job": "randread-4k", "qd": 32,
               "kernels": {lb: {key: entry(v, cpus)} for lb, v in kernels.items()}}]
    with open(os.path.join(d, "rules.json"), "w") as f:
        json.dump({"run_id": "r-" + topo, "topology": topo, "node_cpus": cpus,
                   "groups": groups, "break_even": be or []}, f)
    with open(os.path.join(d, "series-commit"), "w") as f:
        f.write("c0ffee tree0\n")


class Matrix(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.top = self.tmp.name
        self.topo = os.path.join(self.top, "topo")
        os.makedirs(self.topo)
        for name, dev in (("t21", 1), ("t23", 1)):
            with open(os.path.join(self.topo, name), "w") as f:
                f.write("TOPO_NODES=2\nTOPO_DEV_NODE=%d\n" % dev)
        # Queue on node 1 (rule-a) halves node 1's accesses against node 0
        # (vanilla, rule-b), and doubles node 0's.
        self.kern = {"vanilla": {"0": [10, 10.2], "1": [40, 40.4]},
                     "rule-a": {"0": [20, 20.4], "1": [20, 20.2]},
                     "rule-b": {"0": [10, 10.1], "1": [40, 40.2]}}
        write_run(os.path.join(self.top, "a"), "t21", {"0": 2, "1": 1}, self.kern)

    def tearDown(self):
        self.tmp.cleanup()

    def rows(self, dirs=("a",)):
        return rm.rows([rm.load(os.path.join(self.top, d)) for d in dirs], self.topo)

    def test_ratios(self):
        r = self.rows()[0]
        self.assertEqual((r["cpus"], r["dev"], r["side"], r["metric"]), ("2+1", 1, "smaller", "objects"))
        k = self.kern
        self.assertAlmostEqual(r["pernode"]["0"][0][0], stats.mean(k["rule-a"]["0"]) / stats.mean(k["vanilla"]["0"]))
        self.assertAlmostEqual(r["pernode"]["1"][0][0], stats.mean(k["rule-a"]["1"]) / stats.mean(k["vanilla"]["1"]))
        sums = {lb: [k[lb]["0"][i] + k[lb]["1"][i] for i in range(2)] for lb in k}
        self.assertAlmostEqual(r["equal"][0], stats.mean(sums["rule-b"]) / stats.mean(sums["rule-a"]))
        w = {lb: [(2 * k[lb]["0"][i] + k[lb]["1"][i]) / 3 for i in range(2)] for lb in k}
        self.assertAlmostEqual(r["weighted"][0], stats.mean(w["rule-b"]) / stats.mean(w["rule-a"]))

    def test_who(self):
        r = self.rows()[0]
        self.assertEqual(rm.who(r["pernode"]["0"][0]), "loses")
        self.assertEqual(rm.who(r["pernode"]["1"][0]), "gains")
        self.assertEqual(rm.who((1.0, 0.9, 1.1)), "not resolved")

    def test_side_and_null_blk_metric(self):
        write_run(os.path.join(self.top, "b"), "t23", {"0": 2, "1": 3}, self.kern,
                  target="null_blk", key="remote_acc_k")
        r = self.rows(("b",))[0]
        self.assertEqual((r["side"], r["metric"], r["cpus"]), ("larger", "kernel", "2+3"))

    def test_changelog_table_width_and_figures(self):
        text = rm.fmt_text(self.rows(), [rm.load(os.path.join(self.top, "a"))])
        cl = text[text.index("For the changelog"):].splitlines()
        self.assertTrue(all(len(x) <= 72 for x in cl), max(cl, key=len))
        r = self.rows()[0]
        self.assertIn(rm.fmt3(r["equal"]), text)
        self.assertIn("c0ffee tree0", text)

    def test_same_placement_not_resolved(self):
        self.kern["rule-b"] = {"0": [20.2, 20.0], "1": [20.1, 20.2]}
        write_run(os.path.join(self.top, "e"), "t23", {"0": 2, "1": 3}, self.kern)
        cl = rm.fmt_changelog(self.rows(("e",)), ("megaraid_sas",))
        self.assertIn("  no difference resolved between rule-b and series", cl)
        self.assertFalse(any("has fewer" in x for x in cl))

    def test_break_even_from_rules_report(self):
        be = [{"pair": ["rule-b", "rule-a"], "target": "megaraid_sas", "job": "randread-4k",
               "qd": 32, "metric": "obj_remote_acc", "ratio": 1.25, "side": "above"},
              {"pair": ["rule-b", "vanilla"], "target": "megaraid_sas", "job": "randread-4k",
               "qd": 32, "metric": "obj_remote_acc", "ratio": 9.0, "side": "below"}]
        write_run(os.path.join(self.top, "f"), "t21", {"0": 2, "1": 1}, self.kern, be=be)
        cl = rm.fmt_changelog(self.rows(("f",)), ("megaraid_sas",))
        self.assertIn("  rule-b has fewer by CPUs while node 0 : node 1 CPUs is above 1.25", cl)
        self.assertFalse(any("9.00" in x for x in cl))

    def test_refuses_missing_kernel(self):
        del self.kern["rule-b"]
        write_run(os.path.join(self.top, "c"), "t21", {"0": 2, "1": 1}, self.kern)
        sys.argv = ["rules_matrix.py", "--topo-dir", self.topo, os.path.join(self.top, "c")]
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            self.assertEqual(rm.main(), 1)
        self.assertIn("no target with all of", err.getvalue())

    def test_refuses_unknown_topology(self):
        write_run(os.path.join(self.top, "d"), "nosuch", {"0": 2, "1": 1}, self.kern)
        with self.assertRaises(rm.InputError):
            self.rows(("d",))


if __name__ == "__main__":
    unittest.main()
