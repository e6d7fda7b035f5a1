#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the meter's per-I/O arithmetic (meter_parse.py,
meter_metrics.py) and its tables (meter_report.py) on a tiny synthetic
meter file, test_data/meter-window.txt, and variants of it.
Run: python3 test_meter_report.py."""
import math
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import meter_metrics as mm  # noqa: E402
import meter_report  # noqa: E402
from meter_parse import MeterCache  # noqa: E402
from results import Group  # noqa: E402

with open(os.path.join(HERE, "test_data", "meter-window.txt")) as _f:
    METER = _f.read()


class MeterCase(unittest.TestCase):
    """meter-r1.txt: the fixture; r2: more remote traffic; r3: vCPU records
    that do not add up; r4: vCPU object records that do not add up;
    x.perf: perf stat -x, output with an unsupported event."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        files = {
            "meter-r1.txt": METER,
            "meter-r2.txt": METER.replace("reads 300 writes 100", "reads 500 writes 300")
                                 .replace("reads 200 writes 100", "reads 400 writes 300"),
            "meter-r3.txt": METER.replace("mode kernel reads 100 writes 0",
                                          "mode kernel reads 101 writes 0"),
            "meter-r4.txt": METER.replace("vcpu 2 object rq_page remote 50",
                                          "vcpu 2 object rq_page remote 51"),
            "x.perf": "# started on x\n\n123000,,mem_load_l3_miss_retired.remote_dram:k,1,"
                      "100.00,,\n<not supported>,,ocr.x:k,0,0.00,,\n",
        }
        for name, text in files.items():
            with open(os.path.join(cls.tmp, name), "w") as f:
                f.write(text)
        cls.cache = MeterCache()
        cls.base = {"dir": cls.tmp, "file": "x.json", "total_ios": 40, "perf_file": None}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_(self, **kw):
        return mm.run_metrics(dict(self.base, **kw), self.cache)

    def near(self, got, want):
        self.assertIsNotNone(got)
        self.assertLessEqual(abs(got - want), 1e-4 * max(1.0, abs(want)), "%r != %r" % (got, want))


class PerIO(MeterCase):
    def test_window_1(self):
        r1 = self.run_(rep=1, window=1, dev_ios=50)
        # remote kernel = (300+100) + (60+40) = 500 over 50 block-layer I/Os;
        # "none" nodes are neither local nor remote
        self.near(r1["remote_acc_k"], 500 / 50)
        self.near(r1["remote_miss_k"], (20 + 3) / 50)
        self.near(r1["acc_k"], (150 + 400 + 100 + 18) / 50)
        self.near(r1["remote_acc"], (500 + 50) / 50)
        self.near(r1["remote_miss"], (23 + 5) / 50)
        self.assertEqual(r1["ios_source"], "block layer")

    def test_fio_ios(self):
        # rep 2, no block count: fio's total_ios (40)
        r2 = self.run_(rep=2, window=1, dev_ios=None)
        self.near(r2["remote_acc_k"], (800 + 100) / 40)
        self.assertEqual(r2["ios_source"], "fio total_ios")
        r3 = self.run_(rep=1, window=2, dev_ios=0)
        self.near(r3["remote_acc_k"], 20 / 40)
        self.near(r3["remote_miss_k"], 2 / 40)

    def test_perf(self):
        r4 = self.run_(rep=1, window=None, dev_ios=100, perf_file=os.path.join(self.tmp, "x.perf"))
        self.near(r4.get("perf:mem_load_l3_miss_retired.remote_dram:k"), 1230.0)
        self.assertEqual(len([k for k in r4 if k.startswith("perf:")]), 1)

    def test_missing_window(self):
        with self.assertRaises(ValueError):
            self.run_(rep=1, window=3, dev_ios=1)

    def test_objects(self):
        # 300 + 200 of the 500 kernel remote accesses
        r1 = self.run_(rep=1, window=1, dev_ios=50)
        self.near(r1.get("obj_acc:rq_page"), 300 / 50)
        self.near(r1.get("obj_miss:rq_page"), 15 / 50)
        self.near(r1.get("obj_acc:other"), 200 / 50)
        self.near(r1.get("obj_share"), 1.0)
        self.near(r1.get("obj_remote_acc"), 300 / 50)
        self.near(r1.get("obj_remote_miss"), 15 / 50)
        self.near(self.run_(rep=2, window=1, dev_ios=None).get("obj_share"), 500 / 900)
        self.assertNotIn("obj_share", self.run_(rep=1, window=2, dev_ios=0))

    def test_ci95(self):
        self.near(mm.ci95([10.0, 12.0]), 12.706205)
        self.near(mm.ci95([1.0, 2.0, 3.0, 4.0, 5.0]), 2.776445 * math.sqrt(2.5) / math.sqrt(5))


