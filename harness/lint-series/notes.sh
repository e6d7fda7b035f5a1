# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/notes.sh, sourced by lint-series.sh: the notes step, once.
#   The notes below "---" of patches/*.patch and the letters
#   (patches/cover-letter.in, patches/postings/*.in) name nothing a list
#   reader cannot see: notes.py beside this file has the rules, and
#   test/unit/test_notes.py shows each of them failing.
# Reads $top, $patches, $tmp; uses res, indent.  Writes $tmp/notes.
: "${top:?}" "${patches:?}" "${tmp:?}"

notes_check() {
	local st=ok
	echo
	echo "notes below --- and letters (notes.py):"
	python3 "$top/harness/lint-series/notes.py" "$patches" > "$tmp/notes" 2>&1 || st=FAIL
	res "$st" "$(tail -n 1 "$tmp/notes")"
	sed '$d' "$tmp/notes" | indent
	report_once notes "$st"
}
