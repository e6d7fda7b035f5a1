#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-upstream.sh [--orig TARBALL] [--together-only] (make check-upstream
# [ORIG=TARBALL]): do the postings apply and build on upstream 7.3.4 without
# Debian's patches?
#
# 1. The base: Debian's linux_7.3.4.orig.tar.xz (korig.sh; --orig
#    for another tarball), unpacked once into build/check-upstream/tree, a git
#    repository of its own (tag "orig"), never build/linux.
# 2. What differs: Debian's tree (tag "vanilla" of build/linux) against
#    "orig", file by file: debian-vs-orig.txt, and which of those files the
#    series touches.
# 3. Each posting (postings.sh groups; the files of build/postings/ when
#    make export POSTER=... wrote them for the current series, else the
#    series' own commits) is applied with git am on "orig" alone -- on the
#    earlier postings only if it does not apply alone -- and then all of
#    them in posting order.
# 4. Builds, nice -n 15, -j$JOBS (lib/config.sh), object directory
#    build/check-upstream/obj: the config of build/kernels/patched/.config if
#    there is one, else kbuild.sh's (tinyconfig + kernel.config), with
#    kernel-compile.config's drivers (built, never booted) added, through
#    make olddefconfig; then "make <the directories of every .c file the
#    series changes>/" for all postings together, and for each posting
#    alone (--together-only: all together only).
#
# Output: build/check-upstream/result (read by cover-letter.sh for @BASE@),
# debian-vs-orig.txt, logs under build/check-upstream/logs/.  Exit 0 when every
# posting applies and every build succeeds, 1 on a failure, 2 when the
# check could not be done (no tarball, no tree).
set -euo pipefail
start=$(date +%s)
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=kbuild-lib.sh
. "$top/harness/kbuild-lib.sh"
orig="" each_alone=1
while [ $# -gt 0 ]; do
	case $1 in
	--orig) [ $# -ge 2 ] || { echo "check-upstream: --orig TARBALL" >&2; exit 2; }; orig=$2; shift 2 ;;
	--together-only) each_alone=""; shift ;;
	*) echo "usage: check-upstream.sh [--orig TARBALL] [--together-only]" >&2; exit 2 ;;
	esac
done
tree=$top/build/linux
d=$top/build/check-upstream
wt=$d/tree
obj=$d/obj
logs=$d/logs
jobs=$JOBS
frag=$top/harness/kernel.config
cfrag=$top/harness/kernel-compile.config
die() { echo "check-upstream: $*" >&2; exit 2; }
note() { echo "check-upstream: $*"; }
g() { git -C "$tree" "$@"; }
w() { git -C "$wt" "$@"; }
[ -d "$tree/.git" ] || die "no kernel tree at $tree (make tree)"
mkdir -p "$d" "$logs"
exec 9>"$d/lock"
flock -n 9 || die "another check-upstream holds $d/lock"

tarball=$("$top/harness/korig.sh" ${orig:+"$orig"}) ||
	die "no orig tarball (see korig's message above); make check-upstream ORIG=/path/to/linux-7.3.4.tar.xz checks against that one"
source_line=$(cat "$top/build/korig/source")
note "base: $source_line"

# --- 1. the orig tree ---------------------------------------------------------
if [ "$(cat "$d/tree.source" 2>/dev/null)" != "$source_line" ] || [ ! -d "$wt/.git" ]; then
	note "unpacking $(basename "$tarball") into ${wt#"$top"/} (once, a few minutes)"
	rm -rf "$wt" "$obj" "$d/tree.source"
	mkdir -p "$wt"
	tar -xJf "$tarball" -C "$wt" --strip-components=1
	git init -q "$wt"
	w config gc.auto 0
	w config user.name check-upstream
	w config user.email check-upstream@localhost
	w add -f -A
	w -c core.hooksPath=/dev/null commit -q -m "orig: $(make -s -C "$wt" kernelversion 2>/dev/null) ($source_line)"
	w tag orig
	echo "$source_line" > "$d/tree.source"
	note "orig tree ready ($(( $(date +%s) - start )) s)"
fi
origc=$(w rev-parse orig)