class SplitByCPU(MeterCase):
    """vCPUs 0, 1 on node 0, vCPU 2 on node 1."""

    def test_submit_0_1(self):
        s1 = self.run_(rep=1, window=1, dev_ios=50, cpu_node="0", cpus="0-1", irq_cpus="2:40,0:10")
        # submit = vCPUs 0-1: vCPU 2's 100 remote accesses are the other side
        self.near(s1.get("remote_acc_k_sub"), 400 / 50)
        self.near(s1.get("remote_acc_k_oth"), 100 / 50)
        self.near(s1.get("remote_miss_k_sub"), 20 / 50)
        self.near(s1.get("remote_miss_k_oth"), 3 / 50)
        self.near(s1.get("irq"), 50 / 50)
        self.near(s1.get("irq_sub"), 10 / 50)
        self.near(s1.get("obj_remote_acc_sub"), 250 / 50)
        self.near(s1.get("obj_remote_acc_oth"), 50 / 50)
        self.near(s1.get("obj_remote_miss_sub"), 13 / 50)
        self.near(s1.get("obj_remote_miss_oth"), 2 / 50)
        r1 = self.run_(rep=1, window=1, dev_ios=50)
        self.near(s1["remote_acc_k_sub"] + s1["remote_acc_k_oth"], r1["remote_acc_k"])

    def test_submit_0(self):
        # vCPU 1, on the same node, is the other side
        s2 = self.run_(rep=1, window=1, dev_ios=50, cpu_node="0", cpus="0")
        self.near(s2.get("remote_acc_k_sub"), 300 / 50)
        self.near(s2.get("remote_acc_k_oth"), 200 / 50)
        self.near(s2.get("remote_miss_k_oth"), (5 + 3) / 50)
        self.assertNotIn("irq", s2)
        self.near(s2.get("obj_remote_acc_oth"), 100 / 50)

    def test_node_cpus(self):
        # no cpus column: the node's vCPUs (vCPU 2 for node 1)
        s3 = self.run_(rep=1, window=1, dev_ios=50, cpu_node="1")
        self.near(s3.get("remote_acc_k_sub"), 100 / 50)
        self.near(s3.get("remote_acc_k_oth"), 400 / 50)
        s4 = self.run_(rep=2, window=1, dev_ios=50, cpu_node="0", cpus="0-1")
        self.near(s4.get("remote_acc_k_sub"), 800 / 50)
        self.assertNotIn("remote_acc_k_sub", self.run_(rep=1, window=2, dev_ios=0))

    def test_refused(self):
        for rep, cpus, why in ((1, "2", "submit CPU on another node"),
                               (3, "0-1", "vcpus not adding up"),
                               (4, "0-1", "vcpu objects not adding up")):
            with self.assertRaises(ValueError, msg=why):
                self.run_(rep=rep, window=1, dev_ios=50, cpu_node="0", cpus=cpus)


