#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kbuild.sh NAME REV [debug|leak]: build the kernel at commit REV of build/linux
# into build/kernels/NAME (bzImage, .config, modules, the placement
# inspector, the fail-nth KUnit suite scsi_numa_fail_nth.ko, case 42's
# scsi_numa_pfnmap.ko and the kernel's own ublk selftest server kublk; on
# a kmemleak kernel also scsi_numa_leak.ko).  "debug" adds
# kernel-debug.config (KASAN, kmemleak, lockdep, ...), "leak"
# kernel-leak.config (kmemleak and lockdep only); each builds in an
# object directory of its own.
#
# Where: a private worktree build/kbuild-wt of build/linux (detached;
# created on first use), so build/linux's HEAD, index and files are only
# read, and uncommitted changes there do not stop a build.  One object
# directory per config (build/kbuild-wt/.obj, .obj-debug) serves every
# commit: switching between the vanilla and the patched commit touches
# only the files that differ, so only those are rebuilt.  A kernel whose
# commit, config inputs and our module sources match its stamp is not
# rebuilt at all.  Every build, and ktree.sh, holds build/.kernels.lock:
# make check and make compare started side by side build one after the
# other, and the second then finds the kernel up to date.
set -euo pipefail
name=$1 rev=$2 variant=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
wt=$top/build/kbuild-wt
obj=$wt/.obj${variant:+-$variant}	# a direct subdirectory: kbuild then uses srctree=".."
out=$top/build/kernels/$name
frags=("$top/harness/kernel.config")
case $variant in
'') ;;
debug) frags+=("$top/harness/kernel-debug.config") ;;
leak) frags+=("$top/harness/kernel-leak.config") ;;
*) echo "kbuild: unknown variant '$variant'" >&2; exit 2 ;;
esac
insp=$top/drivers/scsi_numa_inspect
leak=$top/test/modules/kmemleak_control
fnth=$top/test/modules/fail_nth_sweep
pfnm=$top/test/modules/pfnmap_node
kcompat=$top/test/kublk
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=kbuild-lib.sh
. "$top/harness/kbuild-lib.sh"
jobs=$JOBS
g() { git -C "$tree" "$@"; }
die() { echo "kbuild: $*" >&2; exit 1; }

[ -d "$tree/.git" ] || die "no kernel tree at $tree (make tree)"
exec 9>"$top/build/.kernels.lock"
flock -n 9 || { echo "kbuild: $name: waiting for build/.kernels.lock (another kernel build or make tree)"; flock 9; }
commit=$(g rev-parse --verify -q "$rev^{commit}") || die "no commit $rev in $tree"
inputs=$( { echo "$commit $variant"; cat "${frags[@]}" "$0" "$top/harness/kbuild-lib.sh"
	  grep -c io_uring_setup_buf_ring /usr/include/liburing.h 2>/dev/null
	  find "$insp" "$top/include" "$leak" "$fnth" "$pfnm" "$kcompat" -type f 2>/dev/null | sort | xargs -r cat || true
	} | sha256sum | cut -d' ' -f1)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$inputs" ] && [ -f "$out/bzImage" ]; then
	echo "kbuild: $name is up to date ($(g log -1 --format='%h %s' "$commit"))"
	exit 0
fi

kwt_ensure "$tree" "$wt" "$commit" || die "no private worktree $wt"
git -C "$wt" checkout -q -f --detach "$commit"

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
KBUILD_BUILD_TIMESTAMP=$(g log -1 --format=%cd "$commit")
export KBUILD_BUILD_TIMESTAMP
export KBUILD_BUILD_USER=scsi_numa KBUILD_BUILD_HOST=build
mk() { make -s -C "$wt" O="${obj##*/}" CC="$cc" LOCALVERSION= -j"$jobs" "$@"; }

