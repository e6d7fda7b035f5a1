#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
# lint-series.sh [--no-cache] [--sparse PATH] [REV]: review every commit of
# vanilla..REV (default: branch "patched" of build/linux) the way a
# maintainer who bisects and reviews the series would, and check that
# patches/ is that series.
#
#   --no-cache     rebuild every commit (the build step's results are cached,
#                  see "Where")
#   --sparse PATH  the sparse to try first (see "sparse")
#   REV            a commit of build/linux that descends from tag vanilla
# Parallel jobs: the setting JOBS (lib/config.sh).
#
# For each commit C (parent P), in order; each step's file under
# harness/lint-series/ says exactly what it checks:
#   build       every .c file C adds or modifies that this config builds,
#               compiled at P and at C with W=1 and sparse: no new warning,
#               no file that does not compile; objects that Makefile lines
#               C adds name must have their source in C (build.sh; the
#               config and what it builds: kconfig.sh; warnings compared
#               as multisets: warnings.sh)
#   checkpatch  --strict at C: no ERROR, no WARNING but the exceptions of
#               patches/checkpatch-exceptions (checkpatch.sh: its format)
#   kernel-doc  -none -Wall on the .c/.h files C changes: no new warning
#               (kerneldoc.sh)
#   subject     length, final period, the prefix of the subsystems C
#               touches (subject.sh)
# Then, once:
#   patches     patches/series applied with git am to vanilla must give
#               exactly the tree of REV (patches.sh)
#   notes       the notes below "---" of patches/*.patch and the letters
#               name no private draft, review, tracker or tool of ours, and
#               no cover-letter section that does not exist (notes.sh)
#   postings    each posting (harness/postings.sh) applied with git am
#               from patches/ to vanilla alone, or after the postings its
#               letter says it needs, builds its .c files with W=1 and
#               sparse without a new warning against vanilla, its KUnit
#               suites included; the first posting that does not is named
#               (postings.sh)
#   letter      patches/0000-cover-letter.patch and evidence.txt regenerate
#               byte for byte from patches/run-data/letter (letter.sh)
#
# Output: one line per commit and check (ok/FAIL) with the findings under
# it, the once-checks' blocks, a summary table, build/lint-series.tsv, the elapsed time, and last
# "lint-series: N commits, M failures" (M counts failed checks; report.sh).
# Exit 1 on any failure, 2 when the run itself cannot be done.
#
# Where: a private worktree build/lint-wt (detached; created on first use)
# and object directory build/lint-obj; branch "patched", tag "vanilla", the main
# checkout and every other worktree are only read.  The config is made like
# kbuild.sh's (tinyconfig + kernel.config + kernel-compile.config, merge_config.sh, olddefconfig),
# at REV's tip so that options the series adds exist, and stored as
# build/lint-series.config; each commit gets it through olddefconfig.
# Results of the build step are cached in build/lint-cache by tree, file
# list, config, compiler and sparse (--no-cache: rebuild).
#
# Time: the first run also creates the worktree, the config and the
# object directory; after that only commits whose tree, file list or config
# changed are rebuilt (editing commit k rebuilds k..n), and with nothing
# changed only checkpatch, kernel-doc, subjects and git am run.  It counts
# in .ci/run's budget (make check and make lint-series: 70 min cold on 2
# cores); the elapsed time is printed at the end of every run.
#
# sparse: kernel 7.3 needs a sparse that knows __typeof_unqual__
# (scripts/checker-valid.sh); Debian 12's 0.6.4 does not.  The script takes
# --sparse's, then build/sparse/sparse, then sparse from PATH, the first
# that passes checker-valid.sh; harness/sparse.sh builds one from
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
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=kbuild-lib.sh
. "$top/harness/kbuild-lib.sh"
tree=$top/build/linux
wt=$top/build/lint-wt
obj=$top/build/lint-obj
cachedir=$top/build/lint-cache
cfg=$top/build/lint-series.config
tsv=$top/build/lint-series.tsv
patches=$top/patches
prel=${patches#"$top"/}
jobs=$JOBS

g() { git -C "$tree" "$@"; }
w() { git -C "$wt" "$@"; }
die() { echo "lint-series: $*" >&2; exit 2; }
note() { echo "lint-series: $*"; }

nocache="" sparse="" rev=""
while [ $# -gt 0 ]; do
	case $1 in
	--no-cache) nocache=1 ;;
	--sparse) [ $# -ge 2 ] || die "--sparse needs a PATH"; sparse=$2; shift ;;
	-h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
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
kwt_ensure "$tree" "$wt" "$basec" || die "no private worktree $wt"
[ ! -d "$(w rev-parse --path-format=absolute --git-path rebase-apply)" ] || w am --abort >/dev/null 2>&1 || true
tmp=$(mktemp -d "$top/build/lint-tmp.XXXXXX")
trap 'rm -rf "$tmp"; [ ! -d "$(w rev-parse --path-format=absolute --git-path rebase-apply 2>/dev/null)" ] || w am --abort >/dev/null 2>&1 || true' EXIT
at=""	# the commit checked out in $wt
goto() { [ "$at" = "$1" ] || { w checkout -q -f --detach "$1"; at=$1; }; }
moved() { at=$(w rev-parse HEAD); }	# after git am moved HEAD

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
# kbuild unexports LC_ALL: LANG/LC_MESSAGES give gcc's messages ASCII quotes.
mk() { LC_ALL=C LANG=C LC_MESSAGES=C nice -n 19 make -C "$wt" -s O="$obj" CC="$cc" LOCALVERSION= -j"$jobs" "$@" </dev/null; }

# --- the steps (functions only; each file says what it reads and writes) ---
# shellcheck source=lint-series/report.sh
. "$top/harness/lint-series/report.sh"
# shellcheck source=lint-series/warnings.sh
. "$top/harness/lint-series/warnings.sh"
# shellcheck source=lint-series/kconfig.sh
. "$top/harness/lint-series/kconfig.sh"
# shellcheck source=lint-series/build.sh
. "$top/harness/lint-series/build.sh"
# shellcheck source=lint-series/checkpatch.sh
. "$top/harness/lint-series/checkpatch.sh"
# shellcheck source=lint-series/kerneldoc.sh
. "$top/harness/lint-series/kerneldoc.sh"
# shellcheck source=lint-series/subject.sh
. "$top/harness/lint-series/subject.sh"
# shellcheck source=lint-series/patches.sh
. "$top/harness/lint-series/patches.sh"
# shellcheck source=lint-series/notes.sh
. "$top/harness/lint-series/notes.sh"
# shellcheck source=lint-series/postings.sh
. "$top/harness/lint-series/postings.sh"
# shellcheck source=lint-series/letter.sh
. "$top/harness/lint-series/letter.sh"

config_make
build_prepare
checkpatch_prepare
report_start
note "$total commits: vanilla..$rev ($(g log -1 --format=%h "$tip")); build: $btool, -j$jobs, objects in ${obj#"$top"/}"

# --- the commits --------------------------------------------------------------
i=0
for c in "${commits[@]}"; do
	i=$((i + 1))
	p=$(g rev-parse "$c^")
	subj=$(g log -1 --format=%s "$c")
	nn=$(printf '%02d/%02d' "$i" "$total")
	echo
	echo "$nn $(g log -1 --format=%h "$c") $subj"
	mapfile -t changed < <(g diff-tree --no-commit-id -r --no-renames --name-only --diff-filter=ACMRT "$c")
	mapfile -t allfiles < <(g diff-tree --no-commit-id -r --no-renames --name-only "$c")
	cfiles=() kfiles=()
	for f in "${changed[@]}"; do
		case $f in
		*.c) cfiles+=("$f"); kfiles+=("$f") ;;
		*.h) kfiles+=("$f") ;;
		esac
	done
	build_check "$p" "$c" "${cfiles[@]}"
	checkpatch_check "$c" "$subj" "$(g log -1 --format=%f "$c")"
	kerneldoc_check "$p" "$c" "${kfiles[@]}"
	subject_check "$subj" "${allfiles[@]}"
	report_commit "$c" "$nn" "$subj"
done
report_commits_done

patches_check
notes_check
postings_check
letter_check
report_end
