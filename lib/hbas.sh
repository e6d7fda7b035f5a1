# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# hbas.sh: driving the hosts and their disks: the topology's HBA drivers
# loaded from a chosen CPU, a host's devices deleted and rescanned from a
# chosen CPU, a disk exercised (sg3_utils, a fio write+verify), fio in the
# background with its progress checked, scsi_debug's host_node parameter
# and hosts.  Needs common.sh (fail, info, wait_for,
# the topology), sysfs.sh, topology.sh (cpu_off_node); taskset, modprobe,
# sg3_utils, fio.  Sourced by common.sh.

# load_hbas: the topology's HBA drivers (TOPO_HBAS, one disk each) loaded
# from a CPU off the devices' node (and off the host's node where the
# machine has one), then every disk's block device waited for.  run-cases'
# setup, and case 10 when the disks are no longer the ones probe created.
load_hbas() {
	local m cpu want n p bad="" pids=() first="" rest=""
	cpu=$(cpu_off_node "$TOPO_DEV_NODE" "$TOPO_HOST_NODE")
	# Side by side: a modprobe returns when its probe's scan is over, and
	# under TCG a scan mostly waits (QEMU megasas's ends one
	# scsi_mod.inq_timeout after its disk; virtio-scsi's 255 absent
	# targets each freeze the disk's queue twice, an RCU grace period
	# each: ~20 s).
	# virtio_scsi first, so that the other loads fit inside its scan; then
	# TOPO_HBAS's order.  Each starts once the one before has a host (or
	# has exited): host numbers mostly keep that order (ahci adds a host
	# per port, and the next driver may start after its first).  Nothing
	# may depend on host numbers or on the order of sdX names.
	for m in $TOPO_HBAS; do
		if [ "$m" = virtio_scsi ]; then first=$m; else rest+=" $m"; fi
	done
	for m in $first $rest; do
		taskset -c "$cpu" modprobe "$m" &
		p=$! pids+=("$m:$p")
		while kill -0 "$p" 2>/dev/null && ! grep -qsxF "$m" /sys/class/scsi_host/*/proc_name; do
			sleep 0.1
		done
	done
	for p in "${pids[@]}"; do wait "${p#*:}" || bad+=" ${p%%:*}"; done
	[ -z "$bad" ] || { echo "modprobe${bad} failed"; return 1; }
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

# rescan_host H CPU: delete every device of host H, then scan each of them
# again ("C T L" to the host's scan attribute), both through sysfs from CPU
# (the scan runs in the writer's context and allocates the scsi_target and
# scsi_device there, as a "- - -" scan does; ahci's user_scan only
# schedules libata's EH, whose hotplug work adds the device, either way).
# Not "- - -": under TCG that adds ~20 s per host for nothing measured
# (QEMU megasas's scan ends one scsi_mod.inq_timeout after its disk;
# virtio-scsi's 255 absent targets each freeze the disk's queue).  Waits
# until the same devices, each with its disk, are back.
rescan_host() {
	local h=$1 cpu=$2 d c t l before
	before=$(devices_of_host "$h" | sort | tr '\n' ' ')
	[ -n "$before" ] || fail "host$h has no device to rescan"
	for d in $before; do
		taskset -c "$cpu" sh -c "echo 1 > /sys/class/scsi_device/$d/device/delete" ||
			fail "delete of $d from CPU $cpu failed"
	done
	wait_for '[ -z "$(devices_of_host '"$h"')" ]' 30 || fail "host$h: devices not deleted"
	for d in $before; do
		IFS=: read -r _ c t l <<< "$d"
		taskset -c "$cpu" sh -c "echo '$c $t $l' > /sys/class/scsi_host/host$h/scan" ||
			fail "rescan of $d from CPU $cpu failed"
	done
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
		--iodepth=8 --rw=randwrite --bs=4k --size=8M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --output-format=terse \
		--terse-version=3 2>&1) || fail "fio verify on /dev/$sd ($d): $out"
	err=$(echo "$out" | tail -n 1 | cut -d';' -f5)	# terse v3 field 5: errors
	[ "$err" = 0 ] || fail "fio on /dev/$sd ($d): error field '$err': $out"
	info "$d /dev/$sd: fio write+verify ok"
}

# disk_ios DISK: the I/Os DISK has completed so far (reads + writes of
# SYS_BLOCK/DISK/stat): the kernel's count, not fio's.  SYS_BLOCK_DIR
# stands in for /sys/block (test/unit/test_fio_bg.sh).
SYS_BLOCK=${SYS_BLOCK_DIR:-/sys/block}
disk_ios() {
	local -a f
	read -r -a f < "$SYS_BLOCK/$1/stat"
	echo $(( f[0] + f[4] ))
}

# Background I/O: the one way a case runs fio beside what it tests.
# fio_bg DISK OUT CPUS [EXTRA..]: a time-based random write + crc32c
# verify (verify_backlog: written blocks are read back while writing) on
# /dev/DISK, in the background, pinned to CPUS unless empty; its PID in
# FIO_PID.  Check it with fio_bg_progress, stop it with fio_bg_end.
# A check of its I/O passes once the disk has completed FIO_BG_MIN_IOS
# I/Os since the previous check (or the start), and fails when that takes
# longer than FIO_BG_WAIT seconds: a stalled or idle job fails its case.
FIO_BG_MIN_IOS=16
FIO_BG_WAIT=${FIO_BG_WAIT:-$((30 * ${SCSI_NUMA_TSCALE:-1}))}
declare -gA FIO_BG_DISK=() FIO_BG_IOS=() FIO_BG_T=()
FIO_PID=""
fio_bg() {
	local disk=$1 out=$2 cpus=$3
	shift 3
	fio --name="bg-$disk" --filename="/dev/$disk" --direct=1 --ioengine=libaio --iodepth=8 \
		--rw=randwrite --bs=4k --size=16M --verify=crc32c --verify_fatal=1 --verify_backlog=64 \
		--verify_state_save=0 --time_based --runtime=$((3600 * ${SCSI_NUMA_TSCALE:-1})) \
		${cpus:+--cpus_allowed=$cpus} "$@" --output="$out" > /dev/null 2>&1 &
	# shellcheck disable=SC2034  # the caller's
	FIO_PID=$!
	FIO_BG_DISK[$FIO_PID]=$disk FIO_BG_IOS[$FIO_PID]=$(disk_ios "$disk") FIO_BG_T[$FIO_PID]=$SECONDS
}

# fio_bg_progress PID OUT WHAT: fail unless the fio still runs and its disk
# completes FIO_BG_MIN_IOS I/Os since the last check within FIO_BG_WAIT s.
fio_bg_progress() {
	local disk=${FIO_BG_DISK[$1]:-} now was end=$((SECONDS + FIO_BG_WAIT))
	[ -n "$disk" ] || fail "$3: PID $1 is no fio_bg job"
	was=${FIO_BG_IOS[$1]}
	while now=$(disk_ios "$disk"); [ $((now - was)) -lt "$FIO_BG_MIN_IOS" ]; do
		kill -0 "$1" 2>/dev/null || fail "$3: fio ended before it was stopped: $(tail -n 5 "$2")"
		[ "$SECONDS" -lt "$end" ] ||
			fail "$3: /dev/$disk completed $((now - was)) I/Os in the $((SECONDS - FIO_BG_T[$1]))s since the last check, fewer than $FIO_BG_MIN_IOS: the background fio is stalled or idle"
		sleep 0.5
	done
	kill -0 "$1" 2>/dev/null || fail "$3: fio ended before it was stopped: $(tail -n 5 "$2")"
	FIO_BG_IOS[$1]=$now FIO_BG_T[$1]=$SECONDS
}

# fio_bg_end PID OUT WHAT: stop the fio; fail unless it ran to the stop,
# its disk made progress since the last check, fio saw no error and
# issued at least FIO_BG_MIN_IOS writes.
fio_bg_end() {
	local w
	fio_bg_progress "$1" "$2" "$3"
	kill -INT "$1"
	wait "$1"
	grep -q "err= 0" "$2" || fail "$3: fio saw errors: $(grep -m3 -E 'err=|verify' "$2")"
	w=$(sed -n 's/.*issued rwts: total=[0-9]*,\([0-9]*\),.*/\1/p' "$2" | head -n 1)
	[ "${w:-0}" -ge "$FIO_BG_MIN_IOS" ] ||
		fail "$3: fio issued ${w:-no} writes, fewer than $FIO_BG_MIN_IOS: $(grep -m3 -E 'write:|issued|err=' "$2")"
	info "$3: fio write+verify: $(grep -m1 -E 'write: IOPS' "$2" | sed 's/^ *//'), $w writes, no error"
}

