# shellcheck shell=bash
# Sourced by every guest test case.  Environment from guest-init:
#   SCSI_NUMA_TOP (repo), SCSI_NUMA_KERNEL (vanilla|patched|...), SCSI_NUMA_TOPO, SCSI_NUMA_OUT,
#   SCSI_NUMA_EXPECT (patched|vanilla: what the host expects of this kernel).
#   test/harness/host-check.sh (a real machine) sets no SCSI_NUMA_EXPECT, and SCSI_NUMA_TOPO_FILE
#   (the machine's topology, written from /sys) and SCSI_NUMA_INSPECTOR (the
#   inspector module, or "attributes": the numa_node attributes instead).
SCSI_NUMA_TOPO_FILE=${SCSI_NUMA_TOPO_FILE:-$SCSI_NUMA_TOP/test/harness/topo/$SCSI_NUMA_TOPO}
# shellcheck source=/dev/null
. "$SCSI_NUMA_TOPO_FILE"

# shellcheck source=kmsg.sh
. "$SCSI_NUMA_TOP/test/lib/kmsg.sh"
# shellcheck source=cpulist.sh
. "$SCSI_NUMA_TOP/test/lib/cpulist.sh"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
info() { echo "$*"; }

# Is the running kernel patched (has scsi_host_alloc_node())?
kernel_is_patched() { grep -qw scsi_host_alloc_node /proc/kallsyms; }
# How placement is judged: as the host says (SCSI_NUMA_EXPECT, checked against the
# kernel by run-cases before any case runs).  Only a run without a host (a
# real machine, SCSI_NUMA_EXPECT unset) goes by what the kernel has.
judge_mode() {
	if [ -n "${SCSI_NUMA_EXPECT:-}" ]; then echo "$SCSI_NUMA_EXPECT"
	elif kernel_is_patched; then echo patched
	else echo vanilla; fi
}

# SCSI host numbers whose proc_name is $1.
hosts_named() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = "$1" ] && echo "${h##*/host}"
	done
}

# Hosts named $1 that have at least one disk (an AHCI controller has a host
# per port, most of them empty).
hosts_with_disk() {
	local h d
	for h in $(hosts_named "$1"); do
		for d in $(devices_of_host "$h"); do
			[ -n "$(blockdev_of "$d")" ] && { echo "$h"; break; }
		done
	done
}

# H:C:T:L of every scsi_device on host $1.
devices_of_host() {
	local d
	for d in /sys/class/scsi_device/"$1":*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

# Block device name (sdX) of scsi_device $1 (H:C:T:L), empty if none.
blockdev_of() { ls "/sys/class/scsi_device/$1/device/block" 2>/dev/null | head -n 1; }
# sg name of scsi_device $1.
sgdev_of() { ls "/sys/class/scsi_device/$1/device/scsi_generic" 2>/dev/null | head -n 1; }

# Every SCSI disk: H:C:T:L of devices with a block device.
all_disks() {
	local d
	for d in /sys/class/scsi_disk/*; do [ -e "$d" ] && echo "${d##*/}"; done
}

# Wait up to $2 seconds (default 60) for command $1 to succeed.
wait_for() {
	local i
	for ((i = 0; i < ${2:-60} * 2; i++)); do eval "$1" && return 0; sleep 0.5; done
	return 1
}

