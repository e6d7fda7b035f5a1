#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# spdx-check.sh (make lint): every tracked source file names its license in
# an SPDX-License-Identifier line among its first 5 lines (LICENSE).  Not
# sources: patches/ (the kernel's own files carry theirs), LICENSE and
# LICENSES/, READMEs, recorded test data (test_data/, *.out, *.json, *.tsv,
# *.txt), .gitignore, symlinks.  Exit 1 naming every file without one.
set -u
cd "$(dirname "$0")/.." || exit 2
files=() missing=()
while IFS= read -r f; do
	case $f in
	patches/*|LICENSES/*|LICENSE|.gitignore|*/test_data/*) continue ;;
	README*|*/README*|*.md|*.out|*.json|*.tsv|*.txt|*.png) continue ;;
	esac
	[ -L "$f" ] || [ ! -f "$f" ] && continue
	files+=("$f")
done < <(git ls-files)
n=${#files[@]}
empty=()	# awk sees no line of an empty file
for f in "${files[@]}"; do [ -s "$f" ] || empty+=("$f"); done
# One awk over every file's first 5 lines (a process per file took seconds).
if [ "$n" -gt 0 ]; then
	mapfile -t missing < <(awk '
		FNR == 1 { if (prev != "" && !ok) print prev; prev = FILENAME; ok = 0 }
		FNR <= 5 && /SPDX-License-Identifier: / { ok = 1 }
		FNR > 5 { nextfile }
		END { if (prev != "" && !ok) print prev }' "${files[@]}")
fi
missing+=("${empty[@]}")
if [ "$n" = 0 ]; then
	echo "spdx-check: no source file found (not a checkout?)"; exit 1
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "spdx-check: ${#missing[@]} of $n source files have no SPDX-License-Identifier line:"
	printf '  %s\n' "${missing[@]}"
	exit 1
fi
echo "spdx-check: $n source files, each with an SPDX line"
