#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lay out the kernel git tree under build/linux: the pristine source as one
# commit tagged "vanilla", then every patch of patches/series applied with
# "git am", one commit each, on branch "patched".
#
# Idempotent: a tree whose series stamp matches patches/ is left alone, so
# file mtimes (and the incremental build) survive.  A tree with commits or
# changes that were never exported is never reset: export them first.
# Holds build/.kernels.lock, as kbuild.sh does: no tree is made or
# replaced under a kernel build.  A replaced tree takes kbuild.sh's
# private worktree (build/kbuild-wt) with it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
tree=$top/build/linux
# KSRC (a setting): a kernel tree, or a tarball of one; empty: Debian's
# linux-source-7.3.
ksrc="" tarball=""
case $KSRC in
'') ;;
*.tar|*.tar.*|*.tgz) tarball=$KSRC ;;
*) ksrc=$KSRC ;;
esac
g() { git -C "$tree" "$@"; }

die() { echo "ktree: $*" >&2; exit 1; }

mkdir -p "$top/build"
exec 9>"$top/build/.kernels.lock"
flock -n 9 || { echo "ktree: waiting for build/.kernels.lock (a kernel build)"; flock 9; }

if [ -n "$ksrc" ]; then
	[ -f "$ksrc/Makefile" ] && [ -d "$ksrc/drivers/scsi" ] ||
		die "KSRC=$ksrc is not a kernel source tree"
	srcid="ksrc:$(cd "$ksrc" && pwd)"
else
	# A tarball (KSRC=*.tar*), or Debian's linux-source-7.3 (ksource.sh).
	[ -n "$tarball" ] || tarball=$("$top/harness/ksource.sh") || die "no kernel source"
	[ -f "$tarball" ] || die "$tarball missing"
	case $tarball in /*) ;; *) tarball=$PWD/$tarball ;; esac
	srcid="tarball:$tarball:$(stat -c %s "$tarball")"
fi

series_list() { grep -vE '^[[:space:]]*(#|$)' "$top/patches/series" || true; }

series_hash() {
	(cd "$top/patches" && cat series &&
	 series_list | while read -r p; do
		[ -f "$p" ] || { echo "MISSING $p"; continue; }
		cat "$p"; done) | sha256sum | cut -d' ' -f1
}

if [ -d "$tree/.git" ] && [ "$(cat "$tree/.git/scsi_numa_source" 2>/dev/null)" != "$srcid" ]; then
	if [ -n "$(g rev-list vanilla..patched 2>/dev/null)" ] &&
	   [ "$(g rev-parse patched 2>/dev/null)" != "$(sed -n 2p "$tree/.git/scsi_numa_stamp" 2>/dev/null)" ]; then
		die "source changed ($srcid) but $tree has unexported commits: make export first"
	fi
	echo "ktree: kernel source changed, recreating $tree"
	rm -rf "$tree"
fi

if [ ! -d "$tree/.git" ]; then
	rm -rf "$tree" "$tree.tmp" "$top/build/kbuild-wt"
	mkdir -p "$tree.tmp"
	if [ -n "$ksrc" ]; then
		echo "ktree: copying $ksrc"
		rsync -a --exclude=.git "$ksrc/" "$tree.tmp/"
	else
		echo "ktree: unpacking $tarball"
		tar -xf "$tarball" -C "$tree.tmp" --strip-components=1
	fi
	git -C "$tree.tmp" init -q -b patched
	git -C "$tree.tmp" config user.name "scsi_numa builder"
	git -C "$tree.tmp" config user.email "builder@localhost"
	git -C "$tree.tmp" config gc.auto 0
	# The kernel's .gitignore ignores dotfiles at the top: force the whole tree in.
	git -C "$tree.tmp" add -f -A
	git -C "$tree.tmp" -c core.hooksPath=/dev/null commit -q -m "vanilla: $(make -s -C "$tree.tmp" kernelversion 2>/dev/null) ($srcid)"
	git -C "$tree.tmp" tag vanilla
	echo "$srcid" > "$tree.tmp/.git/scsi_numa_source"
	mv "$tree.tmp" "$tree"
fi

want=$(series_hash)
if [ "${1:-}" = --stamp ]; then	# after an export: the tree is what patches/ says
	printf '%s\n%s\n' "$want" "$(g rev-parse patched)" > "$tree/.git/scsi_numa_stamp"
	exit 0
fi
stamp_hash=$(sed -n 1p "$tree/.git/scsi_numa_stamp" 2>/dev/null || true)
stamp_head=$(sed -n 2p "$tree/.git/scsi_numa_stamp" 2>/dev/null || true)
head=$(g rev-parse patched)
if [ "$want" = "$stamp_hash" ] && [ "$head" = "$stamp_head" ]; then
	exit 0
fi
# patches/ unchanged since this tree was laid out, and branch patched moved
# on from vanilla: work on the series in progress (harness/README, "Working
# on the series": edit, commit, make check, make export).  The tree is the
# newer copy: keep it, so that make check builds and tests it and make
# export writes it back.  Kernels build from a private worktree at the
# commit, so uncommitted changes are only named.
if [ "$want" = "$stamp_hash" ] && [ "$head" != "$(g rev-parse vanilla)" ] &&
   g merge-base --is-ancestor vanilla "$head" 2>/dev/null; then
	echo "ktree: branch patched in $tree is not what patches/ holds (not exported yet): building it as it is; make export writes it back"
	[ -z "$(g status --porcelain --untracked-files=no)" ] ||
		echo "ktree: $tree has uncommitted changes: they are not built (commit them)"
	exit 0
fi
if [ -n "$(g status --porcelain --untracked-files=no)" ]; then
	die "$tree has uncommitted changes: commit them and 'make export', or discard them"
fi
if [ "$head" != "$stamp_head" ] && [ "$head" != "$(g rev-parse vanilla)" ]; then
	die "patches/ changed, and branch 'patched' in $tree has commits that were never exported: 'make export' them first, or drop them ('git -C $tree reset --hard vanilla')"
fi

g checkout -q patched
g reset -q --hard vanilla
series_list | while read -r p; do
	[ -f "$top/patches/$p" ] || die "patches/series names $p, which does not exist"
	if ! out=$(g -c core.hooksPath=/dev/null am -q --keep-cr "$top/patches/$p" 2>&1); then
		g am --abort >/dev/null 2>&1 || true
		echo "ktree: patch $p does not apply:" >&2
		echo "$out" >&2
		exit 1
	fi
	echo "ktree: applied $p"
done
printf '%s\n%s\n' "$want" "$(g rev-parse patched)" > "$tree/.git/scsi_numa_stamp"