inspector_report() {	# $1: output file
	if [ "${SCSI_NUMA_INSPECTOR:-}" = attributes ]; then
		"$SCSI_NUMA_TOP/test/lib/attr-report.sh" > "$1" || skip "$(tail -n 1 "$1")"
		return
	fi
	[ -r /sys/kernel/debug/scsi_numa_inspect ] ||
		insmod "${SCSI_NUMA_INSPECTOR:-$SCSI_NUMA_TOP/build/kernels/$SCSI_NUMA_KERNEL/scsi_numa_inspect.ko}" ||
		fail "cannot load the placement inspector"
	cat /sys/kernel/debug/scsi_numa_inspect > "$1" || fail "cannot read the inspector"
	# An inspector built against another tree than this kernel's misreads
	# its structures: each host's DMA device must be above it in /sys.
	local h dev
	while read -r _ h _ dev _; do
		[ "$dev" = - ] || readlink -f "/sys/class/scsi_host/host$h/device" | grep -qF "/$dev/" ||
			fail "the inspector names host$h's device '$dev', not above it in /sys ($(readlink -f "/sys/class/scsi_host/host$h/device")): built against another tree than this kernel's?"
	done < <(grep -a '^host ' "$1")
}

# Kinds every disk-bearing host must show: a report that lacks one did not
# measure what it claims to.  (scsi_debug hosts have no hostdata.)  From the
# attributes (no inspector): the host's and each hardware queue's node only.
REQUIRED_KINDS=shost,tags,rq_page,sense,starget,sdev,budget_map,request_queue,hctx,scsi_disk,gendisk
[ "${SCSI_NUMA_INSPECTOR:-}" = attributes ] && REQUIRED_KINDS=shost,hctx

# placement_check RECORDS CONTEXT NODE [placement.py args..]
#   Judge the hosts selected by the extra args (--hosts/--hostno) against
#   NODE, their queues (--queue-map) against the topology.
placement_check() {
	local rec=$1 ctx=$2 node=$3 mode
	shift 3
	mode=$(judge_mode)
	echo "kernel $SCSI_NUMA_KERNEL ($(uname -r)): $( [ "$mode" = patched ] &&
		echo 'has scsi_host_alloc_node: judged as patched' ||
		echo 'no scsi_host_alloc_node: vanilla behaviour, placement reported')"
	python3 "$SCSI_NUMA_TOP/test/lib/placement.py" "$rec" --node "$node" \
		--context "$ctx" --judge "$mode" --topology "$SCSI_NUMA_TOPO_FILE" \
		--require "$REQUIRED_KINDS" --tsv "$SCSI_NUMA_OUT/placement.tsv" --queue-tsv "$SCSI_NUMA_OUT/queues.tsv" \
		--kernel "$SCSI_NUMA_KERNEL" --topo "$SCSI_NUMA_TOPO" "$@"
}

# A CPU that is not on node $1 (and not on node $2 if there is a choice);
# on a one-node machine, CPU 0.
cpu_off_node() {
	local n c best=""
	for ((n = 0; n < TOPO_NODES; n++)); do
		[ "$n" = "$1" ] && continue
		c=${TOPO_NODE_CPUS[n]%%[-,]*}
		[ -n "$c" ] || continue
		[ "$n" != "${2:-x}" ] && { echo "$c"; return; }
		best=$c
	done
	echo "${best:-0}"
}

# load_hbas: the topology's HBA drivers (TOPO_HBAS, one disk each) loaded
# from a CPU off the devices' node (and off the host's node where the
# machine has one), then every disk's block device waited for.  run-cases'
# setup, and case 10 when the disks are no longer the ones probe created.
load_hbas() {
	local m cpu want n
	cpu=$(cpu_off_node "$TOPO_DEV_NODE" "$TOPO_HOST_NODE")
	for m in $TOPO_HBAS; do
		taskset -c "$cpu" modprobe "$m" || { echo "modprobe $m failed"; return 1; }
	done
	[ -n "$TOPO_HBAS" ] && echo "HBA drivers loaded from CPU $cpu"
	want=$(echo "$TOPO_HBAS" | wc -w)
	for _ in $(seq 120); do
		n=$(all_disks | while read -r d; do [ -n "$(blockdev_of "$d")" ] && echo "$d"; done | wc -l)
		[ "$n" -ge "$want" ] && return 0
		sleep 0.5
	done
	echo "only $n SCSI disks with a block device after 60s, want $want:"
	all_disks
	return 1
}

