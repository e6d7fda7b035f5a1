# SPDX-License-Identifier: GPL-2.0
"""harness/keep-notes.py: a patch's notes survive an export, by subject."""
import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(TOP, "harness", "keep-notes.py")

HEAD = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A <a@localhost>
Subject: [PATCH {n}/2] {subject}

Body of {subject}.

Signed-off-by: A <a@localhost>
---
"""
STAT = """ f.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/f.c b/f.c
--- a/f.c
+++ b/f.c
@@ -1 +1,2 @@
 x
+y
"""


def write(d, name, n, subject, notes=None):
    text = HEAD.format(n=n, subject=subject)
    if notes is not None:
        text += notes + "---\n"
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        f.write(text + STAT)


def read(d, name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        return f.read()


class KeepNotes(unittest.TestCase):
    def run_tool(self, old, new):
        return subprocess.run([sys.executable, TOOL, old, new], capture_output=True, text=True, check=True)

    def test_notes_follow_the_subject(self):
        with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
            # Renumbered: the notes go by subject, not by file name.
            write(old, "0001-a.patch", 1, "scsi: a", "v2: notes of a\n")
            write(old, "0002-b.patch", 2, "scsi: b", "v2: notes of b\n")
            write(new, "0001-b.patch", 1, "scsi: b")
            write(new, "0002-a.patch", 2, "scsi: a")
            r = self.run_tool(old, new)
            self.assertIn("notes kept for 2 patches", r.stdout)
            self.assertEqual(read(new, "0002-a.patch"), read(old, "0001-a.patch").replace("[PATCH 1/2]", "[PATCH 2/2]"))
            b = read(new, "0001-b.patch")
            self.assertIn("---\nv2: notes of b\n---\n f.c | 1 +", b)
            self.assertEqual(b.count("diff --git"), 1)

    def test_new_and_lost_subjects_are_named(self):
        with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
            write(old, "0001-a.patch", 1, "scsi: a", "v2: notes of a\n")
            write(new, "0001-c.patch", 1, "scsi: c")
            r = self.run_tool(old, new)
            self.assertIn("0001-c.patch: no notes", r.stderr)
            self.assertIn("notes of 'scsi: a' dropped", r.stderr)
            self.assertNotIn("notes of a", read(new, "0001-c.patch"))

    def test_patch_with_notes_is_left_alone(self):
        with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as new:
            write(old, "0001-a.patch", 1, "scsi: a", "old notes\n")
            write(new, "0001-a.patch", 1, "scsi: a", "new notes\n")
            self.run_tool(old, new)
            text = read(new, "0001-a.patch")
            self.assertIn("new notes", text)
            self.assertNotIn("old notes", text)


if __name__ == "__main__":
    unittest.main()
