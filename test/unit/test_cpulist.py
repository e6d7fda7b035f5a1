#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of cpulist.py, run by make lint (harness/lint.sh):
lists written by hand, malformed ones that must raise, and the well-formed
ones checked against cpulist.sh's cpulist_expand, the shell's parser of
the same language."""
import os
import subprocess
import sys
import unittest

LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'lib')
sys.path.insert(0, LIB)
import cpulist  # noqa: E402

GOOD = {
    '': [],
    '7': [7],
    '0': [0],
    '0-1,4': [0, 1, 4],
    '10-12': [10, 11, 12],
    '0-15': list(range(16)),
    '3-3': [3],
    '0-1,2-3,': [0, 1, 2, 3],          # case 01 joins lists with a trailing comma
    '0-1\n': [0, 1],                   # as read from sysfs
    ' 0-1, 4 \n': [0, 1, 4],
    '4,0-1': [0, 1, 4],                # sorted
    '0-2,1-3,2': [0, 1, 2, 3],         # each number once
    ',': [],
}
BAD = ['a', '1-', '-1', '3-1', '1-2-3', '1 2', '0x1', '1.5', '+1', '1;2', '0-1:2',
       '0 - 1', '\u0661']               # ARABIC-INDIC DIGIT ONE: not a CPU number


class Expand(unittest.TestCase):
    def test_good(self):
        for text, want in GOOD.items():
            with self.subTest(text=text):
                self.assertEqual(cpulist.expand(text), want)

    def test_malformed_raises(self):
        for text in BAD:
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as cm:
                    cpulist.expand(text)
                self.assertIn(repr(text), str(cm.exception))

    def test_not_a_string_raises(self):
        for x in (None, 3, ['0-1']):
            with self.subTest(x=x):
                self.assertRaises(ValueError, cpulist.expand, x)

    def test_agrees_with_cpulist_sh(self):
        """One language: cpulist.sh's cpulist_expand gives the same CPUs
        for every well-formed list (it does not sort; its callers do)."""
        sh = ('. "$1"; shift; for l; do echo "$(cpulist_expand "$l")"; done')
        texts = list(GOOD)
        p = subprocess.run(['bash', '-c', sh, 'sh', os.path.join(LIB, 'cpulist.sh')] + texts,
                           capture_output=True, text=True, check=True)
        got = p.stdout.split('\n')[:-1]
        # One line per list: zip() would quietly test fewer.
        self.assertEqual(len(got), len(texts), p.stdout + p.stderr)
        for text, line in zip(texts, got):
            with self.subTest(text=text):
                self.assertEqual(sorted({int(x) for x in line.split()}), cpulist.expand(text))


if __name__ == '__main__':
    unittest.main(verbosity=1)
