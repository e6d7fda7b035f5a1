# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/postings.sh, sourced by lint-series.sh: the postings step,
# once after the commits.  Each posting must apply and build on its own
# base, as a maintainer who takes only that posting would.
#   The postings, their patches and the postings each needs are
#   harness/postings.sh deps' for REV: what the letters' @DEPENDS@ says.  A
#   posting that applies to vanilla alone is checked alone, even where its
#   letter's prose says it builds on another.  For each posting, in posting
#   order, in the private worktree: vanilla, git am of the patches of the
#   postings it needs, then of its own, each from patches/ (the file at the
#   commit's place in patches/series; git am must give the commit's
#   subject).  Then build.sh's build_at (same object directory, cache and
#   warning keys) compiles every .c file the posting adds or modifies with
#   W=1 and sparse at its tip and at vanilla: a file that does not compile,
#   or any warning more than at vanilla, fails.  Its KUnit suites must
#   build: each *kunit*.c it adds must be compiled in this config (the
#   suites are modules there and run in make check's guests; kunit.py on
#   UML is not run: a kernel build of its own per posting).
#   Output: one block per posting; last "postings: ..." naming the first
#   posting that fails, and the step's elapsed time.
# Reads $top, $patches, $prel, $basec, $tip, $tmp, $btool and the array
#   commits; uses g, w, goto, moved, build_at, newer, count, res, indent,
#   report_once.  Writes $tmp/post*; commits (git am) in the private
#   worktree only, detached; build/postings-repo (postings.sh).
: "${top:?}" "${patches:?}" "${prel:?}" "${basec:?}" "${tip:?}" "${tmp:?}" "${wt:?}" "${at?}"

# post_am COMMIT...: git am, on the worktree's HEAD, the patch file of
# each COMMIT.  Status 1 with post_msg set when one does not apply.
post_am() {
	local c pf
	for c; do
		pf=${post_file[$c]:-}
		[ -n "$pf" ] && [ -f "$patches/$pf" ] ||
			{ post_msg="no file in $prel/series for $(g log -1 --format='%h %s' "$c")"; return 1; }
		if ! w -c user.name=lint-series -c user.email=lint@localhost am -q "$patches/$pf" > "$tmp/post.am" 2>&1; then
			post_msg="git am stops at $prel/$pf: $(grep -vE '^(hint|Use|When you|If you|To restore)' "$tmp/post.am" | head -3 | paste -sd' ' -)"
			w am --abort >/dev/null 2>&1 || true
			moved
			return 1
		fi
		[ "$(w log -1 --format=%s HEAD)" = "$(g log -1 --format=%s "$c")" ] ||
			{ moved; post_msg="$prel/$pf is not '$(g log -1 --format=%s "$c")' ($prel/series out of step: make export)"; return 1; }
	done
	moved
}

# post_one NAME DEPS COMMIT...: check one posting (DEPS: the postings it
# needs, comma-separated, or -).  Status 1 when it fails.
post_one() {
	local name=$1 deps=$2 d on ptip files=() vfiles=() kfiles=() f st=ok nfail wn kmiss msg base=vanilla
	shift 2
	[ "$deps" = - ] || base="vanilla + ${deps//,/ + }"
	echo "$name: $# patch(es) on $base"
	goto "$basec"
	if [ "$deps" != - ]; then
		for d in ${deps//,/ }; do
			# shellcheck disable=SC2086 # commit ids, one word each
			post_am ${post_list[$d]} || { res FAIL "git am: $d, which it needs: $post_msg"; return 1; }
		done
	fi
	on=$at
	if ! post_am "$@"; then res FAIL "git am: $post_msg"; return 1; fi
	res ok "git am: $# of $# patches from $prel/ apply"
	mapfile -t files < <(g diff --name-only --no-renames --diff-filter=ACMRT "$on" "$at" -- '*.c')
	for f in "${files[@]}"; do
		! g cat-file -e "$basec:$f" 2>/dev/null || vfiles+=("$f")
	done
	mapfile -t kfiles < <(g diff --name-only --no-renames --diff-filter=A "$on" "$at" -- '*kunit*.c')
	ptip=$at
	build_at "$basec" "$tmp/postv" "${vfiles[@]}"
	build_at "$ptip" "$tmp/postc" "${files[@]}"
	# Errors are counted as files that do not compile, not as warnings.
	newer "$tmp/postv.warn" "$tmp/postc.warn" | { grep -v ': error: ' || true; } > "$tmp/post.new"
	wn=$(count "$tmp/post.new")
	nfail=$(grep -c '^failed ' "$tmp/postc.stat" || true)
	kmiss=0
	for f in "${kfiles[@]}"; do grep -qxF "built $f" "$tmp/postc.stat" || kmiss=$((kmiss + 1)); done
	[ "$wn$nfail$kmiss" = 000 ] || st=FAIL
	# shellcheck disable=SC2154 # btool: build_prepare (build.sh)
	msg="build ($btool): $(grep -c '^built ' "$tmp/postc.stat" || true) of ${#files[@]} .c files built"
	[ "$nfail" = 0 ] || msg="$msg, $nfail DO NOT COMPILE"
	msg="$msg, $wn new warnings vs vanilla; KUnit: ${#kfiles[@]} suite files added"
	[ "$kmiss" = 0 ] || msg="$msg, $kmiss NOT BUILT"
	res "$st" "$msg"
	{ sed -n 's/^skipped \([^ ]*\) \(.*\)/skipped: \1 (\2)/p' "$tmp/postc.stat"
	  [ "$nfail" = 0 ] || grep -E ': error: ' "$tmp/postc.log" 2>/dev/null | head -20
	  for f in "${kfiles[@]}"; do grep -qxF "built $f" "$tmp/postc.stat" || echo "KUnit suite not built: $f"; done
	  sed 's/^/new: /' "$tmp/post.new"; } | sed "s|$wt/||g" | indent
	[ "$st" = ok ]
}

postings_check() {
	local t0 name deps list i first="" n=0 nbad=0 plist=()
	declare -gA post_file=() post_list=()
	t0=$(date +%s)
	echo
	echo "postings, each on vanilla alone or after the postings it needs (postings.sh deps):"
	mapfile -t plist < <(grep -vE '^[[:space:]]*(#|$)' "$patches/series" 2>/dev/null || true)
	# shellcheck disable=SC2154 # commits: vanilla..REV (lint-series.sh)
	for ((i = 0; i < ${#commits[@]}; i++)); do post_file[${commits[$i]}]=${plist[$i]:-}; done
	if ! "$top/harness/postings.sh" deps "$tip" > "$tmp/postings" 2> "$tmp/postings.err"; then
		res FAIL "postings.sh deps: $(head -3 "$tmp/postings.err" | paste -sd' ' -)"
		report_once postings FAIL
		return
	fi
	while read -r name deps list; do
		n=$((n + 1))
		post_list[$name]=$list
		# shellcheck disable=SC2086 # commit ids, one word each
		if ! post_one "$name" "$deps" $list; then
			nbad=$((nbad + 1))
			[ -n "$first" ] || first=$name
		fi
	done < "$tmp/postings"
	goto "$basec"
	if [ -z "$first" ]; then
		echo "postings: $n postings, each applies and builds on its own base ($(( $(date +%s) - t0 ))s)"
		report_once postings ok
	else
		echo "postings: FAIL: $first is the first posting that does not apply or build on its own base ($nbad of $n fail; $(( $(date +%s) - t0 ))s)"
		report_once postings FAIL
	fi
}