# Config: tinyconfig + our fragments, every line of them surviving
# (kconfig_make).  Only replace the object directory's .config when the
# result differs, so an unchanged config does not trigger a rebuild.
mkdir -p "$obj"
cfgdir=$(mktemp -d)
kconfig_make "$wt" "$cfgdir" "${frags[@]}" || { rm -rf "$cfgdir"; die "cannot make the config of $name"; }
if ! cmp -s "$cfgdir/.config" "$obj/.config"; then
	cp "$cfgdir/.config" "$obj/.config"
fi
rm -rf "$cfgdir"

src=""
[ -f "$top/build/ksource/version" ] && grep -q "^tarball:$top/build/ksource/" "$tree/.git/scsi_numa_source" 2>/dev/null &&
	src=$(cat "$top/build/ksource/version")
echo "kbuild: building $name${variant:+ ($variant)} at $(g log -1 --format='%h %s' "$commit")${src:+; source: $src}"
mk olddefconfig >/dev/null
mk bzImage modules
rm -rf "$out.new"
mkdir -p "$out.new"
mk INSTALL_MOD_PATH="$out.new" modules_install >/dev/null
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/System.map" "$out.new/"
kver=$(cat "$obj/include/config/kernel.release")
echo "$kver" > "$out.new/kernel.release"
g log -1 --format='%H %s' "$commit" > "$out.new/commit"
echo "${src:-$(g log -1 --format=%s vanilla)}" > "$out.new/source"

# mod SRC BUILD [MAKE-ARGS..]: a module directory of ours copied to BUILD
# and built against this very kernel; its .ko files go beside the kernel.
mod() {
	local src=$1 b=$2
	shift 2
	rm -rf "$b"; mkdir -p "$b"
	cp -r "$src"/. "$b/"
	mk M="$b" "$@" modules
	cp "$b"/*.ko "$out.new/"
}
# The placement inspector.
[ ! -d "$insp" ] || mod "$insp" "$top/build/inspector-$name" INSP_INCLUDE="$top/include"
# Case 26's suite: every kernel has KUnit and fault injection.
mod "$fnth" "$top/build/fail-nth-$name" W=1
# Case 42's reader of the nodes behind PFN mappings.
mod "$pfnm" "$top/build/pfnmap-$name" W=1
# The kmemleak scans' positive control (case 05), for kernels that scan.
! grep -qx CONFIG_DEBUG_KMEMLEAK=y "$obj/.config" ||
	mod "$leak" "$top/build/kmemleak-control-$name"
# Case 42's ublk server: the tree's tools/testing/selftests/ublk, built
# as its Makefile does (less metadata_size.c, a program of its own)
# against this tree's UAPI headers.  liburing before 2.4 lacks the
# buffer-ring helpers of kublk's batch mode (-b, unused here): the
# compatibility header stubs them.  Not fatal: without kublk case 42
# fails, and says why.
ksel=$wt/tools/testing/selftests/ublk
kb=$top/build/kublk-$name
compat=()
grep -qs io_uring_setup_buf_ring /usr/include/liburing.h || compat=(-include "$kcompat/liburing-compat.h")
rm -rf "$kb"; mkdir -p "$kb"
# shellcheck disable=SC2046  # the file names have no blanks
if [ ! -f "$ksel/kublk.c" ]; then
	echo "kbuild: $name: no $ksel/kublk.c, kublk not built"
elif ! { mk INSTALL_HDR_PATH="$kb" headers_install >/dev/null &&
	 $cc -D_GNU_SOURCE -O2 -Wall -I "$kb/include" -I "$ksel" "${compat[@]}" -o "$out.new/kublk" \
		$(find "$ksel" -maxdepth 1 -name '*.c' ! -name metadata_size.c | sort) -lpthread -lm -luring; }; then
	echo "kbuild: $name: kublk not built (above); case 42 fails without it"
fi
echo "$inputs" > "$out.new/stamp"
rm -rf "$out"
mv "$out.new" "$out"
echo "kbuild: $name done: $out ($kver)"
