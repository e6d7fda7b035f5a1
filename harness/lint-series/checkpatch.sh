# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/checkpatch.sh, sourced by lint-series.sh: the checkpatch step.
#   scripts/checkpatch.pl --strict on "git format-patch -1 C", run in the
#   worktree checked out at C.  No ERROR, no WARNING; CHECKs are listed
#   only.  Exceptions: the file patches/checkpatch-exceptions (absent:
#   none), one per line, "#" comments allowed:
#       <subject prefix or patch file name> | <TYPE> | <reason>
#   e.g.
#       scsi: megaraid_sas: Do not confine | UNKNOWN_COMMIT_ID | Fixes: names a commit of mainline's history
#   The subject prefix is matched against the commit's subject, a patch
#   file name (NNNN-....patch) against its slug.  When vanilla is a root
#   commit (a tree made from a tarball, no upstream history)
#   UNKNOWN_COMMIT_ID is ignored for every commit -- checkpatch cannot look
#   up a Fixes: target there -- and the output says so.
#   checkpatch runs scripts/spdxcheck.py on new files, which needs python3
#   with ply and GitPython (Debian: python3-ply, python3-git).
# Reads $basec, $wt, $tmp, $patches; uses g, goto, note, res, indent,
# report_set.  Writes $tmp/patch and $tmp/cp*.
: "${basec:?}" "${wt:?}" "${tmp:?}" "${patches:?}"
excfile=$patches/checkpatch-exceptions

# checkpatch_prepare: checkpatch's flags (cpflags) and PATH (cppath).
checkpatch_prepare() {
	cpflags=(--strict --terse --showfile --show-types --no-summary)
	if [ -z "$(g rev-list --parents -1 "$basec" | cut -s -d' ' -f2)" ]; then
		cpflags+=(--ignore UNKNOWN_COMMIT_ID)
		note "vanilla $(g log -1 --format=%h "$basec") has no history (tarball tree): checkpatch runs with --ignore UNKNOWN_COMMIT_ID (Fixes: targets cannot be looked up)"
	fi
	# Prefer the system python3 when the one in PATH (pyenv, venv) lacks
	# ply and git.
	cppath=$PATH
	if ! python3 -c 'import ply, git' 2>/dev/null; then
		if /usr/bin/python3 -c 'import ply, git' 2>/dev/null; then
			cppath=/usr/bin:$PATH
		else
			note "python3-ply or python3-git missing: checkpatch's SPDX licence check (spdxcheck.py) does not run"
		fi
	fi
}

# exception_for SUBJECT SLUG TYPE: the reason when the exceptions file allows it.
exception_for() {
	local subj=$1 slug=$2 type=$3 who t why p
	[ -f "$excfile" ] || return 1
	while IFS='|' read -r who t why; do
		who=$(echo "$who" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
		t=$(echo "$t" | tr -d '[:space:]')
		case $who in ''|'#'*) continue ;; esac
		[ "$t" = "$type" ] && [ -n "$(echo "$why" | tr -d '[:space:]')" ] || continue
		case $who in
		*.patch) p=${who%.patch}; p=${p#[0-9][0-9][0-9][0-9]-}
		         [ "$(echo "$p" | tr '[:upper:]' '[:lower:]')" = "$(echo "$slug" | tr '[:upper:]' '[:lower:]' | cut -c1-${#p})" ] || continue ;;
		*) [ "${subj#"$who"}" != "$subj" ] || continue ;;
		esac
		echo "$why" | sed 's/^[[:space:]]*//'
		return 0
	done < "$excfile"
	return 1
}

# checkpatch_check C SUBJECT SLUG: the checkpatch step for commit C.
# Prints its result line and findings.
checkpatch_check() {
	local c=$1 subj=$2 slug=$3 line lvl type why ce=0 cw=0 cc_=0 cx=0 st exc
	goto "$c"
	g format-patch -1 --stdout "$c" > "$tmp/patch"
	(cd "$wt" && PATH=$cppath perl scripts/checkpatch.pl "${cpflags[@]}" - < "$tmp/patch" > "$tmp/cp" 2>"$tmp/cp.err") || true
	: > "$tmp/cp.show"
	while IFS= read -r line; do
		lvl=$(echo "$line" | sed -nE 's/^[^ ]*: (ERROR|WARNING|CHECK):.*/\1/p')
		[ -n "$lvl" ] || continue
		type=$(echo "$line" | sed -nE 's/^[^ ]*: [A-Z]+:([A-Z0-9_]+):.*/\1/p')
		if [ "$lvl" != CHECK ] && why=$(exception_for "$subj" "$slug" "$type"); then
			cx=$((cx + 1)); echo "excepted: $line  [$why]" >> "$tmp/cp.show"; continue
		fi
		case $lvl in
		ERROR) ce=$((ce + 1)) ;;
		WARNING) cw=$((cw + 1)) ;;
		CHECK) cc_=$((cc_ + 1)) ;;
		esac
		echo "$line" | sed 's/^:\([0-9]*\):/(commit message or patch line \1):/' >> "$tmp/cp.show"
	done < "$tmp/cp"
	st=ok; [ "$ce$cw" = 00 ] || st=FAIL
	if grep -vE "No module named '(ply|git)'" "$tmp/cp.err" | grep -qE 'Traceback|Error|^Use of uninit|^Can.t '; then
		echo "checkpatch stderr: $(grep -vE '^ +|^Traceback' "$tmp/cp.err" | head -3 | paste -sd' ' -)" >> "$tmp/cp.show"
	fi
	exc=""; [ "$cx" = 0 ] || exc=", $cx excepted"
	res "$st" "checkpatch --strict: $ce errors, $cw warnings, $cc_ checks$exc"
	indent < "$tmp/cp.show"
	report_set checkpatch "$st" ce "$ce" cw "$cw" cc "$cc_"
}
