# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/warnings.sh, sourced by lint-series.sh: warnings compared as
# multisets, for the build step (build.sh) and kernel-doc (kerneldoc.sh).
# Functions only.  Reads $wt and $obj (stripped from paths); writes nothing
# but stdout.  A change to normalise() changes cached results: bump the
# cache version in build.sh (toolid).
: "${wt:?}" "${obj:?}"

# normalise: make or kernel-doc output on stdin; one "key<TAB>raw" line per
# warning/error on stdout.  The key has no path prefix and no line numbers;
# sparse's indented continuation lines are folded in; gcc warnings ([-W...])
# get the function gcc named before them.
normalise() {
	sed -e "s|$wt/||g" -e "s|$obj/||g" | awk '
	function flush(  k, f) {
		if (cur == "") return
		k = cur
		if (k ~ /\[-W[^]]*\]$/) { f = k; sub(/:.*/, "", f); if (f in fn) k = f " {" fn[f] "} " k }
		gsub(/:[0-9]+/, "", k)
		print k "\t" cur
		cur = ""
	}
	/^[^ ]+: In function / {
		flush(); f = $1; sub(/:$/, "", f); name = $0
		sub(/.*In function ./, "", name); sub(/.:$/, "", name); fn[f] = name; next
	}
	/^[^ ]+:[0-9]+:([0-9]+:)?    *[^ ]/ && cur != "" {
		t = $0; sub(/^[^ ]+:[0-9]+:([0-9]+:)? +/, "", t); cur = cur " / " t; next
	}
	/[Ww]arning:|[Ee]rror:|^Warning |^Error / { flush(); cur = $0; next }
	{ flush() }
	END { flush() }'
}
# newer BEFORE AFTER: the raw lines of AFTER whose keys occur more often
# than in BEFORE.
newer() {
	awk -F'\t' -v before="$1" '
	BEGIN { while ((getline l < before) > 0) { split(l, f, "\t"); n[f[1]]++ } }
	n[$1] > 0 { n[$1]--; next }
	{ print $2 }' "$2"
}
# count FILE: its lines (0 when empty or absent).
count() { if [ -s "$1" ]; then wc -l < "$1"; else echo 0; fi; }
