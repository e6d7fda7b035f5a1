#!/bin/bash
# lint-series.sh [--no-cache] [--sparse PATH] [REV]: review every commit of
# vanilla..REV (default: branch "patched" of build/linux) the way a
# maintainer who bisects and reviews the series would, and check that
# patches/ is that series.
#
#   --no-cache     rebuild every commit (the build step's results are cached,
#                  see "Where")
#   --sparse PATH  the sparse to try first (see "sparse")
#   REV            a commit of build/linux that descends from tag vanilla
# Parallel jobs: the setting JOBS (test/lib/config.sh).
#
# For each commit C (parent P), in order:
#   build       Every .c file C adds or modifies that is part of this
#               config's build is compiled at P (when it exists there) and
#               at C, with W=1 and sparse (C=1).  The warning lines (gcc,
#               sparse, W=1's kernel-doc) are normalised -- worktree path and
#               line/column numbers stripped, sparse's "expected/got" lines
#               folded in, gcc's enclosing function kept -- and compared as
#               multisets: any warning more at C than at P fails, and so does
#               a file that does not compile at C.  Changed headers are
#               covered by the commit's own .c files only.  A Makefile line
#               the commit adds must name objects whose source (.c/.S/.rs, a
#               composite, a subdirectory) exists at C: a file left out of a
#               commit fails here even when the config does not build it.
#   checkpatch  scripts/checkpatch.pl --strict on "git format-patch -1 C",
#               run in the worktree checked out at C.  No ERROR, no WARNING;
#               CHECKs are listed only.  Exceptions: the file
#               patches/checkpatch-exceptions (absent: none), one per
#               line, "#" comments allowed:
#                   <subject prefix or patch file name> | <TYPE> | <reason>
#               e.g.
#                   scsi: megaraid_sas: Do not confine | UNKNOWN_COMMIT_ID | Fixes: names a commit of mainline's history
#               The subject prefix is matched against the commit's subject,
#               a patch file name (NNNN-....patch) against its slug.
#               When vanilla is a root commit (a tree made from a tarball, no
#               upstream history) UNKNOWN_COMMIT_ID is ignored for every
#               commit -- checkpatch cannot look up a Fixes: target there --
#               and the output says so.
#   kernel-doc  scripts/kernel-doc -none -Wall on every .c/.h file C adds or
#               modifies, at C and at P: new warnings fail.
#   subject     At most 75 characters, no final period, and the prefix of a
#               subsystem the commit touches: block/, include/linux/blk*,
#               bio.h: "block: " or "blk-mq: " and a lower-case letter;
#               drivers/scsi/, include/scsi/: "scsi: <sub>: " and an
#               upper-case letter; drivers/ata/, libata.h, ata.h:
#               "ata: <sub>: " (libata, ahci, ...) and an upper-case letter.
#               A commit touching several subsystems may use any of theirs;
#               one touching none of them needs some "prefix: ".
# Then, once: the files listed in patches/series are applied with git am to vanilla in the private worktree; the result must
# have exactly the tree of REV.
#
# Output: one line per commit and check (ok/FAIL) with the findings under
# it, a summary table, build/lint-series.tsv, the elapsed time, and last
# "lint-series: N commits, M failures" (M counts failed checks).  Exit 1 on
# any failure, 2 when the run itself cannot be done.
#
# Where: a private worktree build/lint-wt (detached; created on first use)
# and object directory build/lint-obj; branch "patched", tag "vanilla", the main
# checkout and every other worktree are only read.  The config is made like
# kbuild.sh's (tinyconfig + kernel.config, merge_config.sh, olddefconfig),
# at REV's tip so that options the series adds exist, and stored as
# build/lint-series.config; each commit gets it through olddefconfig.
# Results of the build step are cached in build/lint-cache by tree, file
# list, config, compiler and sparse (--no-cache: rebuild).
#
# Time (2 cores, nice 19, -j2: JOBS, nproc there), measured while kernel builds
# and guests ran beside it (load 4-10): the first run creates the worktree
# (~40 s), the config (~30 s) and prepares the object directory (~1 min);
# 13 commits then took 5.5 min.  Every commit rebuilt (gcc from ccache,
# sparse always runs): 17-18 commits 3.5-8.5 min depending on the load, 15
# min with ccache cold at load 8-10.  Nothing changed (results cached): 17
# commits 2.5 min (checkpatch, kernel-doc, git am); after editing commit k
# only k..n are rebuilt.
#
# sparse: kernel 7.3 needs a sparse that knows __typeof_unqual__
# (scripts/checker-valid.sh); Debian 12's 0.6.4 does not.  The script takes
# --sparse's, then build/sparse/sparse, then sparse from PATH, the first
# that passes checker-valid.sh; test/harness/sparse.sh builds one from
# Debian's sid source package (0.6.5~rc1) when build/sparse/sparse is missing.  With none the build step runs
# W=1 only and says so on every line.  checkpatch's SPDX check needs
# python3-ply and python3-git (Debian packages).
#
# Limits: only the files a commit changes are compiled, in one config (x86,
# the harness's): users of a changed header in other files, other
# architectures and options this config leaves off are not built, nor is
# vmlinux linked (so a symbol used before the commit that exports it is not
# caught).  "Part of the build" is read from the Makefiles' obj-/<module>-
# lines and .config, ignoring ifeq blocks.  Warnings are matched by text, so
# a new warning identical to an existing one in the same file and function
# is only counted, not located.
set -euo pipefail
start=$(date +%s)
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/test/lib/config.sh"
tree=$top/build/linux
wt=$top/build/lint-wt
obj=$top/build/lint-obj
cachedir=$top/build/lint-cache
cfg=$top/build/lint-series.config
tsv=$top/build/lint-series.tsv
frag=$top/test/harness/kernel.config
patches=$top/patches
prel=${patches#"$top"/}
jobs=$JOBS
maxlen=75

g() { git -C "$tree" "$@"; }
w() { git -C "$wt" "$@"; }
die() { echo "lint-series: $*" >&2; exit 2; }
note() { echo "lint-series: $*"; }

nocache="" sparse="" rev=""
while [ $# -gt 0 ]; do
	case $1 in
	--no-cache) nocache=1 ;;
	--sparse) [ $# -ge 2 ] || die "--sparse needs a PATH"; sparse=$2; shift ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option '$1' (--help)" ;;
	*) [ -z "$rev" ] || die "one REV only ('$rev', '$1')"; rev=$1 ;;
	esac
	shift