# slub_alloc_traces OUT SITE-REGEX [CACHE-GLOB]: from SLUB's allocation
# tracking (slub_debug=U), the records of the live objects allocated at the
# call sites matching SITE-REGEX, "CACHE COUNT SITE+off/len age=.. pid=..
# cpus=.. nodes=.." (the indented stack lines are left out), into OUT; the
# caches matching CACHE-GLOB only (default: all; a read walks the cache's
# objects: case 12 reads them all in 16-37 s under TCG).  Returns 1 when
# the kernel has no tracking (the topology does not boot with slub_debug=U).
slub_alloc_traces() {
	local d=/sys/kernel/debug/slab f cache
	ls "$d"/kmalloc-*/alloc_traces >/dev/null 2>&1 || return 1
	: > "$1"
	for f in "$d"/${3:-*}/alloc_traces; do
		cache=${f%/alloc_traces}; cache=${cache##*/}
		awk -v c="$cache" -v re="^($2)" '$1 ~ /^[0-9]+$/ && $2 ~ re { print c, $0 }' "$f" >> "$1"
	done
}

# rescan_host H CPU: delete every device of host H, then rescan the host,
# both through sysfs from CPU (the scan runs in the writer's context).
# Waits until the same devices, each with its disk, are back.
rescan_host() {
	local h=$1 cpu=$2 d before
	before=$(devices_of_host "$h" | sort | tr '\n' ' ')
	[ -n "$before" ] || fail "host$h has no device to rescan"
	for d in $before; do
		taskset -c "$cpu" sh -c "echo 1 > /sys/class/scsi_device/$d/device/delete" ||
			fail "delete of $d from CPU $cpu failed"
	done
	wait_for '[ -z "$(devices_of_host '"$h"')" ]' 30 || fail "host$h: devices not deleted"
	taskset -c "$cpu" sh -c "echo '- - -' > /sys/class/scsi_host/host$h/scan" ||
		fail "rescan of host$h from CPU $cpu failed"
	wait_for '[ "$(devices_of_host '"$h"' | sort | tr "\n" " ")" = "'"$before"'" ]' 30 ||
		fail "host$h: after rescan '$(devices_of_host "$h" | tr '\n' ' ')', before '$before'"
	for d in $before; do
		wait_for "[ -n \"\$(blockdev_of $d)\" ]" 30 || fail "$d: no disk after rescan"
	done
	info "host$h: deleted and rescanned from CPU $cpu: $before"
}

# sg3_check H:C:T:L: sg_inq and sg_turs through the sg and the block node,
# sg_readcap agreeing with the block layer's size.
sg3_check() {
	local d=$1 sd sg dev out cap bytes sys
	sd=$(blockdev_of "$d") sg=$(sgdev_of "$d")
	[ -n "$sd" ] && [ -n "$sg" ] || fail "$d: block '$sd' sg '$sg'"
	for dev in "/dev/$sg" "/dev/$sd"; do
		out=$(sg_inq "$dev" 2>&1) || fail "sg_inq $dev ($d): $out"
		if ! out=$(sg_turs "$dev" 2>&1); then
			# QEMU's megasas emulation answers TEST UNIT READY with
			# HARDWARE ERROR / INTERNAL TARGET FAILURE (sd logs the same
			# "Unit Not Ready" at probe): a property of the emulator.
			if [ "$(cat "/sys/class/scsi_host/host${d%%:*}/proc_name")" = megaraid_sas ] &&
			   echo "$out" | grep -q "Internal target failure"; then
				info "$d $dev: TUR answered by QEMU megasas with INTERNAL TARGET FAILURE (emulator quirk)"
			else
				fail "sg_turs $dev ($d): $out"
			fi
		fi
	done
	cap=$(sg_readcap "/dev/$sg" 2>&1) || fail "sg_readcap /dev/$sg ($d): $cap"
	bytes=$(echo "$cap" | sed -n 's/.*Device size: \([0-9]*\) bytes.*/\1/p')
	sys=$(( $(cat "/sys/class/block/$sd/size") * 512 ))
	[ "$bytes" = "$sys" ] || fail "$d: sg_readcap says '$bytes' bytes, the block layer $sys"
	info "$d /dev/$sd /dev/$sg: inquiry, TUR ok; $bytes bytes"
}

# fio_verify H:C:T:L: short random write + crc32c verify, direct I/O.
fio_verify() {
	local d=$1 sd out err
	sd=$(blockdev_of "$d")
	[ -n "$sd" ] || fail "$d: no block device"
	out=$(fio --name="verify-$sd" --filename="/dev/$sd" --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randwrite --bs=4k --size="${FIO_VERIFY_SIZE:-8M}" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --output-format=terse \
		--terse-version=3 2>&1) || fail "fio verify on /dev/$sd ($d): $out"
	err=$(echo "$out" | tail -n 1 | cut -d';' -f5)	# terse v3 field 5: errors
	[ "$err" = 0 ] || fail "fio on /dev/$sd ($d): error field '$err': $out"
	info "$d /dev/$sd: fio write+verify ok"
}

# scsi_debug with the series' host_node binding?
sdebug_has_node() { modinfo -p scsi_debug 2>/dev/null | grep -q '^host_node:'; }
# shellcheck disable=SC2034  # used by the cases
SDEBUG_DRV=/sys/bus/pseudo/drivers/scsi_debug

# Host numbers of scsi_debug, one per line, sorted.
sdebug_hosts() { hosts_named scsi_debug | sort -n; }

# Node of CPU $1, present or absent, from the topology.
cpu_node_of() {
	local n
	for ((n = 0; n < TOPO_NODES; n++)); do
		if cpulist_has "$1" "${TOPO_NODE_CPUS[n]}" ||
		   cpulist_has "$1" "${TOPO_NODE_ABSENT_CPUS[n]:-}"; then
			echo "$n"; return
		fi
	done
}
# Block device of the first disk of host $1.
first_blockdev() {
	local d sd
	for d in $(devices_of_host "$1"); do
		sd=$(blockdev_of "$d")
		[ -n "$sd" ] && { echo "$sd"; return; }
	done
}

# CPUs of hardware queue directory $1 (/sys/block/X/mq/N), one per line.
queue_cpus() { tr ',' '\n' < "$1/cpu_list" | tr -d ' '; }

# queue_map H: the queue map of host H as blk-mq exposes it for its first
# disk, "Q=CPUS;..": hardware queue Q serves CPUS (possible CPUs, present
# or not).  placement.py judges each queue's objects against it and the
# topology.
queue_map() {
	local sd q out=""
	sd=$(first_blockdev "$1")
	[ -n "$sd" ] || fail "host$1: no disk to read the queue map from"
	for q in /sys/block/"$sd"/mq/*; do
		out+="${q##*/}=$(queue_cpus "$q" | sort -n | paste -sd, -);"
	done
	echo "${out%;}"
}

