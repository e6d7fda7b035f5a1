#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# host-check.sh (make host-check): the scsi_debug cases (20, 21) and their
# placement checks, and case 50 for a disk named with --disk, on the running
# kernel of this machine, vanilla or patched, no QEMU; TAP and the
# placement table as make check prints them.
#
#   host-check.sh [--disk /dev/sdX [--confirm-write /dev/sdX]]
#                 [--inspector FILE.ko] [--cases GLOBS] [--out DIR]
#
# What is expected comes from this machine's topology (/sys/devices/system/
# node: online, has_memory, cpulist, distance), written to a topology file
# the cases read; which rule applies (series or vanilla) from what the
# kernel has (run-cases without SCSI_NUMA_EXPECT).  Placement is read with the
# inspector, built against /lib/modules/$(uname -r)/build when that is this
# very kernel's build; else with the numa_node attributes of the SCSI host
# and of blk-mq's hardware queues (lib/attr-report.sh: two kinds of
# fourteen); with neither, case 21 skips and says why.
#
# Safety: needs root; refuses to start when scsi_debug is loaded already
# (it is someone else's); removes its scsi_debug hosts (rmmod) and the
# inspector it loaded on every exit path; touches no real disk unless named
# with --disk (case 50: read-only commands and its host's placement) and
# writes to it (fio verify) only with --confirm-write naming it again, and
# never when it is mounted, swap or held by another device.  The one
# setting it changes, remote_node_defrag_ratio of every slab cache (harness/README,
# "Three things the guest does on purpose"), it prints and restores.  It
# never changes IRQ affinity or sysctls.  Results: build/host-check/<time>/
# (a temporary directory when the checkout is read-only).  Exit: 0 every
# case passed or skipped, 1 a failure, 2 refused.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
# same_device, device_in_use: when a disk may be written to.
# shellcheck source=../lib/write-guard.sh
. "$top/lib/write-guard.sh"
cases='20*,21*,50*'
disk="" confirm="" insp="" outroot=""
die() { echo "host-check: refused: $*" >&2; exit 2; }
note() { echo "# host-check: $*"; }
while [ $# -gt 0 ]; do
	case $1 in
	--disk) disk=${2:-}; shift ;;
	--confirm-write) confirm=${2:-}; shift ;;
	--inspector) insp=${2:-}; shift ;;
	--cases) cases=${2:-}; shift ;;
	--out) outroot=${2:-}; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (--help)" ;;
	esac
	shift
done

# ---- what must hold before anything is touched
[ "$(id -u)" = 0 ] || die "needs root: it loads scsi_debug and the placement inspector (sudo make host-check)"
[ -e /sys/module/scsi_debug ] && [ ! -e /sys/module/scsi_debug/initstate ] &&
	die "scsi_debug is built into this kernel: its hosts could not be removed; a kernel with CONFIG_SCSI_DEBUG=m is needed"