done
rev=${rev:-patched}

[ -d "$tree/.git" ] || die "no kernel tree at $tree (make tree)"
mkdir -p "$top/build" "$cachedir"
exec 9>"$top/build/lint-series.lock"
flock -n 9 || die "another lint-series run holds build/lint-series.lock"

tip=$(g rev-parse --verify -q "$rev^{commit}") || die "no commit '$rev' in $tree"
basec=$(g rev-parse --verify -q "vanilla^{commit}") || die "no tag 'vanilla' in $tree"
g merge-base --is-ancestor "$basec" "$tip" || die "$rev does not descend from vanilla"
[ -z "$(g rev-list --merges "$basec..$tip")" ] || die "vanilla..$rev has merge commits"
mapfile -t commits < <(g rev-list --reverse "$basec..$tip")
total=${#commits[@]}
[ "$total" -gt 0 ] || die "vanilla..$rev has no commits"

# --- the private worktree ----------------------------------------------------
# Compared as git names them: both resolved, so build/linux may be a symlink.
if [ "$(w rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != "$(g rev-parse --path-format=absolute --git-common-dir)" ]; then
	[ ! -e "$wt" ] || die "$wt exists but is not a worktree of $tree: remove it"
	g worktree prune
	note "creating the private worktree $wt (once, about a minute)"
	g worktree add -q --detach "$wt" "$basec"
fi
w symbolic-ref -q HEAD >/dev/null && die "$wt has a branch checked out; it must stay detached"
[ ! -d "$(w rev-parse --path-format=absolute --git-path rebase-apply)" ] || w am --abort >/dev/null 2>&1 || true
trap '[ ! -d "$(w rev-parse --path-format=absolute --git-path rebase-apply 2>/dev/null)" ] || w am --abort >/dev/null 2>&1 || true' EXIT
at=""	# the commit checked out in $wt
goto() { [ "$at" = "$1" ] || { w checkout -q -f --detach "$1"; at=$1; }; }

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
# kbuild unexports LC_ALL: LANG/LC_MESSAGES give gcc's messages ASCII quotes.
mk() { LC_ALL=C LANG=C LC_MESSAGES=C nice -n 19 make -C "$wt" -s O="$obj" CC="$cc" LOCALVERSION= -j"$jobs" "$@" </dev/null; }

# --- the config: kbuild.sh's method, at REV's tip -----------------------------
cfgkey=$( { cat "$frag"; g ls-tree -r "$tip" | grep -E '(^|/)Kconfig[^/]*$|configs/tiny\.config$'; } |
	sha256sum | cut -c1-16)
if [ ! -f "$cfg" ] || [ "$(cat "$cfg.key" 2>/dev/null)" != "$cfgkey" ]; then
	note "making the config at $(g log -1 --format=%h "$tip") (tinyconfig + ${frag#"$top"/})"
	goto "$tip"
	tmpcfg=$(mktemp -d "$top/build/lint-cfg.XXXXXX")
	mk O="$tmpcfg" tinyconfig >/dev/null
	(cd "$wt" && scripts/kconfig/merge_config.sh -m -O "$tmpcfg" "$tmpcfg/.config" "$frag" >/dev/null)
	mk O="$tmpcfg" olddefconfig >/dev/null
	cp "$tmpcfg/.config" "$cfg"
	rm -rf "$tmpcfg"
	echo "$cfgkey" > "$cfg.key"
fi
mkdir -p "$obj"
# Give the object directory the config as the checked-out commit sees it.
# Only needed when the Kconfig files differ from the last time.
sync_config() {
	local last
	last=$(cat "$obj/.lint-config-state" 2>/dev/null || true)
	if [ -n "$last" ] && [ -f "$obj/.config" ] &&
	   [ "$(cat "$obj/.lint-config-key" 2>/dev/null)" = "$cfgkey" ] &&
	   g diff --quiet "$last" "$at" -- ':(glob)**/Kconfig*' 2>/dev/null; then
		return 0
	fi
	cp "$cfg" "$obj/.config"
	mk olddefconfig >/dev/null
	echo "$at" > "$obj/.lint-config-state"
	echo "$cfgkey" > "$obj/.lint-config-key"
}
config_on() { grep -qE "^$1=[ym]\$" "$obj/.config"; }

# --- sparse ------------------------------------------------------------------
goto "$basec"
check=""
# Debian's sid sparse, built from its source package (bookworm's is too old).
[ -n "$sparse" ] || [ -x "$top/build/sparse/sparse" ] ||
	"$top/test/harness/sparse.sh" > /dev/null || note "building sparse (test/harness/sparse.sh) failed"
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

cpflags=(--strict --terse --showfile --show-types --no-summary)
if [ -z "$(g rev-list --parents -1 "$basec" | cut -s -d' ' -f2)" ]; then
	cpflags+=(--ignore UNKNOWN_COMMIT_ID)
	note "vanilla $(g log -1 --format=%h "$basec") has no history (tarball tree): checkpatch runs with --ignore UNKNOWN_COMMIT_ID (Fixes: targets cannot be looked up)"
fi
# checkpatch runs scripts/spdxcheck.py (python3 with ply and GitPython) on
# new files: prefer the system python3 when the one in PATH (pyenv, venv)
# lacks them.
cppath=$PATH
if ! python3 -c 'import ply, git' 2>/dev/null; then
	if /usr/bin/python3 -c 'import ply, git' 2>/dev/null; then
		cppath=/usr/bin:$PATH
	else
		note "python3-ply or python3-git missing: checkpatch's SPDX licence check (spdxcheck.py) does not run"
	fi
fi
excfile=$patches/checkpatch-exceptions

# --- helpers ------------------------------------------------------------------
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
count() { if [ -s "$1" ]; then wc -l < "$1"; else echo 0; fi; }

# Makefile lines of DIR that name TOKEN (x.o, sub/): their left-hand sides.
mkfile_lhs() {
	local mf=$wt/$1/Makefile
	[ -f "$wt/$1/Kbuild" ] && mf=$wt/$1/Kbuild
	[ -f "$mf" ] || return 0
	awk -v t="$2" '
	{ line = line $0 }
	/\\$/ { sub(/\\$/, " ", line); next }
	{
		if (match(line, /^[ \t]*[^ \t:+?=#]+[ \t]*[:+?]?=/)) {
			lhs = substr(line, 1, RLENGTH); rhs = substr(line, RLENGTH + 1)
			sub(/[ \t]*[:+?]?=$/, "", lhs); sub(/^[ \t]+/, "", lhs)
			n = split(rhs, word, /[ \t]+/)
			for (i = 1; i <= n; i++) if (word[i] == t) { print lhs; break }
		}
		line = ""
	}' "$mf"
}
# in_build DIR TOKEN: does the checked-out tree's kbuild, with $obj/.config,
# build TOKEN of DIR?  Top-level directories count as built.
in_build() {
	local dir=$1 tok=$2 lhs sym mod
	while read -r lhs; do
		case $lhs in
		obj-y|obj-m|lib-y)
			dir_in_build "$dir" && return 0 ;;
		'obj-$(CONFIG_'*')')
			sym=${lhs#obj-\$(}; sym=${sym%)}
			config_on "$sym" && dir_in_build "$dir" && return 0 ;;
		*-'$(CONFIG_'*')')
			mod=${lhs%%-\$(*}; sym=${lhs#*-\$(}; sym=${sym%)}
			config_on "$sym" && in_build "$dir" "$mod.o" && return 0 ;;
		*-y|*-objs|*-m)
			mod=${lhs%-*}
			case $mod in obj|lib|ccflags|asflags|ldflags|subdir|always|targets|hostprogs|userprogs) continue ;; esac
			in_build "$dir" "$mod.o" && return 0 ;;
		esac
	done < <(mkfile_lhs "$dir" "$tok")
	return 1
}
dir_in_build() {
	case $1 in */*) in_build "${1%/*}" "${1##*/}/" ;; *) return 0 ;; esac
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
		grep -E '^[A-Za-z0-9_.-]+(\.o|/)$' | sort -u | while read -r t; do
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

subsys_of() {
	case $1 in
	block/*|include/linux/blk*|include/linux/bio.h|include/uapi/linux/blk*) echo block ;;
	drivers/scsi/*|include/scsi/*|include/uapi/scsi/*) echo scsi ;;
	drivers/ata/*|include/linux/libata.h|include/linux/ata.h) echo ata ;;
	*) echo other ;;
	esac
}
# subject_check SUBJECT FILE...: sets subj_msg; status 0 when fine.
subject_check() {
	local s=$1 sub subs=() want=() re_block='^(block|blk-mq): [a-z]' \
	      re_scsi='^scsi: [A-Za-z0-9_.-]+: [A-Z]' re_ata='^ata: [a-z0-9_-]+: [A-Z]' \
	      re_any='^[A-Za-z0-9_./-]+: [^ ]' ok=1 problems=""
	shift
	mapfile -t subs < <(for f; do subsys_of "$f"; done | grep -vx other | sort -u || true)
	if [ ${#subs[@]} -eq 0 ]; then
		[[ $s =~ $re_any ]] && ok=0
		want=("some \"prefix: \"")
	else
		for sub in "${subs[@]}"; do
			case $sub in
			block) [[ $s =~ $re_block ]] && ok=0; want+=("\"block: \" or \"blk-mq: \" + lower case") ;;
			scsi) [[ $s =~ $re_scsi ]] && ok=0; want+=("\"scsi: <sub>: \" + upper case") ;;
			ata) [[ $s =~ $re_ata ]] && ok=0; want+=("\"ata: <sub>: \" + upper case") ;;
			esac
		done
	fi
	[ $ok = 0 ] || problems="prefix: want $(IFS=/; echo "${want[*]}") for ${subs[*]:-these files}"
	if [ ${#s} -gt $maxlen ]; then problems="${problems:+$problems; }${#s} characters (max $maxlen)"; fi
	case $s in *.) problems="${problems:+$problems; }ends with a period" ;; esac
	if [ -n "$problems" ]; then subj_msg=$problems; return 1; fi
	subj_msg="${#s} chars, prefix fits ${subs[*]:-(no subsystem rule)}"
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

# --- the commits --------------------------------------------------------------
tmp=$(mktemp -d "$top/build/lint-tmp.XXXXXX")
trap 'rm -rf "$tmp"; [ ! -d "$(w rev-parse --path-format=absolute --git-path rebase-apply 2>/dev/null)" ] || w am --abort >/dev/null 2>&1 || true' EXIT
printf 'commit\tsubject\twarnings_before\twarnings_after\tnew\tcheckpatch_err\tcheckpatch_warn\tcheckpatch_checks\tkerneldoc_new\tsubject_ok\tfiles_built\tfiles_skipped\tbuild_failed\tmakefile_missing\n' > "$tsv.new"
failures=0
summary=()
res() { # STATUS TEXT
	printf '    %-4s %s\n' "$1" "$2"
	[ "$1" = ok ] || failures=$((failures + 1))
}
indent() { sed 's/^/           /'; }
note "$total commits: vanilla..$rev ($(g log -1 --format=%h "$tip")); build: $btool, -j$jobs, objects in ${obj#"$top"/}"

i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	p=$(g rev-parse "$c^")
	subj=$(g log -1 --format=%s "$c")
	slug=$(g log -1 --format=%f "$c")
	nn=$(printf '%02d/%02d' "$i" "$total")
	echo
	echo "$nn $(g log -1 --format=%h "$c") $subj"
	mapfile -t changed < <(g diff-tree --no-commit-id -r --no-renames --name-only --diff-filter=ACMRT "$c")
	mapfile -t allfiles < <(g diff-tree --no-commit-id -r --no-renames --name-only "$c")
	cfiles=() pfiles=() kfiles=()
	for f in "${changed[@]}"; do
		case $f in
		*.c) cfiles+=("$f"); g cat-file -e "$p:$f" 2>/dev/null && pfiles+=("$f"); kfiles+=("$f") ;;
		*.h) kfiles+=("$f") ;;
		esac
	done

	# build
	build_at "$p" "$tmp/p" "${pfiles[@]}"
	build_at "$c" "$tmp/c" "${cfiles[@]}"
	newer "$tmp/p.warn" "$tmp/c.warn" > "$tmp/new"
	makefile_objs "$c" > "$tmp/mkmiss"
	wb=$(count "$tmp/p.warn") wa=$(count "$tmp/c.warn") wn=$(count "$tmp/new")
	nbuilt=$(grep -c '^built ' "$tmp/c.stat" || true)
	nskip=$(grep -c '^skipped ' "$tmp/c.stat" || true)
	nfail=$(grep -c '^failed ' "$tmp/c.stat" || true)
	nmiss=$(count "$tmp/mkmiss")
	st=ok; [ "$wn$nfail$nmiss" = 000 ] || st=FAIL
	msg="build ($btool): $nbuilt of ${#cfiles[@]} .c files built"
	[ "$nskip" = 0 ] || msg="$msg, $nskip skipped ($(sed -n 's/^skipped \([^ ]*\) \(.*\)/\1: \2/p' "$tmp/c.stat" | paste -sd, -))"
	[ "$nfail" = 0 ] || msg="$msg, $nfail DO NOT COMPILE"
	[ "$nmiss" = 0 ] || msg="$msg, $nmiss objects without source"
	res "$st" "$msg, $wn new warnings (before $wb, after $wa)"
	{ sed -n 's/^failed \([^ ]*\) .*/does not compile: \1/p' "$tmp/c.stat"
	  [ "$nfail" = 0 ] || grep -E 'error:' "$tmp/c.log" 2>/dev/null | sed "s|$wt/||" | head -20
	  cat "$tmp/mkmiss"
	  sed 's/^/new: /' "$tmp/new"; } | sed "s|$wt/||g" | indent
	bfail=$st

	# checkpatch (in the worktree at C)
	goto "$c"
	g format-patch -1 --stdout "$c" > "$tmp/patch"
	(cd "$wt" && PATH=$cppath perl scripts/checkpatch.pl "${cpflags[@]}" - < "$tmp/patch" > "$tmp/cp" 2>"$tmp/cp.err") || true
	ce=0 cw=0 cc_=0 cx=0
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
	cfail=$st

	# kernel-doc, on the files as git has them
	: > "$tmp/kd.new"; kb=0 ka=0
	for f in "${kfiles[@]}"; do
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
	res "$st" "kernel-doc -Wall: ${#kfiles[@]} files, $kn new warnings (before $kb, after $ka)"
	sed 's/^/new: /' "$tmp/kd.new" | indent
	kfail=$st

	# subject
	if subject_check "$subj" "${allfiles[@]}"; then st=ok; so=1; else st=FAIL; so=0; fi
	res "$st" "subject: $subj_msg"
	sfail=$st

	summary+=("$(printf '%-5s  %-5s  %-12s  %-10s  %-7s  %s %s' "${nn%/*}" "$bfail" "$cfail($ce/$cw/$cc_)" "$kfail($kn)" "$sfail" "$(g log -1 --format=%h "$c")" "$subj")")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$subj" "$wb" "$wa" "$wn" "$ce" "$cw" "$cc_" "$kn" "$so" \
		"$nbuilt" "$nskip" "$nfail" "$nmiss" >> "$tsv.new"
done
mv "$tsv.new" "$tsv"

# --- patches/ is the series -----------------------------------------------------
echo
pmsg="" pst=ok
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
			pmsg="$pmsg"$'\n'"  $prel is not the series $rev: run test/harness/export.sh (make export) to write it there"
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
			pmsg="$pmsg"$'\n'"  files that differ (patches vs $rev): $(w diff --stat=200 HEAD "$tip" | tail -1)"$'\n'"  run test/harness/export.sh (make export) to write the series into patches/"
		else
			pmsg="${#plist[@]} patches of $prel apply with git am on vanilla and give exactly the tree of $rev"
		fi
	fi
	at=$(w rev-parse HEAD)
	goto "$basec"
fi
echo "series vs $prel:"
res "$pst" "git am: $pmsg"

# --- summary --------------------------------------------------------------------
echo
echo "#      build  checkpatch    kernel-doc  subject  commit       (checkpatch: errors/warnings/checks)"
printf '%s\n' "${summary[@]}"
echo "patches: $pst"
echo "TSV: ${tsv#"$top"/}"
echo "lint-series: elapsed $(( $(date +%s) - start ))s"
echo "lint-series: $total commits, $failures failures"
[ "$failures" = 0 ]