class Tables(MeterCase):
    def meter_rows(self):
        """Two labels through add_meter: vanilla windows 1 (reps 1, 2),
        patched window 2 at 50 and 25 I/Os."""
        b = self.base
        mk = [dict(b, rep=1, window=1, dev_ios=50, iops=1.0), dict(b, rep=2, window=1, dev_ios=50, iops=1.0)]
        pk = [dict(b, rep=1, window=2, dev_ios=50, iops=1.0), dict(b, rep=1, window=2, dev_ios=25, iops=1.0)]
        groups = {Group("sd", "randread-4k", 32, "0", "0"): {"vanilla": mk, "patched": pk}}
        rows = [{"target": "sd", "job": "randread-4k", "qd": 32, "cpu_node": "0",
                 "mem_node": "0", "label": lb, "iops": [1.0, 1.0]} for lb in ("vanilla", "patched")]
        mm.add_meter(rows, groups, "vanilla")
        return rows

    def test_add_meter(self):
        rows = self.meter_rows()
        v, p = rows[0]["meter"]["remote_acc_k"], rows[1]["meter"]["remote_acc_k"]
        self.near(v["mean"], (10 + 18) / 2)
        self.near(v["stddev"], math.sqrt(2 * 4 ** 2))
        self.near(p["mean"], (0.4 + 0.8) / 2)
        self.near(p["ratio"], 0.6 / 14)
        self.assertIsNone(v["ratio"])

    def test_object_table(self):
        otab = meter_report.fmt_object_table(self.meter_rows(), "vanilla")
        self.assertEqual(sum(1 for ln in otab.splitlines() if "| rq_page " in ln and "| 6.00 " in ln), 1)

    def split_rows(self):
        vals = {("vanilla", "0"): [10, 2, 12, 1.0, 0.5, 1.5], ("vanilla", "1"): [4, 6, 10, 0.2, 0.3, 0.5],
                ("patched", "0"): [14, 2, 16, 1.2, 0.4, 1.6], ("patched", "1"): [2, 4, 6, 0.1, 0.2, 0.3]}
        rows = [{"target": t, "job": "randread-4k", "qd": 32, "cpu_node": n, "mem_node": n,
                 "label": lb, "meter": {k: {"mean": v} for k, v in zip(mm.SPLIT_COLS, vs)}}
                for t in ("hba", "half") for (lb, n), vs in vals.items()
                if not (t == "half" and (lb, n) == ("patched", "1"))]
        for r in rows:     # two repetitions, +-1 around each mean
            for m in r["meter"].values():
                m["values"] = [m["mean"] - 1, m["mean"] + 1]
        return rows

    def test_split_sums(self):
        sums, ratios, spread = mm.split_sums(self.split_rows(), "vanilla")
        g = mm.SplitGroup("hba", "randread-4k", 32, "cpu")
        self.near(sums[g, "vanilla"]["remote_acc_k"], 22)
        self.near(sums[g, "patched"]["remote_acc_k_sub"], 16)
        self.near(sums[g, "patched"]["remote_miss_k"], 1.9)
        self.near(ratios[g, "patched"]["remote_acc_k"], 1.0)
        self.near(ratios[g, "patched"]["remote_acc_k_oth"], 0.75)
        self.near(ratios[g, "patched"]["remote_miss_k"], 1.9 / 2.0)
        # no sum without every node
        self.assertNotIn((mm.SplitGroup("half", "randread-4k", 32, "cpu"), "vanilla"), sums)
        # per-repetition sums 20, 24 (vanilla) and 20, 24 (patched): stddev 2*sqrt(2)
        self.near(spread[g, "vanilla"]["remote_acc_k"][0], 2 * math.sqrt(2))
        lo, hi = spread[g, "patched"]["remote_acc_k"][1]
        self.assertTrue(lo < 1 < hi)

    def test_split_tables(self):
        srows = self.split_rows()
        stab = meter_report.fmt_split_table(srows, "vanilla")
        self.assertEqual(sum(1 for ln in stab.splitlines() if ln.startswith("hba ") and
                             "patched/vanilla" in ln and "x0.750" in ln and "x0.950" in ln), 1)
        orows = [dict(r, meter=dict(zip(mm.OBJ_SPLIT_COLS, (r["meter"][k] for k in mm.SPLIT_COLS))))
                 for r in srows]
        otab = meter_report.fmt_split_table(orows, "vanilla", mm.OBJ_SPLIT_COLS)
        self.assertEqual(sum(1 for ln in otab.splitlines() if ln.startswith("hba ") and
                             "patched/vanilla" in ln and "x0.750" in ln), 1)
        self.assertNotIn("IRQ", otab)


class KatSplit(unittest.TestCase):
    """qemu-plugin/kat/split.py, the known-answer test's view of the report's
    split, run as the KAT runs it: window 1 of the fixture, submitters CPU 0
    on node 0, kernel mode.  By hand: vCPU 0's remote kernel accesses are
    200 + 100 = 300 (submit side); vCPU 1's 100 and vCPU 2's 60 + 40 are the
    other side, 200; vCPU 4 has no node and is left out."""

    def test_split_script(self):
        import subprocess
        script = os.path.join(HERE, "..", "qemu-plugin", "kat", "split.py")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "meter.txt")
            with open(path, "w") as f:
                f.write(METER)
            env = dict(os.environ, PYTHONPATH=HERE)
            out = subprocess.run([sys.executable, script, path, "1", "0", "0", "kernel"],
                                 env=env, capture_output=True, text=True)
            self.assertEqual((out.returncode, out.stdout.strip()), (0, "300 200"), out.stderr)
            out = subprocess.run([sys.executable, script, path, "2", "0", "0", "user"],
                                 env=env, capture_output=True, text=True)
            self.assertEqual(out.returncode, 1, out.stdout)


if __name__ == "__main__":
    unittest.main()
