#!/bin/bash
# kbuild.sh NAME REV [debug]: build the kernel at commit REV of build/linux
# into build/kernels/NAME (bzImage, .config, modules, the placement
# inspector; on a kmemleak kernel also scsi_numa_leak.ko).  "debug" adds
# kernel-debug.config (KASAN, kmemleak, lockdep, ...) and builds in an
# object directory of its own.
#
# One object directory per config (build/linux/.obj, .obj-debug) serves every
# commit: switching between the vanilla and the patched commit touches only the files
# that differ, so only those are rebuilt.  A kernel whose commit and config
# inputs match its stamp is not rebuilt at all.
set -euo pipefail
name=$1 rev=$2 variant=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
obj=$tree/.obj${variant:+-$variant}	# a direct subdirectory: kbuild then uses srctree=".."
out=$top/build/kernels/$name
frags=("$top/harness/kernel.config")
case $variant in
'') ;;
debug) frags+=("$top/harness/kernel-debug.config") ;;
*) echo "kbuild: unknown variant '$variant'" >&2; exit 2 ;;
esac
insp=$top/drivers/scsi_numa_inspect
leak=$top/test/modules/kmemleak_control
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
jobs=$JOBS
g() { git -C "$tree" "$@"; }
die() { echo "kbuild: $*" >&2; exit 1; }

commit=$(g rev-parse --verify -q "$rev^{commit}") || die "no commit $rev in $tree"
inputs=$( { echo "$commit $variant"; cat "${frags[@]}" "$0"
	  find "$insp" "$top/include" "$leak" -type f 2>/dev/null | sort | xargs -r cat || true
	} | sha256sum | cut -d' ' -f1)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$inputs" ] && [ -f "$out/bzImage" ]; then
	echo "kbuild: $name is up to date ($(g log -1 --format='%h %s' "$commit"))"
	exit 0
fi

[ -z "$(g status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit or stash them first"
prev=$(g symbolic-ref -q --short HEAD || g rev-parse HEAD)
g checkout -q --detach "$commit"
trap 'g checkout -q "$prev"' EXIT

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
KBUILD_BUILD_TIMESTAMP=$(g log -1 --format=%cd "$commit")
export KBUILD_BUILD_TIMESTAMP
export KBUILD_BUILD_USER=scsi_numa KBUILD_BUILD_HOST=build
mk() { make -s -C "$tree" O="${obj##*/}" CC="$cc" LOCALVERSION= -j"$jobs" "$@"; }

# Config: tinyconfig + our fragments.  Only replace the object directory's
# .config when the result differs, so an unchanged config does not trigger a
# rebuild.
mkdir -p "$obj"
cfgdir=$(mktemp -d)
make -s -C "$tree" O="$cfgdir" tinyconfig >/dev/null
(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$cfgdir" "$cfgdir/.config" "${frags[@]}" >/dev/null)
make -s -C "$tree" O="$cfgdir" olddefconfig >/dev/null
# Every line of the fragments must survive olddefconfig (kunit.py's
# validate_config): "CONFIG_X=v" as written, "# CONFIG_X is not set" unset.
missing=""
defined=$(mktemp)
grep -rhoE '^(menu)?config [A-Za-z0-9_]+' --include='Kconfig*' "$tree" | awk '{print $2}' | sort -u > "$defined"
while read -r line; do
	case $line in
	'# CONFIG_'*' is not set') sym=${line#\# CONFIG_}; sym=${sym%% *} ;;
	''|'#'*) continue ;;
	*) sym=${line%%=*}; sym=${sym#CONFIG_} ;;
	esac
	# An option this tree does not define (a series-only option on vanilla) is not required.
	grep -qxF "$sym" "$defined" || continue
	case $line in
	'#'*) grep -qE "^CONFIG_$sym=" "$cfgdir/.config" && missing="$missing $line" ;;
	*) grep -qxF "$line" "$cfgdir/.config" || missing="$missing $line" ;;
	esac
done < <(cat "${frags[@]}")
rm -f "$defined"
if [ -n "$missing" ]; then
	rm -rf "$cfgdir"
	die "options not in the generated .config (unsatisfied dependencies?):$missing"
fi
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

# The placement inspector, built against this very kernel.
if [ -d "$insp" ]; then
	ib=$top/build/inspector-$name
	rm -rf "$ib"; mkdir -p "$ib"
	cp -r "$insp"/. "$ib/"
	mk M="$ib" INSP_INCLUDE="$top/include" modules
	cp "$ib"/*.ko "$out.new/"
fi
# The kmemleak scans' positive control (case 05), for kernels that scan.
if grep -qx CONFIG_DEBUG_KMEMLEAK=y "$obj/.config"; then
	lb=$top/build/kmemleak-control-$name
	rm -rf "$lb"; mkdir -p "$lb"
	cp -r "$leak"/. "$lb/"
	mk M="$lb" modules
	cp "$lb/scsi_numa_leak.ko" "$out.new/"
fi
echo "$inputs" > "$out.new/stamp"
rm -rf "$out"
mv "$out.new" "$out"
echo "kbuild: $name done: $out ($kver)"
