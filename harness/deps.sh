#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh [--list] [GROUP...]: the Debian packages of the named groups
# (default: every group).  As root it installs the missing ones; as anyone
# else it names them with the command that installs them and exits 1.
# Nothing missing: exit 0, silently.  Each make target asks for the groups
# it needs (Makefile, need-*); "make deps" asks for all of them.
#   --list   print the groups and their packages, check nothing.
# The kernel source itself (linux-source-7.3, from a suite the system's apt
# sources may not list) is fetched by ksource.sh into build/, not
# installed; so are sparse's and QEMU's sources (sparse.sh,
# qemu-plugin/fetch-header.sh).  Installing is the only step of the
# harness that needs root, but make host-check on a real machine.
set -u
# The guests' root file system is the host's / (vm.sh), so what a case
# runs in a guest (fio, sg_inq, modprobe, taskset, python3) is installed
# on the host.
#   base     every target: git, make, python3, flock (util-linux), xz
#   tree     make tree: rsync copies a KSRC= tree
#   kernel   gcc and the rest of the kernel builds (make kernels,
#            make check-upstream); liburing for the tree's ublk selftest
#            server kublk (case 42), built with each kernel
#   guest    QEMU, and what the cases run in a guest (fio, sg_inq, modprobe)
#   meter    gcc for the meter plugin; dpkg-source for its header when a Debian patch
#            touches it (qemu-plugin/fetch-header.sh: the KAT, make compare)
#   lint     make lint
#   series   make lint-series: checkpatch's SPDX check (python3-ply,
#            python3-git), sparse's source (dpkg-source; bookworm's sparse
#            is only the last fallback: harness/sparse.sh)
#   blktests make blktests: what blktests and its block and scsi tests
#            run in the guest (gawk, udevadm; blktrace, xfs_io, setpci for
#            block/002, 009, 011, 019, 044), and gcc for its src/
#   charts   the comparison's charts (gnuplot): optional, no target needs
#            it (report.py says so and skips them); make deps installs it
declare -A group=(
	[base]="git make python3 util-linux xz-utils"
	[tree]="rsync"
	[kernel]="gcc bc bison flex libelf-dev libssl-dev cpio kmod ccache liburing-dev"
	[guest]="qemu-system-x86 fio sg3-utils kmod"
	[meter]="gcc dpkg-dev"
	[lint]="shellcheck pyflakes3"
	[series]="python3-ply python3-git dpkg-dev sparse"
	[blktests]="gawk udev gcc g++ blktrace xfsprogs pciutils"
	[charts]="gnuplot-nox"
)
order=(base tree kernel guest meter lint series blktests charts)
if [ "${1:-}" = --list ]; then
	for g in "${order[@]}"; do printf '  %-8s %s\n' "$g" "${group[$g]}"; done
	exit 0
fi
[ $# -gt 0 ] || set -- "${order[@]}"
need=()
for g in "$@"; do
	[ -n "${group[$g]+x}" ] || { echo "deps: no group '$g' (groups: ${order[*]})" >&2; exit 2; }
	for p in ${group[$g]}; do
		[[ " ${need[*]} " == *" $p "* ]] || need+=("$p")
	done
done
if ! command -v dpkg-query >/dev/null; then
	echo "deps: not a Debian system: cannot check for ${need[*]}; continuing" >&2
	exit 0
fi
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages ($*): ${missing[*]}" >&2
	echo "deps: install them once:  sudo make deps   (or: sudo apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	{ echo "deps: apt-get install ${missing[*]} failed" >&2; exit 1; }
