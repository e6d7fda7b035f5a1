# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/letter.sh, sourced by lint-series.sh: the letter step, once.
#   patches/0000-cover-letter.patch and patches/evidence.txt are what
#   harness/cover-letter.sh writes from the run data make export committed
#   beside them (patches/run-data/letter/, laid out as build/) with this
#   kernel tree: every figure of the letter and of its tables regenerates
#   byte for byte, or the step fails with the first lines of the diff.
#   The tree counts only for what is not a figure (routing, shortlog,
#   get_maintainer) and for the series check: figures of another series
#   than the tree's patched are refused, as by make export.  The letter
#   has at most 120 lines of at most 80 columns.
# Reads $top, $patches, $tree, $tmp; uses res, indent.  Writes $tmp/letter*.
: "${top:?}" "${patches:?}" "${tree:?}" "${tmp:?}"

letter_check() {
	local st=ok msg d=$tmp/letter-build f l w
	echo
	echo "letter and evidence.txt from patches/run-data/letter (cover-letter.sh):"
	if [ ! -f "$patches/0000-cover-letter.patch" ] || [ ! -d "$patches/run-data/letter" ]; then
		st=FAIL msg="no patches/0000-cover-letter.patch or no patches/run-data/letter: make export writes both"
	else
		rm -rf "$d"
		cp -r "$patches/run-data/letter" "$d"
		ln -s "$tree" "$d/linux"
		if ! COVER_BUILD=$d "$top/harness/cover-letter.sh" "$d/out/0000-cover-letter.patch" > "$tmp/letter.log" 2>&1; then
			st=FAIL msg="cover-letter.sh refused the committed run data"
			tail -n 5 "$tmp/letter.log" | indent
		else
			msg="the letter and its tables regenerate identically"
			# A letter a maintainer reads to the end (its template's rule).
			l=$(wc -l < "$patches/0000-cover-letter.patch")
			w=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$patches/0000-cover-letter.patch")
			if [ "$l" -gt 120 ] || [ "$w" -gt 80 ]; then
				st=FAIL msg="patches/0000-cover-letter.patch: $l lines, $w columns at most; at most 120 lines of 80"
			fi
			for f in 0000-cover-letter.patch evidence.txt; do
				if ! diff -u "$patches/$f" "$d/out/$f" > "$tmp/letter.diff"; then
					st=FAIL msg="patches/$f differs from what its run data give"
					head -n 14 "$tmp/letter.diff" | indent
					break
				fi
			done
		fi
	fi
	res "$st" "$msg"
	report_once letter "$st"
}
