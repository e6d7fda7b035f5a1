# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/build.sh, sourced by lint-series.sh: the build step.
#   Every .c file C adds or modifies that is part of this config's build
#   (kconfig.sh) is compiled at P (when it exists there) and at C, with W=1
#   and sparse (C=1).  The warning lines (gcc, sparse, W=1's kernel-doc)
#   are normalised -- worktree path and line/column numbers stripped,
#   sparse's "expected/got" lines folded in, gcc's enclosing function kept
#   (warnings.sh) -- and compared as multisets: any warning more at C than
#   at P fails, and so does a file that does not compile at C.  Changed
#   headers are covered by the commit's own .c files only.  A Makefile line
#   the commit adds must name objects whose source (.c/.S/.rs, a composite,
#   a subdirectory) exists at C: a file left out of a commit fails here
#   even when the config does not build it.
# sparse: the first of --sparse's, build/sparse/sparse, sparse from PATH
#   that passes the kernel's scripts/checker-valid.sh (at vanilla);
#   harness/sparse.sh builds build/sparse/sparse when it is missing.
#   With none the step runs W=1 only and says so on every line.
# Cache: build/lint-cache/KEY.{warn,stat,log}, KEY from the tree, the file
#   list and toolid (cache version, W=1/sparse, compiler, config, gcc's
#   version, sparse's binary); --no-cache ($nocache) rebuilds.
# Reads $top, $basec, $wt, $obj, $cfg, $cachedir, $tmp, $nocache, $sparse, $cc;
# uses g, goto, mk, note, sync_config, in_build, normalise, newer, count,
# res, indent, report_set.  Writes $obj (objects), $cachedir, $tmp/{p,c}.*,
# $tmp/new, $tmp/mkmiss; sets btool (printed by lint-series.sh).
: "${top:?}" "${basec:?}" "${wt:?}" "${obj:?}" "${cfg:?}" "${cachedir:?}" "${tmp:?}" "${nocache?}" "${sparse?}" "${cc:?}"

# build_prepare: find sparse, set btool, csflags and toolid.
build_prepare() {
	local s check=""
	goto "$basec"
	# Debian's sid sparse, built from its source package (bookworm's is too old).
	[ -n "$sparse" ] || [ -x "$top/build/sparse/sparse" ] ||
		"$top/harness/sparse.sh" > /dev/null || note "building sparse (harness/sparse.sh) failed"
	for s in "$sparse" "$top/build/sparse/sparse" "$(command -v sparse || true)"; do
		[ -n "$s" ] && [ -x "$s" ] || continue
		if [ "$("$wt/scripts/checker-valid.sh" "$s" --arch=x86 -mlittle-endian -m64 2>/dev/null)" = 1 ]; then
			check=$s
			break
		fi
	done
	if [ -n "$check" ]; then
		btool="W=1+sparse"
		csflags=(C=1 CHECK="$check")
	else
		btool="W=1 (NO SPARSE)"
		csflags=(C=0)
		note "WARNING: no sparse that passes scripts/checker-valid.sh (needs __typeof_unqual__; Debian 12's 0.6.4 fails): W=1 only. Name one with --sparse PATH or put one at build/sparse/sparse."
	fi
	# Bump the version when the build step or normalise() changes.
	toolid=$( { echo "lint-cache-2 $btool $cc"; cat "$cfg"; gcc --version | head -1
		    [ -z "$check" ] || sha256sum < "$check"; } | sha256sum | cut -c1-16)
}

