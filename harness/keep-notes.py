#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""keep-notes.py OLD NEW: carry each patch's notes across an export.

A patch's notes are the lines between the "---" that ends its changelog
and a second "---" before the diffstat: what changed since the last
version, the evidence behind the changelog.  git am drops them, so the
commits in build/linux never have them and git format-patch cannot write
them.  For each patch in directory NEW (fresh from format-patch), this
puts back the notes of the patch in OLD (patches/, before the export)
with the same subject.  A patch whose subject is new gets none and is
named on stderr; so is every OLD patch whose notes found no patch.
"""
import email.parser
import os
import sys


def split(path):
    """(subject, lines, index of the changelog's '---', notes or None)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head = email.parser.Parser().parsestr(text, headersonly=True)
    subject = " ".join(str(head.get("Subject", "")).split())
    if subject.startswith("[PATCH"):
        subject = subject.split("]", 1)[1].strip()
    lines = text.split("\n")
    try:
        cut = lines.index("---")
    except ValueError:
        return subject, lines, None, None
    notes = None
    for i in range(cut + 1, len(lines)):
        if lines[i].startswith("diff --git "):
            break
        if lines[i] == "---":
            notes = lines[cut + 1:i]
            break
    return subject, lines, cut, notes


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: keep-notes.py OLD NEW")
    old_dir, new_dir = sys.argv[1:]
    old = {}
    for name in sorted(os.listdir(old_dir)):
        if name.endswith(".patch") and not name.startswith("0000-"):
            subject, _, _, notes = split(os.path.join(old_dir, name))
            if notes:
                old[subject] = notes
    used, kept = set(), 0
    for name in sorted(os.listdir(new_dir)):
        if not name.endswith(".patch"):
            continue
        path = os.path.join(new_dir, name)
        subject, lines, cut, notes = split(path)
        if cut is None or notes is not None:
            continue
        if subject not in old:
            print(f"keep-notes: {name}: no notes (no earlier patch named '{subject}')", file=sys.stderr)
            continue
        used.add(subject)
        lines[cut + 1:cut + 1] = old[subject] + ["---"]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        kept += 1
    for subject in sorted(set(old) - used):
        print(f"keep-notes: notes of '{subject}' dropped: no patch has that subject now", file=sys.stderr)
    print(f"keep-notes: notes kept for {kept} patches")


if __name__ == "__main__":
    main()
