#!/bin/bash
# Export the commits base..series of build/linux into patches/ (git
# format-patch files + series).  Output is stable across exports of the same
# commits: no commit hashes, no signature, no version numbering noise.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$top/build/linux
g() { git -C "$tree" "$@"; }
[ -d "$tree/.git" ] || { echo "export: no tree at $tree (make tree)" >&2; exit 1; }
[ -z "$(g status --porcelain --untracked-files=no)" ] ||
	{ echo "export: $tree has uncommitted changes: commit them first" >&2; exit 1; }
tmp=$(mktemp -d)
g format-patch -q --zero-commit --no-signature --no-base -o "$tmp" base..series
# Files the kernel's (Debian's) .gitignore hides never reach a commit:
# refuse to export a tree with such new sources rather than lose them.
ign=$(g ls-files --others --ignored --exclude-standard -- '*.c' '*.h' '*Kconfig*' '*Makefile' ':!.obj*' | head -n 5)
[ -z "$ign" ] || { echo "export: new files hidden by .gitignore, never committed (git add -f them): $ign" >&2; exit 1; }
rm -f "$top"/patches/*.patch
(cd "$tmp" && ls) > "$top/patches/series"
cp "$tmp"/*.patch "$top/patches/" 2>/dev/null || true
rm -rf "$tmp"
# The tree now is what patches/ describes: record it so ktree.sh keeps it.
"$top/test/harness/ktree.sh" --stamp
echo "export: $(wc -l < "$top/patches/series") patches in patches/"
# The cover letter, with the figures of the harness's latest output.
"$top/test/harness/cover-letter.sh"
