# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/patches.sh, sourced by lint-series.sh: "patches/ is the
# series", once after the commits.  The files listed in patches/series are
# applied with git am to vanilla in the private worktree (then checked out
# at vanilla again); the result must have exactly the tree of REV.
# Reads $patches, $prel, $basec, $tip, $rev, $total, $tmp; uses g, w,
# goto, moved, res, report_once.  Writes $tmp/am, $tmp/s.*; commits (git
# am) in the private worktree only, detached.
: "${patches:?}" "${prel:?}" "${basec:?}" "${tip:?}" "${rev:?}" "${total:?}" "${tmp:?}"

patches_check() {
	local pmsg="" plist=() applied pf gottree wanttree d
	pst=ok
	echo
	if [ ! -f "$patches/series" ]; then
		pst=FAIL pmsg="no $patches/series"
	else
		mapfile -t plist < <(grep -vE '^[[:space:]]*(#|$)' "$patches/series" || true)
		[ "${#plist[@]}" = "$total" ] ||
			echo "    note $prel/series lists ${#plist[@]} patches, vanilla..$rev has $total commits"
		goto "$basec"
		applied=0
		for pf in "${plist[@]}"; do
			if [ ! -f "$patches/$pf" ]; then pst=FAIL pmsg="$pf is listed in series but missing"; break; fi
			if ! w -c user.name=lint-series -c user.email=lint@localhost am -q "$patches/$pf" > "$tmp/am" 2>&1; then
				pst=FAIL pmsg="git am stops at $pf (patch $((applied + 1)) of ${#plist[@]}): $(grep -vE '^(hint|Use|When you|If you|To restore)' "$tmp/am" | head -4 | paste -sd' ' -)"
				pmsg="$pmsg"$'\n'"  $prel is not the series $rev: run harness/export.sh (make export) to write it there"
				w am --abort >/dev/null 2>&1 || true
				break
			fi
			applied=$((applied + 1))
		done
		if [ "$pst" = ok ]; then
			gottree=$(w rev-parse "HEAD^{tree}") wanttree=$(g rev-parse "$tip^{tree}")
			if [ "$gottree" != "$wanttree" ]; then
				pst=FAIL
				pmsg="the ${#plist[@]} patches apply, but the result differs from $rev ($total commits)"
				w log --format=%s "$basec..HEAD" > "$tmp/s.patches"
				g log --format=%s "$basec..$tip" > "$tmp/s.series"
				d=$(diff "$tmp/s.patches" "$tmp/s.series" | grep -E '^[<>]' | head -6 | sed 's/^</  patches:/; s/^>/  series: /' || true)
				[ -z "$d" ] || pmsg="$pmsg; subjects that differ:"$'\n'"$d"
				pmsg="$pmsg"$'\n'"  files that differ (patches vs $rev): $(w diff --stat=200 HEAD "$tip" | tail -1)"$'\n'"  run harness/export.sh (make export) to write the series into patches/"
			else
				pmsg="${#plist[@]} patches of $prel apply with git am on vanilla and give exactly the tree of $rev"
			fi
		fi
		moved
		goto "$basec"
	fi
	echo "series vs $prel:"
	res "$pst" "git am: $pmsg"
	report_once patches "$pst"
}