# Distance between nodes $1 and $2, per the topology (QEMU's defaults: 10
# local, 20 remote, unless TOPO_DISTANCES says otherwise).
node_distance() {
	local d src dst val
	[ "$1" = "$2" ] && { echo 10; return; }
	for d in "${TOPO_DISTANCES[@]}"; do
		IFS=: read -r src dst val <<< "$d"
		if { [ "$src" = "$1" ] && [ "$dst" = "$2" ]; } ||
		   { [ "$src" = "$2" ] && [ "$dst" = "$1" ]; }; then
			echo "$val"; return
		fi
	done
	echo 20
}

# The node a host for a device on node $1 keeps its CPU-side objects on:
# $1 if it has CPUs, else the nearest node with CPUs (lowest number on a
# tie), computed from the topology -- the policy of scsi_host_alloc_node().
host_node_of() {
	local n best="" bd=1000 d
	[ -n "${TOPO_NODE_CPUS[$1]}" ] && { echo "$1"; return; }
	for ((n = 0; n < TOPO_NODES; n++)); do
		[ -n "${TOPO_NODE_CPUS[n]}" ] || continue
		d=$(node_distance "$1" "$n")
		[ "$d" -lt "$bd" ] && { bd=$d; best=$n; }
	done
	echo "$best"
}