# --- 2. Debian's tree against the orig tarball ---------------------------------
# build/linux's objects are borrowed (objects/info/alternates), not copied:
# the two trees share almost every blob but no commit, so a fetch would
# copy the whole tree.
echo "$tree/.git/objects" > "$wt/.git/objects/info/alternates"
debc=$(g rev-parse vanilla)
w diff --no-renames --name-status orig "$debc" > "$d/debian-vs-orig.txt"
ndiff=$(wc -l < "$d/debian-vs-orig.txt")
g diff --name-only vanilla patched > "$d/series-files.txt"
cut -f2 "$d/debian-vs-orig.txt" | grep -xF -f "$d/series-files.txt" > "$d/series-files-debian-changed.txt" || true
nboth=$(wc -l < "$d/series-files-debian-changed.txt")
note "Debian's base (build/linux tag vanilla) differs from this base in $ndiff files ($(cut -f1 "$d/debian-vs-orig.txt" | sort | uniq -c | awk '{printf "%s%s %s", s, $2, $1; s=", "}')): ${d#"$top"/}/debian-vs-orig.txt"
note "of those, the series changes $nboth$( [ "$nboth" = 0 ] || echo ": $(paste -sd' ' "$d/series-files-debian-changed.txt")")"

# --- 3. the postings, applied with git am ---------------------------------------
series=$(g rev-parse patched)
mapfile -t names < <("$top/harness/postings.sh" groups | awk '{print $1}' | uniq)
pdir=$d/patches
rm -rf "$pdir"; mkdir -p "$pdir"
from="the series' commits (git format-patch of build/linux)"
# build/postings/series: the series commit make export POSTER=... wrote them from.
if [ "$(cat "$top/build/postings/series" 2>/dev/null)" = "$series" ]; then
	from="the postable files of build/postings/"
fi
for name in "${names[@]}"; do
	mkdir -p "$pdir/$name"
	if [ "$from" = "the postable files of build/postings/" ] && [ -d "$top/build/postings/$name" ]; then
		find "$top/build/postings/$name" -name '*.patch' ! -name '*0000-cover-letter.patch' -exec cp {} "$pdir/$name/" \;
	else
		i=0
		while read -r c; do
			i=$((i + 1))
			g format-patch -q -1 --stdout "$c" > "$pdir/$name/$(printf '%04d' "$i").patch"
		done < <("$top/harness/postings.sh" groups | awk -v n="$name" '$1 == n {print $2}')
	fi
done
note "postings: ${names[*]} (from $from)"