# build_at STATE OUT FILE...: compile FILEs (.c) at the checked-out STATE.
# OUT.warn gets the normalised warnings, OUT.stat "built|skipped|failed
# FILE reason" lines.  Cached by tree, file list and tools.
build_at() {
	local state=$1 out=$2 key f o objs=() log
	shift 2
	key=$( { g rev-parse "$state^{tree}"; printf '%s\n' "$@"; echo "$toolid"; } | sha256sum | cut -c1-24)
	rm -f "$out.log"
	if [ -z "$nocache" ] && [ -f "$cachedir/$key.stat" ]; then
		cp "$cachedir/$key.warn" "$out.warn"; cp "$cachedir/$key.stat" "$out.stat"
		[ ! -f "$cachedir/$key.log" ] || cp "$cachedir/$key.log" "$out.log"
		return 0
	fi
	: > "$out.stat"; : > "$out.warn"
	if [ $# -gt 0 ]; then
		goto "$state"
		sync_config
		for f; do
			if in_build "$(dirname "$f")" "$(basename "${f%.c}").o"; then
				objs+=("${f%.c}.o")
			else
				echo "skipped $f not in this config" >> "$out.stat"
			fi
		done
	fi
	if [ ${#objs[@]} -gt 0 ]; then
		for o in "${objs[@]}"; do rm -f "$obj/$o"; done
		log=$out.log
		mk -k -Otarget W=1 "${csflags[@]}" "${objs[@]}" > "$log" 2>&1 || true
		normalise < "$log" > "$out.warn"
		for o in "${objs[@]}"; do
			if [ -f "$obj/$o" ]; then
				echo "built ${o%.o}.c" >> "$out.stat"
			elif grep -qF "No rule to make target '$o'" "$log"; then
				echo "skipped ${o%.o}.c no rule for it" >> "$out.stat"
			else
				echo "failed ${o%.o}.c does not compile" >> "$out.stat"
			fi
		done
	fi
	[ ! -f "$out.log" ] || cp "$out.log" "$cachedir/$key.log"
	cp "$out.warn" "$cachedir/$key.warn"; cp "$out.stat" "$cachedir/$key.stat"
}

# makefile_objs C: objects that Makefile lines added by C name but whose
# source is not in C.
makefile_objs() {
	local c=$1 mf dir t
	while read -r mf; do
		dir=$(dirname "$mf")
		g diff "$c^" "$c" -- "$mf" | sed -n 's/^+\([^+]\)/\1/p' | sed 's/^[^=]*=//' | tr ' \t\\' '\n\n\n' |
		{ grep -E '^[A-Za-z0-9_./-]+(\.o|/)$' || true; } | sort -u | while read -r t; do
			case $t in
			*/) g cat-file -e "$c:$dir/${t}Makefile" 2>/dev/null ||
			    g cat-file -e "$c:$dir/${t}Kbuild" 2>/dev/null ||
			    echo "$mf: $t: no $dir/${t}Makefile" ;;
			*.o) t=${t%.o}
			    g cat-file -e "$c:$dir/$t.c" 2>/dev/null || g cat-file -e "$c:$dir/$t.S" 2>/dev/null ||
			    g cat-file -e "$c:$dir/$t.rs" 2>/dev/null ||
			    g show "$c:$mf" | grep -qE "^[[:space:]]*$t-(y|m|objs|\\\$\\()|\\\$\\(obj\\)/$t\\.c" ||
			    echo "$mf: $t.o: no $dir/$t.c (.S, .rs) in this commit: not added? (the tree's .gitignore, Debian's, ignores every new file: git add -f)" ;;
			esac
		done
	done < <(g diff-tree --no-commit-id -r --name-only --diff-filter=AM "$c" | grep -E '(^|/)(Makefile|Kbuild)$' || true)
}


# build_check P C FILE...: the build step for commit C with parent P, FILEs
# the .c files C adds or modifies.  Prints its result line and findings.
build_check() {
	local p=$1 c=$2 f pfiles=() wb wa wn nbuilt nskip nfail nmiss st msg
	shift 2
	for f; do
		if g cat-file -e "$p:$f" 2>/dev/null; then pfiles+=("$f"); fi
	done
	build_at "$p" "$tmp/p" "${pfiles[@]}"
	build_at "$c" "$tmp/c" "$@"
	newer "$tmp/p.warn" "$tmp/c.warn" > "$tmp/new"
	makefile_objs "$c" > "$tmp/mkmiss"
	wb=$(count "$tmp/p.warn") wa=$(count "$tmp/c.warn") wn=$(count "$tmp/new")
	nbuilt=$(grep -c '^built ' "$tmp/c.stat" || true)
	nskip=$(grep -c '^skipped ' "$tmp/c.stat" || true)
	nfail=$(grep -c '^failed ' "$tmp/c.stat" || true)
	nmiss=$(count "$tmp/mkmiss")
	st=ok; [ "$wn$nfail$nmiss" = 000 ] || st=FAIL
	msg="build ($btool): $nbuilt of $# .c files built"
	[ "$nskip" = 0 ] || msg="$msg, $nskip skipped ($(sed -n 's/^skipped \([^ ]*\) \(.*\)/\1: \2/p' "$tmp/c.stat" | paste -sd, -))"
	[ "$nfail" = 0 ] || msg="$msg, $nfail DO NOT COMPILE"
	[ "$nmiss" = 0 ] || msg="$msg, $nmiss objects without source"
	res "$st" "$msg, $wn new warnings (before $wb, after $wa)"
	{ sed -n 's/^failed \([^ ]*\) .*/does not compile: \1/p' "$tmp/c.stat"
	  [ "$nfail" = 0 ] || grep -E 'error:' "$tmp/c.log" 2>/dev/null | sed "s|$wt/||" | head -20
	  cat "$tmp/mkmiss"
	  sed 's/^/new: /' "$tmp/new"; } | sed "s|$wt/||g" | indent
	report_set build "$st" wb "$wb" wa "$wa" wn "$wn" nbuilt "$nbuilt" nskip "$nskip" nfail "$nfail" nmiss "$nmiss"
}