# scsi_debug with the series' host_node binding?
sdebug_has_node() { modinfo -p scsi_debug 2>/dev/null | grep -q '^host_node:'; }
# shellcheck disable=SC2034  # used by the cases
SDEBUG_DRV=/sys/bus/pseudo/drivers/scsi_debug

# Host numbers of scsi_debug, one per line, sorted.
sdebug_hosts() { hosts_named scsi_debug | sort -n; }

# host_settled HOST [N [BARE]]: host HOST has N devices (empty: any), all
# but BARE (default 0) of them with their disk or CD, and every target a
# device; else the reason on stdout and status 1.  Waits scale with
# SCSI_NUMA_TSCALE (a debug kernel runs slower).
host_settled() {
	local hh=$1 want=${2:-} bare=${3:-0} d t n=0 s=${SCSI_NUMA_TSCALE:-1}
	if [ -n "$want" ]; then
		wait_for '[ "$(devices_of_host '"$hh"' | wc -l)" = '"$want"' ]' $((30 * s)) ||
			{ echo "host$hh: $(devices_of_host "$hh" | wc -l) devices, want $want"; return 1; }
	fi
	for d in $(devices_of_host "$hh"); do
		wait_for "[ -n \"\$(blockdev_of $d)\" ] || [ ! -e /sys/class/scsi_device/$d ]" \
			$(((bare ? 8 : 30) * s)) || n=$((n + 1))
	done
	[ "$n" = "$bare" ] || { echo "host$hh: $n devices without their disk, want $bare"; return 1; }
	for t in /sys/class/scsi_host/host"$hh"/device/target*; do
		[ -e "$t" ] || continue
		ls -d "$t/$hh":* > /dev/null 2>&1 || { echo "host$hh: ${t##*/} has no device"; return 1; }
	done
}
# host_delete_devices HOST: every device of HOST deleted through sysfs.
host_delete_devices() {
	local d
	for d in $(devices_of_host "$1"); do
		echo 1 > "/sys/class/scsi_device/$d/device/delete" || fail "delete of $d failed"
	done
	wait_for '[ -z "$(devices_of_host '"$1"')" ]' $((30 * ${SCSI_NUMA_TSCALE:-1})) ||
		fail "host$1: devices not deleted"
}

# host_orphans: what a removed host left behind, one word each: a
# scsi_tmf_N workqueue or a scsi_eh_N thread without host N.
host_orphans() {
	local w n c comm
	for w in /sys/devices/virtual/workqueue/scsi_tmf_*; do
		[ -e "$w" ] || continue
		n=${w##*_}
		[ -e "/sys/class/scsi_host/host$n" ] || echo "scsi_tmf_$n"
	done
	for c in /proc/[0-9]*/comm; do
		read -r comm < "$c" 2>/dev/null || continue
		case $comm in
		scsi_eh_*) [ -e "/sys/class/scsi_host/host${comm#scsi_eh_}" ] || echo "$comm" ;;
		esac
	done
}
