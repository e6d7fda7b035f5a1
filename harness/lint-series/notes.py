#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""notes.py PATCHES: the text that goes to the lists names nothing a list
reader cannot see.  Run by lint-series.sh (its notes step).

Checked: the notes below "---" of every PATCHES/NNNN-*.patch but the
cover letter (as harness/keep-notes.py reads them), and the letters
PATCHES/cover-letter.in and PATCHES/postings/*.in (their "## " comment
lines are not posted and not checked).  Rejected, in both:
  review      "review", "reviews": our reviews of private drafts
  tracker     "issue N"
  draft       "draft", "drafts": since the last, an earlier, a private draft
  version     v4..v9, alone or with one letter, but no ".N": the
              names of private drafts (kernel versions such as v5.3 pass)
  history     a line opening with "vN:" or "vN (...):": a version history
  session     "S1": a session of ours
and in the notes only, which name our tools:
  harness     "harness"
  target      "make T" for a target T of the Makefile's .PHONY lines
  file        a path under patches/, fio-jobs/ or qemu-plugin/
  case        "case NN", "cases NN" (two digits): a case of the harness
  letter      a "quoted" name cited as the cover letter's ("cover letter"
              up to the next ")" or 200 characters) that is in neither
              PATCHES/0000-cover-letter.patch nor PATCHES/cover-letter.in
A phrase may run over a line break: each line is read with the next.
Output: "FILE:LINE: RULE[,RULE...]: text" for each line rejected (FILE
relative to PATCHES' parent), then a count.  Exit 1 with findings, 2 on bad usage.
"""
import glob
import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

spec = importlib.util.spec_from_file_location("keep_notes", os.path.join(TOP, "harness", "keep-notes.py"))
keep_notes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(keep_notes)

HISTORY = [
    ("review", re.compile(r"\breviews?\b", re.I)),
    ("tracker", re.compile(r"\bissues? \d", re.I)),
    ("draft", re.compile(r"\bdrafts?\b", re.I)),
    ("version", re.compile(r"\bv[4-9][a-z]?\b(?!\.\d)")),
    ("history", re.compile(r"^v\d+[a-z]?(?: \([^)]*\))?:")),
    ("session", re.compile(r"\bS1\b")),
]


def make_targets():
    names = set()
    with open(os.path.join(TOP, "Makefile"), encoding="utf-8") as f:
        for line in f:
            if line.startswith(".PHONY:"):
                names.update(line.split(":", 1)[1].split())
    return sorted(names, key=len, reverse=True)


def tool_rules():
    targets = "|".join(re.escape(t) for t in make_targets())
    return [
        ("harness", re.compile(r"\bharness", re.I)),
        ("target", re.compile(r"\bmake (?:%s)(?![\w-])" % targets)),
        ("file", re.compile(r"(?<![\w/.-])(?:patches|fio-jobs|qemu-plugin)/")),
        ("case", re.compile(r"\bcases? \d\d\b", re.I)),
    ]


def scan(lines, first, rules):
    """(line number, rule, line) for each rule that matches a line,
    a phrase starting on it and ending on the next included."""
    out = []
    for i, line in enumerate(lines):
        pair = line + " " + (lines[i + 1].lstrip() if i + 1 < len(lines) else "")
        for name, rx in rules:
            text = line if rx.pattern.startswith("^") else pair
            m = rx.search(text)
            if m and m.start() < len(line):
                out.append((first + i, name, line))
    return out


def norm(s):
    return " ".join(s.split()).lower()


def letter_citations(lines, first, letter):
    """Quoted names cited as the cover letter's that it does not contain."""
    text, starts = "", []
    for line in lines:
        starts.append(len(text))
        text += line + " "
    out = []
    for m in re.finditer(r"cover[- ]letter", text, re.I):
        end = text.find(")", m.end())
        scope_end = min(end if end >= 0 else len(text), m.end() + 200)
        for q in re.finditer(r'"([^"]+)"', text[m.end():scope_end]):
            if norm(q.group(1)) in letter:
                continue
            pos = m.end() + q.start()
            i = max(k for k, s in enumerate(starts) if s <= pos)
            out.append((first + i, "letter", f'cites the cover letter\'s "{q.group(1)}", which it does not have'))
    return out


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: notes.py PATCHES-DIRECTORY", file=sys.stderr)
        return 2
    pdir = os.path.abspath(sys.argv[1])
    rel = os.path.dirname(pdir)
    letter = ""
    for name in ("0000-cover-letter.patch", "cover-letter.in"):
        path = os.path.join(pdir, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                letter += " " + norm("\n".join(ln for ln in f.read().split("\n") if not ln.startswith("## ")))
    findings, npatches, nletters = [], 0, 0
    notes_rules = HISTORY + tool_rules()
    for path in sorted(glob.glob(os.path.join(pdir, "[0-9][0-9][0-9][0-9]-*.patch"))):
        if os.path.basename(path).startswith("0000-"):
            continue
        npatches += 1
        _, _, cut, notes = keep_notes.split(path)
        if not notes:
            continue
        first = cut + 2
        found = scan(notes, first, notes_rules) + letter_citations(notes, first, letter)
        findings += [(path, n, r, t) for n, r, t in found]
    letters = [os.path.join(pdir, "cover-letter.in")] + sorted(glob.glob(os.path.join(pdir, "postings", "*.in")))
    for path in letters:
        if not os.path.exists(path):
            continue
        nletters += 1
        with open(path, encoding="utf-8") as f:
            lines = [ln if not ln.startswith("## ") else "" for ln in f.read().split("\n")]
        findings += [(path, n, r, t) for n, r, t in scan(lines, 1, HISTORY)]
    byline = {}
    for path, n, r, t in findings:
        rules, text = byline.setdefault((path, n), ([], t))
        if r not in rules:
            rules.append(r)
    for (path, n), (rules, text) in sorted(byline.items()):
        print(f"{os.path.relpath(path, rel)}:{n}: {','.join(rules)}: {text.strip()}")
    print(f"notes: {npatches} patches, {nletters} letters, {len(byline)} lines rejected")
    return 1 if byline else 0


if __name__ == "__main__":
    sys.exit(main())