[ -e /sys/module/scsi_debug ] &&
	die "scsi_debug is loaded already (hosts:$(for h in /sys/class/scsi_host/host*; do [ "$(cat "$h/proc_name" 2>/dev/null)" = scsi_debug ] && printf ' %s' "${h##*/}"; done)); it is not ours to remove: unload it first (rmmod scsi_debug) when nothing uses it"
modinfo scsi_debug >/dev/null 2>&1 || die "no scsi_debug module for $(uname -r) (CONFIG_SCSI_DEBUG=m)"
[ -r /sys/devices/system/node/online ] || die "no /sys/devices/system/node: a kernel without CONFIG_NUMA"
for t in python3 fio sg_inq taskset; do
	command -v "$t" >/dev/null || die "$t missing (Debian: python3 fio sg3-utils util-linux)"
done
[ -z "$confirm" ] || [ -n "$disk" ] || die "--confirm-write without --disk"
if [ -n "$disk" ]; then
	[ -b "$disk" ] || die "--disk $disk: not a block device"
	dname=$(basename "$(readlink -f "$disk")")
	[ -e "/sys/block/$dname/device/scsi_device" ] || die "--disk $disk: not a whole SCSI disk (/sys/block/$dname/device/scsi_device)"
	[ -z "$confirm" ] || same_device "$confirm" "$disk" ||
		die "--confirm-write $confirm does not name the --disk $disk"
	if [ -n "$confirm" ]; then
		# Anything on the disk or a partition in use: mounted, swap, a
		# holder (fio-jobs/run.sh's rule for its write jobs too).
		why=$(device_in_use "$disk")
		[ -z "$why" ] || die "$disk: $why"
	fi
fi
if [ -n "$insp" ]; then
	[ -f "$insp" ] || die "--inspector $insp: no such file"
	vm=$(modinfo -F vermagic "$insp" 2>/dev/null)
	[ "${vm%% *}" = "$(uname -r)" ] || die "--inspector $insp is for '${vm%% *}', this kernel is $(uname -r)"
	insp=$(readlink -f "$insp")
fi

# ---- where the results go
if [ -z "$outroot" ]; then
	outroot=$top/build/host-check
	mkdir -p "$outroot" 2>/dev/null && [ -w "$outroot" ] || outroot=""
fi
if [ -n "$outroot" ]; then
	base=$outroot/$(date -u +%Y%m%dT%H%M%S)
	mkdir -p "$base" || die "cannot create $base"
else
	base=$(mktemp -d /tmp/host-check.XXXXXX) || die "cannot create a directory in /tmp"
fi
mkdir -p "$base/out"

# ---- cleanup, on every exit path
mounted_dbg="" insp_loaded="" saved=""
cleanup() {
	local rc=$? i
	trap - EXIT INT TERM HUP
	if [ -e /sys/module/scsi_debug ]; then
		for i in 1 2 3 4 5; do rmmod scsi_debug 2>/dev/null && break; sleep 1; done
	fi
	if [ -e /sys/module/scsi_debug ]; then
		echo "host-check: could not remove scsi_debug (rmmod scsi_debug: $(rmmod scsi_debug 2>&1)); its hosts are still there" >&2
		rc=1
	fi
	if [ -n "$insp_loaded" ] && [ -e /sys/module/scsi_numa_inspect ]; then
		rmmod scsi_numa_inspect && echo "# host-check: the inspector it loaded is unloaded"
	fi
	if [ -n "$saved" ] && [ -s "$saved" ]; then
		while read -r f v; do echo "$v" > "$f"; done < "$saved" 2>/dev/null
		echo "# host-check: remote_node_defrag_ratio restored in $(wc -l < "$saved") slab caches"
	fi
	[ -n "$mounted_dbg" ] && umount /sys/kernel/debug
	echo "# host-check: cleanup done: $( [ -e /sys/module/scsi_debug ] && echo 'scsi_debug STILL LOADED' || echo 'no scsi_debug host left')"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- this machine's topology, from /sys only
nodes() { tr ',' '\n' < "$1" | while IFS=- read -r a b; do [ -n "$a" ] && seq "$a" "${b:-$a}"; done; }
sysn=/sys/devices/system/node
mapfile -t online < <(nodes $sysn/online)
mapfile -t withmem < <(nodes $sysn/has_memory 2>/dev/null)
topo=$base/topology
{
	echo "# The topology of $(uname -n) as /sys/devices/system/node shows it,"
	echo "# written by host-check $(date -u '+%F %T') UTC.  No HBA of the suite's own."
	echo "TOPO_NODES=$(( online[-1] + 1 ))"
	cpus=() mem=() dist=()
	for ((n = 0; n <= online[-1]; n++)); do cpus[n]="" mem[n]=0; done
	for i in "${!online[@]}"; do
		n=${online[i]}
		cpus[n]=$(cat $sysn/node"$n"/cpulist)
		if printf '%s\n' "${withmem[@]}" | grep -qx "$n"; then
			mb=$(( $(awk '/MemTotal/ {print $4}' $sysn/node"$n"/meminfo) / 1024 ))
			mem[n]=$(( mb > 0 ? mb : 1 ))
		fi
		# The i-th distance is to the i-th online node.
		read -ra d < $sysn/node"$n"/distance
		for j in "${!online[@]}"; do
			[ "$j" -gt "$i" ] && dist+=("$n:${online[j]}:${d[j]}")
		done
	done
	echo "TOPO_NODE_CPUS=($(printf '"%s" ' "${cpus[@]}"))"
	echo "TOPO_NODE_MEM_MB=(${mem[*]})"
	echo "TOPO_DISTANCES=(${dist[*]})"
	echo "TOPO_DEV_NODE=-1 TOPO_HOST_NODE=-1 TOPO_HBAS=\"\""
} > "$topo"

note "$(uname -n), kernel $(uname -r); results in $base"
note "topology (from /sys): $(for n in "${online[@]}"; do printf 'node %s cpus %s mem %s; ' "$n" "$(cat $sysn/node"$n"/cpulist)" \
	"$(printf '%s\n' "${withmem[@]}" | grep -qx "$n" && echo yes || echo no)"; done)distances: $(sed -n 's/^TOPO_DISTANCES=(\(.*\))/\1/p' "$topo")"
[ "${#withmem[@]}" -gt 1 ] || note "one node with memory: the cases bind scsi_debug to that node only"

# ---- debugfs (the inspector's and blk-mq's files)
if ! grep -q ' /sys/kernel/debug debugfs ' /proc/mounts; then
	mount -t debugfs debugfs /sys/kernel/debug || die "cannot mount debugfs on /sys/kernel/debug"
	mounted_dbg=1
	note "mounted debugfs on /sys/kernel/debug (unmounted at exit)"
fi

# ---- how placement is read
kb=/lib/modules/$(uname -r)/build
if [ -n "$insp" ]; then
	note "inspector: $insp (given; vermagic $(uname -r))"
elif [ -r /sys/kernel/debug/scsi_numa_inspect ]; then
	insp=loaded
	note "inspector: already loaded (left loaded)"
else
	why=""
	lockdown=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/security/lockdown 2>/dev/null)
	if [ -n "$lockdown" ] && [ "$lockdown" != none ]; then
		why="kernel lockdown ($lockdown): an unsigned module would be refused"
	elif [ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)" = Y ]; then
		why="module.sig_enforce=Y: an unsigned module would be refused"
	elif [ ! -d "$kb" ]; then
		why="no $kb (Debian: apt-get install linux-headers-$(uname -r))"
	elif v=$(sed -n 's/^#define UTS_VERSION "\(.*\)"/\1/p' "$kb/include/generated/utsversion.h" 2>/dev/null) &&
	     [ -n "$v" ] && ! grep -qF "$v" /proc/version; then
		why="$kb is another build of $(uname -r) (its UTS_VERSION '$v' is not in /proc/version): a module built there could misread this kernel's structures"
	else
		cp -r "$top/drivers/scsi_numa_inspect" "$base/inspector"
		start=$(date +%s)
		if make -C "$kb" M="$base/inspector" INSP_INCLUDE="$top/include" modules > "$base/inspector.log" 2>&1 &&
		   [ -f "$base/inspector/scsi_numa_inspect.ko" ]; then
			insp=$base/inspector/scsi_numa_inspect.ko
			note "inspector: built against $kb in $(( $(date +%s) - start ))s"
		else
			why="the build against $kb failed ($base/inspector.log): $(grep -m1 -E 'error|Error' "$base/inspector.log")"
		fi
	fi
	if [ -z "$insp" ]; then
		insp=attributes
		note "inspector: not built: $why"
	fi
fi
if [ "$insp" = attributes ]; then
	note "coverage: reduced: placement from the numa_node attributes (/sys/class/scsi_host/hostN/numa_node,"
	note "  /sys/kernel/debug/block/<disk>/hctxN/numa_node): the nodes the kernel asked for, kinds shost and hctx;"
	note "  not checked: hostdata, shost_data, tags, rq_page, sense, starget, sdev, budget_map, request_queue,"
	note "  scsi_disk, scsi_cd, gendisk, nor"
	note "  where any page really is; on a kernel without those attributes case 21 skips"
else
	note "coverage: full (the inspector: every object kind, the node of the page behind each object)"
	[ "$insp" != loaded ] && [ ! -e /sys/module/scsi_numa_inspect ] && insp_loaded=1
fi

# ---- the one setting changed: SLUB's remote partial-slab fallback
saved=$base/remote_node_defrag_ratio.saved
for f in /sys/kernel/slab/*/remote_node_defrag_ratio; do
	[ -L "${f%/*}" ] && continue	# an alias of another cache
	[ -w "$f" ] && v=$(cat "$f") && [ "$v" != 0 ] && echo "$f $v"
done > "$saved" 2>/dev/null
if [ -s "$saved" ]; then
	note "setting remote_node_defrag_ratio to 0 in $(wc -l < "$saved") slab caches (was: $(awk '{print $2}' "$saved" | sort | uniq -c | awk '{printf "%s x%s ", $2, $1}')); restored at exit"
	while read -r f _; do echo 0 > "$f"; done < "$saved"
fi
note "IRQ affinity and sysctls: not changed"
if [ -n "$disk" ]; then
	note "named disk $disk: case 50, read-only$( [ -n "$confirm" ] && echo ' + fio write/verify (confirmed: its data is overwritten)')"
fi

# ---- the cases, as a real machine runs them: no SCSI_NUMA_EXPECT
unset SCSI_NUMA_EXPECT SCSI_NUMA_BUDGET SCSI_NUMA_TSCALE CHURN_CYCLES
SCSI_NUMA_TOP=$top SCSI_NUMA_KERNEL=host-$(uname -r) SCSI_NUMA_TOPO=host SCSI_NUMA_TOPO_FILE=$topo SCSI_NUMA_OUT=$base/out \
SCSI_NUMA_INSPECTOR=$insp SCSI_NUMA_DISK=$disk SCSI_NUMA_DISK_WRITE=${confirm:+yes} \
	"$top/test/run-cases" -p "$cases" | tee "$base/tap"
rc=${PIPESTATUS[0]}
echo
"$top/harness/placement-summary.sh" "$base"
echo "host-check: $(grep -c '^ok ' "$base/tap") ok ($(grep -c '^ok .* # SKIP' "$base/tap") skipped), $(grep -c '^not ok ' "$base/tap") not ok; exit $rc"
exit "$rc"