w am --abort >/dev/null 2>&1 || true
# am_on REV NAME...: check out REV and git am the postings NAME... in order.
am_on() {
	local rev=$1 name
	shift
	w checkout -q -f --detach "$rev"
	w clean -q -f -d
	for name; do
		if ! w -c core.hooksPath=/dev/null am -q "$pdir/$name"/*.patch > "$logs/am-$name.log" 2>&1; then
			w am --abort >/dev/null 2>&1 || true
			return 1
		fi
	done
}
declare -A alone=() tip=()
failures=0
for ((n = 0; n < ${#names[@]}; n++)); do
	name=${names[$n]}
	if am_on "$origc" "$name"; then
		alone[$name]="applies alone"; tip[$name]=$(w rev-parse HEAD)
	elif [ "$n" -gt 0 ] && am_on "$origc" "${names[@]:0:$n}" "$name"; then
		alone[$name]="applies only on top of ${names[*]:0:$n}"; tip[$name]=$(w rev-parse HEAD)
	else
		alone[$name]="DOES NOT APPLY: $(grep -vE '^(hint|Use|When you|If you|To restore)' "$logs/am-$name.log" | head -3 | paste -sd' ' -)"
		failures=$((failures + 1))
	fi
	note "git am $name ($(ls "$pdir/$name" | wc -l) patches) on orig: ${alone[$name]}"
done
alltip="" same=""
if am_on "$origc" "${names[@]}"; then
	alltip=$(w rev-parse HEAD)
	# Together they must change what the series changes (patch-id: the
	# diff without line numbers, so a different base's offsets do not count).
	# Only where Debian changes none of the series' files: context lines count.
	if [ "$nboth" != 0 ]; then
		same="not compared with vanilla..patched (Debian changes $nboth of its files)"
	elif [ "$(w diff orig "$alltip" | git patch-id --stable | cut -d' ' -f1)" = \
	     "$(g diff vanilla patched | git patch-id --stable | cut -d' ' -f1)" ]; then
		same="the same change as vanilla..patched"
	else
		same="NOT the same change as vanilla..patched (stale build/postings/? make export POSTER=...)"
		failures=$((failures + 1))
	fi
	note "git am of all postings in order (${names[*]}) on orig: ok, $same"
else
	note "git am of all postings in order on orig: FAILED ($(head -3 "$logs/am-${names[-1]}.log" | paste -sd' ' -))"
	failures=$((failures + 1))
fi

# --- 4. builds ---------------------------------------------------------------------
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
mk() { LC_ALL=C nice -n 15 make -C "$wt" -s O="$obj" CC="$cc" LOCALVERSION= -j"$jobs" "$@" </dev/null; }
mkdir -p "$obj"
cfgfrom=${top}/build/kernels/patched/.config
if [ -f "$cfgfrom" ]; then
	cfgname="build/kernels/patched/.config + ${cfrag#"$top"/}"
	# The fragment's symbols replace the kernel's lines for them (appended
	# alone, each would be a Kconfig "override" warning in every build log).
	syms=$(sed -n 's/^\(# \)\{0,1\}\(CONFIG_[A-Za-z0-9_]*\)[= ].*/\2/p' "$cfrag" | paste -sd'|' -)
	{ grep -vE "^(# )?($syms)[= ]" "$cfgfrom"; cat "$cfrag"; } > "$d/config"
else
	cfgname="tinyconfig + ${frag#"$top"/} + ${cfrag#"$top"/} (kbuild.sh's method; build/kernels/patched/.config absent)"
	if [ ! -f "$d/config" ] || [ "$(cat "$d/config.from" 2>/dev/null)" != "$(cat "$frag" "$cfrag" | sha256sum)" ]; then
		w checkout -q -f --detach "${alltip:-$origc}"
		tmpcfg=$(mktemp -d "$d/cfg.XXXXXX")
		kconfig_make "$wt" "$tmpcfg" "$frag" "$cfrag" || { rm -rf "$tmpcfg"; die "cannot make the config"; }
		cp "$tmpcfg/.config" "$d/config"
		cat "$frag" "$cfrag" | sha256sum > "$d/config.from"
		rm -rf "$tmpcfg"
	fi
fi
# The directories of every .c file the series changes.
mapfile -t dirs < <(grep '\.c$' "$d/series-files.txt" | xargs -r -n1 dirname | sort -u | sed 's|$|/|')
# build LABEL REV: olddefconfig + make DIRS at REV; sets built_msg.
build() {
	local label=$1 rev=$2 t0 rc=0 nw
	t0=$(date +%s)
	w checkout -q -f --detach "$rev"
	cp "$d/config" "$obj/.config"
	{ mk olddefconfig && mk -k "${dirs[@]}"; } > "$logs/build-$label.log" 2>&1 || rc=$?
	nw=$(grep -c 'warning:' "$logs/build-$label.log" || true)
	if [ "$rc" = 0 ]; then
		built_msg="builds ($(( $(date +%s) - t0 )) s, $nw compiler warnings)"
	else
		built_msg="BUILD FAILED ($(grep -m3 -E 'error:|Error [0-9]' "$logs/build-$label.log" | sed "s|$wt/||" | paste -sd' ' -))"
		failures=$((failures + 1))
	fi
	note "build $label: make olddefconfig; make ${dirs[*]}: $built_msg (log ${logs#"$top"/}/build-$label.log)"
}
declare -A built=()
note "config: $cfgname; -j$jobs, nice -n 15"
if [ -n "$alltip" ]; then
	build all "$alltip"
	# Which of the series' .c files this config compiles at all.
	missing=$(grep '\.c$' "$d/series-files.txt" | while read -r f; do
		[ -f "$obj/${f%.c}.o" ] || echo "$f"; done | paste -sd' ' -)
	[ -z "$missing" ] || built_msg="$built_msg; not in this config: $missing"
	built[all]=$built_msg
	note "objects: $(grep -c '\.c$' "$d/series-files.txt") .c files changed${missing:+, not built: $missing}"
fi
if [ -n "$each_alone" ]; then
	for name in "${names[@]}"; do
		[ -n "${tip[$name]:-}" ] || continue
		build "$name" "${tip[$name]}"; built[$name]=$built_msg
	done
fi
w checkout -q -f --detach "$origc"

# --- result ---------------------------------------------------------------------------
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "base: $source_line"
	echo "series: $series"
	echo "differ: $ndiff files differ between Debian's linux-source (build/linux tag vanilla) and this base; the series changes $nboth of them"
	echo "config: $cfgname"
	echo "make: make olddefconfig; make ${dirs[*]}"
	for name in "${names[@]}"; do
		echo "posting $name: git am: ${alone[$name]}; ${built[$name]:-not built}"
	done
	echo "all: git am: $([ -n "$alltip" ] && echo "ok, $same" || echo FAILED); ${built[all]:-not built}"
	echo "failures: $failures"
	echo "elapsed: $(( $(date +%s) - start )) s"
} > "$d/result"
note "result: ${d#"$top"/}/result; elapsed $(( $(date +%s) - start )) s; $failures failures"
[ "$failures" = 0 ] || exit 1
