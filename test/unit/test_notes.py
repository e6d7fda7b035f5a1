# SPDX-License-Identifier: GPL-2.0
"""harness/lint-series/notes.py: notes below "---" and letters that a list
reader can check pass; notes that name our drafts, reviews, tracker or
tools, or cite a cover-letter section that does not exist, fail."""
import os
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "harness", "lib"))
import inproc  # noqa: E402
TOOL = os.path.join(TOP, "harness", "lint-series", "notes.py")

# The references the tool must reject, assembled so that this file itself
# names no tracker number or draft (make lint's prose check reads it).
NUM = 24
DRAFT = "v5" + "b"

LETTER = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
Subject: [PATCH 0/1] scsi: a series

Measured in QEMU guests
-----------------------
Topology two-node.
"""
TEMPLATE = """Subject: [PATCH 0/@NPATCHES@] scsi: a series
## A template comment, not posted: issue %d, review %s.
This is the first posting of the series to any list (v1).
""" % (NUM, DRAFT)
PATCH = """From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: A <a@localhost>
Subject: [PATCH 1/1] scsi: a: Do b

Body.

Signed-off-by: A <a@localhost>
---
{notes}---
 f.c | 1 +
 1 file changed, 1 insertion(+)

diff --git a/f.c b/f.c
--- a/f.c
+++ b/f.c
@@ -1 +1,2 @@
 x
+review %s, the harness
""".replace("%s", DRAFT)
GOOD = """Compile-tested only: not run on this hardware.

Stable: not Cc'd; no crash is fixed.  Introduced in v5.3 (f0b9e7bdc309).

Overlaps Sumit Saxena's v3 2/4 (reviewed by John Garry), which changes
scsi_host_alloc() in 97 files; placement as in the cover letter,
"Measured in QEMU guests", topology "two-node".
"""
# Each note trips the rule it is keyed by, and only that one, on its first
# line (tracker: a phrase over a line break).
BAD = {
    "review": "As the review asked.",
    "tracker": "Issue\n%d item %d: not done here." % (NUM, NUM // 6),
    "draft": "Since the last (unposted) draft: cut.",
    "version": "Changed against %s." % DRAFT,
    "history": "v3: new.",
    "session": "S1 owns this code.",
    "harness": "Measured with the harness's inspector.",
    "target": "See make compare-rules.",
    "file": "An entry in patches/checkpatch-exceptions.",
    "case": "Guest case 32 runs it.",
    "letter": '(cover letter, "Placement, measured").',
}


class Notes(unittest.TestCase):
    def run_tool(self, notes, letter_in=TEMPLATE, posting=None):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "patches")
            os.makedirs(os.path.join(p, "postings"))
            for name, text in (("0000-cover-letter.patch", LETTER), ("cover-letter.in", letter_in),
                               ("0001-scsi-a-Do-b.patch", PATCH.format(notes=notes))):
                with open(os.path.join(p, name), "w", encoding="utf-8") as f:
                    f.write(text)
            if posting is not None:
                with open(os.path.join(p, "postings", "x.in"), "w", encoding="utf-8") as f:
                    f.write(posting)
            return inproc.run_main(TOOL, [p])

    def test_good_notes_pass(self):
        r = self.run_tool(GOOD)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("0 lines rejected", r.stdout)

    def test_each_bad_note_fails_on_its_rule(self):
        for rule, line in BAD.items():
            with self.subTest(rule=rule):
                r = self.run_tool(GOOD + "\n" + line + "\n")
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                found = [ln for ln in r.stdout.splitlines() if ln.startswith("patches/0001-")]
                self.assertEqual(len(found), 1, r.stdout)
                # Notes start on line 9: the good notes' 7 lines, a blank, then this.
                self.assertTrue(found[0].startswith(f"patches/0001-scsi-a-Do-b.patch:17: {rule}: "), found[0])

    def test_letters_speaking_of_drafts_fail(self):
        r = self.run_tool(GOOD, letter_in=TEMPLATE + "Two earlier drafts stayed private.\n",
                          posting="It was split out of a series\nwhose review asked for it.\n")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("patches/cover-letter.in:4: draft: Two earlier drafts", r.stdout)
        self.assertIn("patches/postings/x.in:2: review: whose review asked", r.stdout)
        self.assertIn("2 lines rejected", r.stdout)


if __name__ == "__main__":
    unittest.main()
