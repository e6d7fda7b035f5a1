#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every ratio with its CI ("x1.263 [1.254, 1.273]") and every break-even
# ("1.06 times") written in a patch of patches/ must be in the tables it
# comes from, patches/evidence-rules.txt or patches/evidence.txt, so that
# a changelog cannot keep a figure its tables no longer have.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tables=("$top/patches/evidence-rules.txt" "$top/patches/evidence.txt")
bad=0 n=0
for p in "$top"/patches/0*.patch; do
	# The cover letter has its own test (test_cover_letter.sh).
	[ "${p##*/}" != 0000-cover-letter.patch ] || continue
	while IFS= read -r fig; do
		n=$((n + 1))
		grep -qF -- "$fig" "${tables[@]}" ||
			{ echo "FAIL: ${p##*/}: '$fig' is in no table (${tables[*]##*/})"; bad=1; }
	done < <(sed '/^diff --git /,$d' "$p" | tr '\n' ' ' | grep -oE 'x[0-9]+\.[0-9]+ \[[0-9]+\.[0-9]+, [0-9]+\.[0-9]+\]' || true)
	while IFS= read -r ratio; do
		n=$((n + 1))
		grep -qE -- "is below $ratio\b" "${tables[@]}" ||
			{ echo "FAIL: ${p##*/}: break-even '$ratio times' is in no table"; bad=1; }
	done < <(sed '/^diff --git /,$d' "$p" | tr '\n' ' ' | grep -oE '[0-9]+\.[0-9]+ times' | sed 's/ times//' || true)
done
[ "$bad" = 0 ] || exit 1
echo "test_patch_figures: $n figures in patches/, each in its table: passed"
