#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of report.py: the two-kernel report (--out) on result directories
written here the way run.sh writes them, its exit status on bad input, the
verdict line (--verdict, and make compare's: harness/compare-verdict.sh)
and the parsers on recorded output (test_data/).  Run: python3
test_report.py."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "harness", "lib"))
import inproc  # noqa: E402
import results  # noqa: E402

DATA = os.path.join(HERE, "test_data")
RUN_DATA_JSON = os.path.join(HERE, "..", "patches", "run-data", "letter", "compare", "report.json")
HEAD12 = "label job qd cpu_node mem_node rep file target window dev_ios cpus irq_cpus".split()


def fio_json(iops, p99_us):
    """The part of fio's JSON that report.py reads: one group-reported job."""
    return {"jobs": [{"read": {"iops": iops, "total_ios": int(iops),
                               "clat_ns": {"N": 10, "percentile": {"99.000000": p99_us * 1000}}},
                      "write": {"iops": 0.0, "total_ios": 0, "clat_ns": {"N": 0}}}]}


def write_label(top, label, runs, dev_node="1", cols=13):
    """OUT/LABEL as run.sh leaves it; runs: {submitter: [IOPS per rep]}."""
    d = os.path.join(top, label)
    os.makedirs(d)
    with open(os.path.join(d, "manifest.tsv"), "w") as m:
        m.write("\t".join(HEAD12 + ["dev_node"][:cols - 12]) + "\n")
        for sub, iops in runs.items():
            for rep, x in enumerate(iops, 1):
                name = "sd_randread-4k_qd32_cpu%s_r%d.json" % (sub, rep)
                with open(os.path.join(d, name), "w") as f:
                    json.dump(fio_json(x, 100.0 + rep), f)
                mem = "default" if sub == "unpinned" else sub
                line = [label, "randread-4k", "32", sub, mem, str(rep), name, "sd", "-", "-",
                        "0-1", "-", dev_node][:cols]
                m.write("\t".join(line) + "\n")
    return d


def run_report(*args):
    """report.py ARGS in this process (harness/lib/inproc.py)."""
    return inproc.run_main(os.path.join(HERE, "report.py"), args)


class TwoKernels(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        # device on node 1: submitter 1 is local, 0 remote; 8 repetitions
        # (stats.MIN_REPS: fewer get no verdict, test_few_reps)
        wide, narrow = [0, 11, -11] * 2 + [0, 0], [0, 1, -1] * 2 + [0, 0]
        self.v = write_label(self.tmp, "vanilla", {
            "0": [1000 + d for d in narrow], "1": [100 + d for d in wide],
            "unpinned": [1000 + d for d in narrow]})
        self.p = write_label(self.tmp, "patched", {
            "0": [995 + d for d in narrow], "1": [99 + d for d in wide],
            "unpinned": [900 + d for d in narrow]})
        self.out = os.path.join(self.tmp, "rep")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def tsv(self):
        with open(os.path.join(self.out, "report.tsv")) as f:
            lines = [ln.rstrip("\n").split("\t") for ln in f]
        return [dict(zip(lines[0], ln)) for ln in lines[1:]], lines[0]

    def test_out(self):
        res = run_report("--out", self.out, self.v, self.p)
        self.assertEqual(res.returncode, 0, res.stderr)
        for f in ("report.txt", "report.json", "report.tsv"):
            self.assertTrue(os.path.isfile(os.path.join(self.out, f)), f)
        rows, head = self.tsv()
        self.assertEqual(head[:5], ["target", "job", "qd", "submitter", "where"])
        self.assertEqual(head[-4:], ["ratio", "ci_lo", "ci_hi", "verdict"])
        # local first, then remote, then unpinned
        self.assertEqual([(r["submitter"], r["where"]) for r in rows],
                         [("1", "local"), ("0", "remote"), ("unpinned", "unpinned")])
        local, remote, unpinned = rows
        # 100 +-9 vs 99 +-9 over 8 runs: ratio 0.99, a CI near +-9 %
        self.assertEqual(local["vanilla_n"], "8")
        self.assertEqual((local["vanilla_iops"], local["vanilla_min"], local["vanilla_max"]),
                         ("100.0", "89.0", "111.0"))
        self.assertEqual(local["ratio"], "0.9900")
        self.assertLess(float(local["ci_lo"]), 0.94)
        self.assertEqual(local["verdict"], "not met (CI lower bound %.3f < 0.94)"
                         % float(local["ci_lo"]))
        # 1000 +-1 vs 995 +-1: ratio 0.995, lower bound far above 0.94
        self.assertEqual(remote["ratio"], "0.9950")
        self.assertEqual(remote["verdict"], "met")
        # 900 vs 1000: ratio 0.90, CI narrow around it
        self.assertTrue(unpinned["verdict"].startswith("not met (CI lower bound 0.89"),
                        unpinned["verdict"])
        self.assertEqual(local["vanilla_p99_read_us"], "104.5")    # (101 + .. + 108) / 8
        self.assertEqual(local["vanilla_p99_write_us"], "-")
        with open(os.path.join(self.out, "report.json")) as f:
            doc = json.load(f)
        self.assertEqual((doc["baseline"], doc["label"]), ("vanilla", "patched"))
        self.assertEqual(doc["margin"]["delta"], 0.06)
        self.assertIn("at least 94% of vanilla's", doc["margin"]["text"])
        self.assertEqual([p["verdict"] for p in doc["pairs"]], [r["verdict"] for r in rows])
        with open(os.path.join(self.out, "report.txt")) as f:
            text = f.read()
        self.assertEqual(res.stdout, text)
        self.assertIn("node 1 (local)", text)
        self.assertIn("node 0 (remote)", text)
        self.assertIn("Peak IOPS (t/io_uring): not run", text)
        self.assertIn("No regression (95% CI lower bound of patched/vanilla >= 0.94): "
                      "met in 1 of 3 rows.", text)
        self.assertIn("  not met: sd randread-4k qd32 node 1 (local) patched: CI lower bound", text)
        self.assertIn("it would be met with about", text)
        self.assertIn("unpinned patched: CI lower bound 0.89", text)
        self.assertIn("the ratio itself is below 0.94: more repetitions cannot meet it", text)
        # one line over the rows, naming those not met; exit 3
        res = run_report("--verdict", os.path.join(self.out, "report.json"))
        self.assertEqual((res.returncode, res.stdout),
                         (3, "verdict: not met in 2 of 3 rows: sd randread-4k qd32 node 1 (local) "
                          "patched; sd randread-4k qd32 unpinned patched\n"), res.stderr)

    def test_letter(self):
        # --letter: what --part and --verdict print, one file each, read
        # in one run; meter-lines empty without meter counts
        self.assertEqual(run_report("--out", self.out, self.v, self.p).returncode, 0)
        js, d = os.path.join(self.out, "report.json"), os.path.join(self.tmp, "letter")
        res = run_report("--from-json", js, "--letter", d)
        self.assertEqual(res.returncode, 0, res.stderr)

        def part(name):
            with open(os.path.join(d, name)) as f:
                return f.read()
        for p in ("iops", "meter"):
            self.assertEqual(part(p), run_report("--from-json", js, "--part", p).stdout, p)
        v = run_report("--verdict", js)
        self.assertEqual((part("verdict"), part("verdict.rc")), (v.stdout, "%d\n" % v.returncode))
        self.assertEqual(part("verdict.rc"), "3\n")
        self.assertEqual(part("meter-lines"), "")
        self.assertEqual(run_report("--from-json", js, "--letter", d, "--part", "iops").returncode, 2)
        # the meter's lines, from the committed run of the letter
        res = run_report("--from-json", RUN_DATA_JSON, "--letter", d)
        self.assertEqual(res.returncode, 0, res.stderr)
        lines = part("meter-lines").splitlines()
        self.assertTrue(lines)
        ci = r"( \[[0-9.]+, [0-9.]+\])?"
        for ln in lines:
            self.assertRegex(ln, r"^[a-z_]+( \(.*\))?: acc x[0-9.]+" + ci +
                             r"(; SCSI obj acc x[0-9.]+" + ci + ")?$")
        # a part that cannot be made: empty, its error beside it
        with open(js) as f:
            doc = json.load(f)
        for r in doc["rows"]:
            r.pop("iops_mean")
        bad = os.path.join(self.tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump(doc, f)
        self.assertEqual(run_report("--from-json", bad, "--letter", d).returncode, 0)
        self.assertEqual(part("iops"), "")
        self.assertIn("KeyError", part("iops.err"))

    def test_met(self):
        # only the remote submitter's rows: met, exit 0
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        v = write_label(self.tmp, "vanilla", {"0": [1000, 1001, 999] * 2 + [1000, 1000]})
        p = write_label(self.tmp, "patched", {"0": [995, 996, 994] * 2 + [995, 995]})
        self.assertEqual(run_report("--out", self.out, v, p).returncode, 0)
        res = run_report("--verdict", os.path.join(self.out, "report.json"))
        self.assertEqual((res.returncode, res.stdout), (0, "verdict: met in 1 of 1 rows\n"))

    def test_few_reps(self):
        # 3 repetitions (fewer than stats.MIN_REPS): shown, not judged; exit 0
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        v = write_label(self.tmp, "vanilla", {"0": [1000, 1001, 999]})
        p = write_label(self.tmp, "patched", {"0": [500, 501, 499]})
        res = run_report("--out", self.out, v, p)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual(self.tsv()[0][0]["verdict"], "no verdict (n = 3 < 8)")
        self.assertIn("patched/vanilla >= 0.94): no verdict at n = 3 (a verdict needs 8 "
                      "repetitions per kernel", res.stdout)
        self.assertNotIn("met in", res.stdout)
        res = run_report("--verdict", os.path.join(self.out, "report.json"))
        self.assertEqual((res.returncode, res.stdout),
                         (0, "verdict: no verdict: 3 repetitions, below MIN_REPS (a verdict needs 8 "
                          "repetitions per kernel: fio-jobs/README.compare)\n"))

    def test_unknown_device_node(self):
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        v = write_label(self.tmp, "vanilla", {"0": [10, 11]}, dev_node="-1")
        p = write_label(self.tmp, "patched", {"0": [10, 11]}, dev_node="-1")
        self.assertEqual(run_report("--out", self.out, v, p).returncode, 0)
        rows, _ = self.tsv()
        self.assertEqual(rows[0]["where"], "node")

    def test_one_side_only(self):
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        v = write_label(self.tmp, "vanilla", {"0": [10, 11]})
        p = write_label(self.tmp, "patched", {"0": [10, 11], "unpinned": [9, 9]})
        res = run_report("--out", self.out, v, p)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertIn("  only patched ran: sd randread-4k qd32 unpinned", res.stdout)
        self.assertEqual([r["submitter"] for r in self.tsv()[0]], ["0"])

    def test_old_manifest(self):
        # 12 columns (before dev_node): read, device node unknown
        shutil.rmtree(self.tmp)
        os.makedirs(self.tmp)
        v = write_label(self.tmp, "vanilla", {"0": [10, 11]}, cols=12)
        p = write_label(self.tmp, "patched", {"0": [10, 11]}, cols=12)
        self.assertEqual(run_report("--out", self.out, v, p).returncode, 0)
        self.assertEqual(self.tsv()[0][0]["where"], "node")

    def test_bad_input(self):
        self.assertEqual(run_report("--out", self.out, self.v).returncode, 2)
        self.assertEqual(run_report("--out", self.out, self.v, self.v).returncode, 1)
        self.assertEqual(run_report("--out", self.out, self.tmp, self.p).returncode, 1)
        self.assertEqual(run_report("--out", self.out, self.v, self.tmp + "/none").returncode, 1)
        with open(os.path.join(self.p, "manifest.tsv"), "a") as m:
            m.write("patched\trandread-4k\n")
        res = run_report("--out", self.out, self.v, self.p)
        self.assertEqual(res.returncode, 1)
        self.assertIn("manifest.tsv:26: not a run.sh manifest line", res.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_bad_json(self):
        with open(os.path.join(self.p, "sd_randread-4k_qd32_cpu0_r2.json"), "w") as f:
            f.write("fio: some warning\n{\"jobs\": [")
        res = run_report("--out", self.out, self.v, self.p)
        self.assertEqual(res.returncode, 1)
        self.assertIn("cpu0_r2.json: not a fio JSON result", res.stderr)
        os.remove(os.path.join(self.p, "sd_randread-4k_qd32_cpu0_r2.json"))
        res = run_report("--out", self.out, self.v, self.p)
        self.assertEqual(res.returncode, 1)
        self.assertIn("cpu0_r2.json is listed in", res.stderr)

    def test_iouring(self):
        for label in ("vanilla", "patched"):
            d = os.path.join(self.tmp, label)
            with open(os.path.join(d, "iouring.tsv"), "w") as f:
                f.write("label\tqd\tcpu_node\trep\tfile\ttarget\tdev_node\n")
                for rep in (1, 2):
                    f.write("%s\t32\t1\t%d\tiou-r%d.txt\tsd\t1\n" % (label, rep, rep))
                    shutil.copy(os.path.join(DATA, "iouring-r1.txt"),
                                os.path.join(d, "iou-r%d.txt" % rep))
        self.assertEqual(run_report("--out", self.out, self.v, self.p).returncode, 0)
        peak = [r for r in self.tsv()[0] if r["job"] == "t/io_uring"]
        self.assertEqual(len(peak), 1)
        self.assertEqual((peak[0]["vanilla_iops"], peak[0]["ratio"], peak[0]["verdict"]),
                         ("195390.0", "1.0000", "no verdict (n = 2 < 8)"))


class RecordedGuest(unittest.TestCase):
    """run.sh's own output: a two-node guest, scsi_debug given the device node 1 (--dev-node 1)."""

    def test_report(self):
        tmp = tempfile.mkdtemp()
        try:
            g = os.path.join(DATA, "guest-two-node")
            res = run_report("--out", tmp, os.path.join(g, "vanilla"), os.path.join(g, "patched"))
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(tmp, "report.tsv")) as f:
                rows = [ln.rstrip("\n").split("\t") for ln in f]
            self.assertEqual([r[:5] for r in rows[1:]],
                             [["scsi_debug", "randread-4k", "32", "1", "local"],
                              ["scsi_debug", "randread-4k", "32", "0", "remote"],
                              ["scsi_debug", "randread-4k", "32", "unpinned", "unpinned"]])
            n = rows[0].index("vanilla_n")
            self.assertEqual({(r[n], r[n + 6]) for r in rows[1:]}, {("2", "2")})
            self.assertIn("perf: skipped: ", res.stdout)
            self.assertIn("io_uring: skipped: FIO_IOURING is not set", res.stdout)
        finally:
            shutil.rmtree(tmp)


    def test_from_json(self):
        # --from-json gives from the JSON alone what --text wrote from the runs
        tmp = tempfile.mkdtemp()
        try:
            g = os.path.join(DATA, "guest-two-node")
            txt, js = os.path.join(tmp, "report.txt"), os.path.join(tmp, "report.json")
            res = run_report("--baseline", "vanilla", "--vm-clock", "icount", "--run-id", "R1",
                             "--text", txt, "--json", js,
                             os.path.join(g, "vanilla"), os.path.join(g, "patched"))
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(js) as f:
                self.assertEqual(json.load(f)["run_id"], "R1")
            res = run_report("--from-json", js, "--part", "iops")
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(txt) as f:
                self.assertEqual(res.stdout, f.read())
            self.assertIn("Guest clock: icount.", res.stdout)
            res = run_report("--from-json", js, "--part", "meter")
            self.assertEqual((res.returncode, res.stdout), (0, ""))     # no meter counts
            res = run_report("--from-json", txt, "--part", "iops")
            self.assertEqual(res.returncode, 1)
            self.assertIn("not a report.py --json file", res.stderr)
            # compare-smoke's 2 repetitions: no verdict, said so, exit 0
            with open(txt) as f:
                self.assertIn("| no verdict (n = 2 < 8)", f.read())
            res = run_report("--verdict", js)
            self.assertEqual((res.returncode, res.stdout),
                             (0, "verdict: no verdict: 2 repetitions, below MIN_REPS (a verdict "
                              "needs 8 repetitions per kernel: fio-jobs/README.compare)\n"))
        finally:
            shutil.rmtree(tmp)

    def test_verdict_not_met(self):
        # A recorded report (test_data/README) whose slowed rows are not
        # met: the verdict names them and exits 3; with another report's
        # rows (no verdict at n = 2) beside them, the same.
        js = os.path.join(DATA, "report-not-met.json")
        res = run_report("--verdict", js)
        want = "verdict: not met in 2 of 4 rows: randread-4k qd32 node 0 slowed; " \
            "randread-4k qd32 unpinned slowed"
        self.assertEqual((res.returncode, res.stdout), (3, want + "\n"), res.stderr)
        smoke = os.path.join(HERE, "..", "test", "unit", "test_data", "cover-letter", "compare",
                             "report.json")
        res = run_report("--verdict", js, smoke)
        self.assertEqual((res.returncode, res.stdout),
                         (3, want + " (3 more rows: no verdict: 2 repetitions, below MIN_REPS)\n"), res.stderr)
        res = run_report("--from-json", js, "--part", "iops")
        self.assertIn("met in 2 of 4 rows.", res.stdout)
        res = run_report("--verdict", os.path.join(DATA, "iouring-r1.txt"))
        self.assertEqual(res.returncode, 1)
        # make compare's last line (harness/compare-verdict.sh): exit 1,
        # or 0 with COMPARE_VERDICT=report
        tmp = tempfile.mkdtemp()
        try:
            shutil.copy(js, os.path.join(tmp, "report.json"))
            for setting, rc in (("fail", 1), ("report", 0)):
                res = subprocess.run([os.path.join(HERE, "..", "harness", "compare-verdict.sh"), tmp],
                                     env=dict(os.environ, COMPARE_VERDICT=setting),
                                     capture_output=True, text=True)
                self.assertEqual((res.returncode, res.stdout.splitlines()[-1:]), (rc, [want]),
                                 res.stderr)
        finally:
            shutil.rmtree(tmp)


class Parsers(unittest.TestCase):
    def test_fio_json(self):
        # fio 3.33's own output, with a warning line ahead of it as fio writes them
        src = os.path.join(DATA, "fio-3.33-randread-4k-qd32.json")
        with open(src) as f:
            text = f.read()
        doc = json.loads(text)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write("fio: note: a warning\n" + text)
        try:
            run = results.load_fio(f.name)
        finally:
            os.remove(f.name)
        job = doc["jobs"][0]
        self.assertAlmostEqual(run["iops"], job["read"]["iops"] + job["write"]["iops"])
        self.assertAlmostEqual(run["p99_read"], job["read"]["clat_ns"]["percentile"]["99.000000"] / 1000)
        self.assertIsNone(run["p99_write"])

    def test_iouring_output(self):
        self.assertEqual(results.parse_iouring(os.path.join(DATA, "iouring-r1.txt")), 195390.0)
        with tempfile.NamedTemporaryFile("w", delete=False) as f:
            f.write("IOPS=1.85M, BW=904MiB/s\nIOPS=1.90M, BW=904MiB/s\n^CExiting on signal\n")
        try:
            self.assertEqual(results.parse_iouring(f.name), 1.9e6)
        finally:
            os.remove(f.name)


if __name__ == "__main__":
    unittest.main()