# Nodes with memory, per the topology, as N,N,..
mem_nodes() {
	local n out=""
	for ((n = 0; n < TOPO_NODES; n++)); do
		[ "${TOPO_NODE_MEM_MB[n]}" != 0 ] && out+="$n,"
	done
	echo "${out%,}"
}

# Extra placement.py arguments for objects expected on node $1: when that
# node has no memory, any node with memory is the allocator's clean
# fallback; TOPO_JUDGE_QUEUES=1: every queue on one node of its present
# CPUs' nodes on every kernel (placement.py's (a) and (b)).
node_accept_args() {
	[ "${TOPO_NODE_MEM_MB[$1]:-1}" = 0 ] && echo "--accept-nodes $(mem_nodes)"
	[ "${TOPO_JUDGE_QUEUES:-0}" = 1 ] && echo "--judge-queues"
	return 0
}

# placement_hbas RECORDS CONTEXT: judge every HBA host of the topology
# against TOPO_HOST_NODE, its queues against its queue map; the device
# must be on TOPO_DEV_NODE.
placement_hbas() {
	local name h rc=0
	for name in $TOPO_HBAS; do
		h=$(hosts_with_disk "$name")
		[ -n "$h" ] || { echo "FAIL: no SCSI host of $name with a disk"; rc=1; continue; }
		for h in $h; do
			# shellcheck disable=SC2046
			placement_check "$1" "$2" "$TOPO_HOST_NODE" --hostno "$h" \
				--dev-node "$TOPO_DEV_NODE" --queue-map "$(queue_map "$h")" \
				$(node_accept_args "$TOPO_HOST_NODE") \
				--require "$REQUIRED_KINDS,hostdata" || rc=1
		done
	done
	return $rc
}

# kunit_run MODULE SUITE: load a KUnit test module, print its KTAP and fail
# unless every subtest passed or skipped.  Skips on a vanilla kernel (the
# suites come with the series); on a NUMA-aware one the module must exist.
kunit_run() {
	local mod=$1 suite=$2 res sub bad
	if [ "$(judge_mode)" != patched ]; then
		modinfo "$mod" >/dev/null 2>&1 && fail "vanilla kernel has the series' $mod module"
		skip "vanilla kernel: $mod comes with the series (expected)"
	fi
	modinfo "$mod" >/dev/null 2>&1 || fail "the host expects the series, and there is no $mod module"
	modprobe "$mod" || fail "modprobe $mod failed"
	res=/sys/kernel/debug/kunit/$suite/results
	[ -r "$res" ] || fail "no KUnit results at $res"
	# The debugfs file goes away with the module: keep a copy.
	cp "$res" "$SCSI_NUMA_OUT/kunit-$suite.ktap"
	res=$SCSI_NUMA_OUT/kunit-$suite.ktap
	cat "$res"
	rmmod "$mod"
	# Subtests are indented "ok N name" / "not ok N name"; the suite line is not.
	sub=$(grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$res")
	[ -n "$sub" ] || fail "no subtest results in the KTAP output"
	bad=$(echo "$sub" | grep -E '^[[:space:]]+not ok ' | grep -v '# SKIP')
	[ -z "$bad" ] || fail "KUnit subtests failed: $bad"
	grep -qE "^(not )?ok [0-9]+ $suite" "$res" || fail "no suite result line"
	grep -qE "^not ok [0-9]+ $suite" "$res" && fail "suite $suite failed"
	info "$suite: $(echo "$sub" | grep -cE '^[[:space:]]+ok ') subtests ok or skipped"
}
