#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scan_report.py on synthetic guest-scan output written
here (two kernels, two boots each): the times come from the markers'
timestamps, the bytes from slabinfo and meminfo differences, the computed
cache from nr_hw_queues and the kmalloc caches listed; broken input is
refused.  Run: python3 test_scan_report.py."""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scan_report  # noqa: E402

SLAB_HEAD = ("slabinfo - version: 2.1\n# name <active_objs> <num_objs> <objsize> <objperslab>"
             " <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata"
             " <active_slabs> <num_slabs> <sharedavail>\n")


def slab(caches):
    return SLAB_HEAD + "".join("%s %d %d %d 1 1 : tunables 0 0 0 : slabdata 0 0 0\n" % (n, a, a, s)
                               for n, (a, s) in caches.items())


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def boot(d, scan_s, extra_obj, luns=4, hosts=2):
    """One guest boot of guest-scan: q=2, one scan of `luns` LUNs lasting
    scan_s seconds; each LUN adds one kmalloc-1k object plus extra_obj
    kmalloc-8 objects; each host two kmalloc-2k objects."""
    os.makedirs(d)
    write(os.path.join(d, "scan.tsv"), "queues\trep\tluns\tdevices\tnr_hw_queues\tscan_us_epoch\t"
          "remove_us_epoch\tscan_busy_ticks\tscan_idle_ticks\n2\t1\t%d\t%d\t2\t%d\t500000\t%d\t%d\n"
          % (luns, luns, int(scan_s * 1e6), int(scan_s * 100), int(scan_s * 300)))
    write(os.path.join(d, "info.txt"), "kernel\tx\nclk_tck\t100\n")
    write(os.path.join(d, "hosts.tsv"), "queues\thosts\tadded\tnr_hw_queues\n2\t%d\t%d\t2\n" % (hosts, hosts))
    write(os.path.join(d, "marks.txt"),
          "[   10.000000] scsi_numa_scan q=2 r=1 scan start\n"
          "[   %.6f] scsi_numa_scan q=2 r=1 scan end\n"
          "[   40.000000] scsi_numa_scan q=2 r=1 remove start\n"
          "[   40.500000] scsi_numa_scan q=2 r=1 remove end\n" % (10 + scan_s))
    base = {"kmalloc-8": (100, 8), "kmalloc-16": (10, 16), "kmalloc-1k": (50, 1024), "kmalloc-2k": (5, 2048)}
    after_scan = dict(base)
    after_scan["kmalloc-1k"] = (50 + luns, 1024)
    after_scan["kmalloc-8"] = (100 + luns * extra_obj, 8)
    after_hosts = dict(base)
    after_hosts["kmalloc-2k"] = (5 + 2 * hosts, 2048)
    after_hosts["kmalloc-8"] = (100 + hosts * extra_obj, 8)
    for tag, b, a in (("q2-r1", base, after_scan), ("q2-hosts", base, after_hosts)):
        write(os.path.join(d, "slab-%s-before.txt" % tag), slab(b))
        write(os.path.join(d, "slab-%s-after.txt" % tag), slab(a))
        write(os.path.join(d, "meminfo-%s-before.txt" % tag), "MemFree: 1000 kB\nSlab: 10 kB\n")
        write(os.path.join(d, "meminfo-%s-after.txt" % tag), "MemFree: 996 kB\nSlab: 14 kB\n")


class ScanReport(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.van = os.path.join(self.tmp, "vanilla")
        self.pat = os.path.join(self.tmp, "patched")
        boot(os.path.join(self.van, "r1"), 20.0, 0)
        boot(os.path.join(self.van, "r2"), 22.0, 0)
        boot(os.path.join(self.pat, "r1"), 21.0, 1)
        boot(os.path.join(self.pat, "r2"), 21.0, 1)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_figures(self):
        res = scan_report.build([self.van, self.pat])
        self.assertEqual(res["baseline"], "vanilla")
        v, p = res["scan"]
        self.assertEqual((v["kernel"], p["kernel"]), ("vanilla", "patched"))
        self.assertAlmostEqual(v["scan_s"]["mean"], 21.0, places=6)
        self.assertEqual(v["scan_s"]["n"], 2)
        self.assertAlmostEqual(v["us_per_lun"]["mean"], 21.0e6 / 4, places=3)
        self.assertAlmostEqual(v["remove_s"]["mean"], 0.5, places=6)
        self.assertAlmostEqual(v["busy_s"]["mean"], 21.0)
        self.assertAlmostEqual(v["idle_s"]["mean"], 63.0)
        self.assertAlmostEqual(v["slab_bytes_per_lun"]["mean"], 1024.0)
        self.assertAlmostEqual(p["slab_bytes_per_lun"]["mean"], 1032.0)
        self.assertAlmostEqual(v["memfree_bytes_per_lun"]["mean"], 4 * 1024 / 4)
        self.assertAlmostEqual(p["scan_s"]["vs_baseline"]["ratio"], 1.0)
        tv, tp = res["tag_set"]
        self.assertAlmostEqual(tv["slab_bytes_per_host"]["mean"], 4096.0)
        self.assertAlmostEqual(tp["slab_bytes_per_host"]["minus_baseline"], 8.0)
        self.assertEqual(tp["slab_bytes_per_host"]["minus_baseline_ci95_half"], 0.0)
        self.assertEqual(res["cache_array"], [{"queues": 2, "nr_hw_queues": 2, "bytes": 8,
                                               "kmalloc": "kmalloc-8", "kmalloc_bytes": 8,
                                               "measured_bytes_per_host": {"vanilla": 0.0, "patched": 8.0}}])
        self.assertEqual(res["caches_per_host"][0]["cache"], "kmalloc-8")
        text = scan_report.render(res, "id", "QEMU -icount shift=5", "four-node")
        self.assertIn("no real hardware", text)
        self.assertIn("QEMU -icount shift=5", text)

    def test_kmalloc_class(self):
        caches = {"kmalloc-8": 0, "kmalloc-16": 0, "kmalloc-96": 0, "kmalloc-2k": 0, "dma-kmalloc-8": 0}
        self.assertEqual(scan_report.kmalloc_class(4, caches), ("kmalloc-8", 8))
        self.assertEqual(scan_report.kmalloc_class(12, caches), ("kmalloc-16", 16))
        self.assertEqual(scan_report.kmalloc_class(1672, caches), ("kmalloc-2k", 2048))
        self.assertIsNone(scan_report.kmalloc_class(4096, caches))

    def test_sizes(self):
        write(os.path.join(self.van, "sizes.tsv"), "blk_mq_tag_set\t224\nScsi_Host\t1656\n")
        write(os.path.join(self.pat, "sizes.tsv"), "blk_mq_tag_set\t240\nScsi_Host\t1672\n")
        res = scan_report.build([self.van, self.pat])
        self.assertEqual(res["sizes"][1]["blk_mq_tag_set_minus_baseline"], 16)
        self.assertEqual(res["sizes"][1]["Scsi_Host_kmalloc"], "kmalloc-2k")

    def test_refused(self):
        # a scan that found fewer LUNs than it should
        p = os.path.join(self.pat, "r2", "scan.tsv")
        with open(p) as f:
            t = f.read()
        write(p, t.replace("\t4\t4\t2\t", "\t4\t3\t2\t"))
        with self.assertRaises(scan_report.InputError):
            scan_report.build([self.van, self.pat])
        # a start marker without its end
        write(p, t)
        m = os.path.join(self.van, "r1", "marks.txt")
        with open(m) as f:
            lines = f.readlines()
        write(m, "".join(lines[:1] + lines[2:]))
        with self.assertRaises(scan_report.InputError):
            scan_report.build([self.van, self.pat])
        self.assertEqual(scan_report.main([self.van, self.pat]), 1)


if __name__ == "__main__":
    unittest.main()
