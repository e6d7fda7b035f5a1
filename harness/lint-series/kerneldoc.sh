# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/kerneldoc.sh, sourced by lint-series.sh: the kernel-doc step.
#   scripts/kernel-doc -none -Wall on every .c/.h file C adds or modifies,
#   at C and at P, on the files as git has them (the worktree's
#   scripts/kernel-doc at C): new warnings (warnings.sh) fail.
# Reads $wt, $tmp; uses g, normalise, newer, count, res, indent,
# report_set.  Writes $tmp/kd*.
: "${wt:?}" "${tmp:?}"

# kerneldoc_check P C FILE...: the step for commit C with parent P, FILEs
# the .c/.h files C adds or modifies.  Prints its result line and findings.
kerneldoc_check() {
	local p=$1 c=$2 f side r kb=0 ka=0 kn st
	shift 2
	: > "$tmp/kd.new"
	for f; do
		for side in p c; do
			rm -rf "$tmp/kd"; mkdir -p "$tmp/kd/$(dirname "$f")"
			: > "$tmp/kd.$side"
			if [ $side = p ]; then r=$p; else r=$c; fi
			g show "$r:$f" > "$tmp/kd/$f" 2>/dev/null || continue
			(cd "$tmp/kd" && "$wt/scripts/kernel-doc" -none -Wall "$f" 2>&1 >/dev/null) | normalise > "$tmp/kd.$side" || true
		done
		kb=$((kb + $(count "$tmp/kd.p"))); ka=$((ka + $(count "$tmp/kd.c")))
		newer "$tmp/kd.p" "$tmp/kd.c" >> "$tmp/kd.new"
	done
	kn=$(count "$tmp/kd.new")
	st=ok; [ "$kn" = 0 ] || st=FAIL
	res "$st" "kernel-doc -Wall: $# files, $kn new warnings (before $kb, after $ka)"
	sed 's/^/new: /' "$tmp/kd.new" | indent
	report_set kerneldoc "$st" kn "$kn"
}
