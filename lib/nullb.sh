# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# nullb.sh: a null_blk device made through configfs (memory-backed, so
# that fio can verify what it wrote), its hardware queues and their nodes.
# Needs common.sh (fail, info, the topology, cpulist.sh); modprobe.
# Sourced by cases 22, 23 and 44 (its queue checks).

NULLB_CFS=/sys/kernel/config/nullb
NULLB_MOUNTED=""

# configfs_mount: mount configfs unless it is; NULLB_MOUNTED=1 when this
# mounted it (configfs_umount undoes that).
configfs_mount() {
	if [ ! -d /sys/kernel/config ] || ! grep -q ' /sys/kernel/config configfs' /proc/mounts; then
		mount -t configfs configfs /sys/kernel/config || fail "cannot mount configfs"
		NULLB_MOUNTED=1
	fi
}
configfs_umount() { [ -z "$NULLB_MOUNTED" ] || umount /sys/kernel/config; NULLB_MOUNTED=""; }

# nullb_create NAME SUBMIT_QUEUES: a powered-on memory-backed 64 MiB
# device NAME without poll queues (so its hardware queues are its submit
# queues); its disk name (nullbN) in NULLB_DISK.  Loads null_blk and mounts
# configfs when needed (nullb_remove undoes what this did).
nullb_create() {
	local d=$NULLB_CFS/$1 idx
	configfs_mount
	[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 || fail "modprobe null_blk nr_devices=0 failed"
	mkdir "$d" || fail "mkdir $d failed"
	if ! { echo 2 > "$d/queue_mode" && echo 64 > "$d/size" && echo 4096 > "$d/blocksize" &&
		echo 1 > "$d/memory_backed" && echo "$2" > "$d/submit_queues" &&
		echo 0 > "$d/completion_nsec" && echo 0 > "$d/poll_queues"; }; then
		fail "cannot configure $d"
	fi
	echo 1 > "$d/power" || fail "power on of $d failed"
	# null_blk names the disk after the configfs item (nullbINDEX before
	# 6.x); either is accepted.
	idx=$(cat "$d/index")
	wait_for "[ -b /dev/$1 ] || [ -b /dev/nullb$idx ]" 30 ||
		fail "neither /dev/$1 nor /dev/nullb$idx after power on of $d"
	# shellcheck disable=SC2034  # the caller's
	if [ -b "/dev/$1" ]; then NULLB_DISK=$1; else NULLB_DISK=nullb$idx; fi
}

# nullb_remove NAME: power off and remove the device, unload null_blk,
# unmount configfs if nullb_create mounted it.  Quiet; for traps too.
nullb_remove() {
	[ -d "$NULLB_CFS/$1" ] && { echo 0 > "$NULLB_CFS/$1/power"; rmdir "$NULLB_CFS/$1"; }
	modprobe -r null_blk 2>/dev/null
	configfs_umount
	return 0
}

# CPU -> node from /sys/devices/system/node/nodeN/cpulist (the machine's
# facts, not blk-mq's), read once by nullb_node_map.
declare -A NULLB_CPU_NODE=()
nullb_node_map() {
	local f n list c
	for f in /sys/devices/system/node/node*/cpulist; do
		n=${f%/cpulist}; n=${n##*node}
		read -r list < "$f"
		for c in $(cpulist_expand "$list"); do NULLB_CPU_NODE[$c]=$n; done
	done
}

# hctx_nodes_check DISK: each hardware queue of DISK against its CPUs
# (/sys/block/DISK/mq/N/cpu_list): its debugfs numa_node (patch 02) must
# be the node of one of those CPUs that is present (per
# /sys/devices/system/node).  One line per queue into NULLB_NODE_LINES;
# returns 1 on any mismatch.  Where the kernel has no numa_node attribute
# (vanilla) NULLB_NODE_ABSENT is set and the queue is not judged.  No
# fork: it runs after every update, under TCG.
# shellcheck disable=SC2034  # read by the callers
NULLB_NODE_ABSENT="" NULLB_NODE_LINES=""
hctx_nodes_check() {
	local disk=$1 q n c node nodes rc=0 attr cl line
	[ ${#NULLB_CPU_NODE[@]} -gt 0 ] || nullb_node_map
	NULLB_NODE_ABSENT="" NULLB_NODE_LINES=""
	for q in /sys/block/"$disk"/mq/*; do
		[ -e "$q" ] || continue
		n=${q##*/} nodes=""
		read -r cl < "$q/cpu_list"
		cl=${cl//,/ }
		for c in $cl; do
			node=${NULLB_CPU_NODE[$c]:-}
			[ -n "$node" ] && [[ " $nodes " != *" $node "* ]] && nodes+="$node "
		done
		nodes=${nodes% } cl=${cl//  /,}
		attr=/sys/kernel/debug/block/$disk/hctx$n/numa_node
		# shellcheck disable=SC2034  # read by the callers
		if [ ! -r "$attr" ]; then
			NULLB_NODE_ABSENT=1
			line="  $disk hctx$n: CPUs $cl (nodes ${nodes:-none}); numa_node absent"
		else
			read -r node < "$attr"
			if [ -z "$nodes" ]; then
				line="  $disk hctx$n: CPUs $cl, none present: numa_node $node not judged"
			elif [[ " $nodes " == *" $node "* ]]; then
				line="  $disk hctx$n: CPUs $cl (nodes $nodes): numa_node $node ok"
			else
				line="FAIL: $disk hctx$n: numa_node $node, but its CPUs $cl are on nodes $nodes"
				rc=1
			fi
		fi
		NULLB_NODE_LINES+="$line"$'\n'
	done
	NULLB_NODE_LINES=${NULLB_NODE_LINES%$'\n'}
	return $rc
}

# mq_count DISK: its hardware queue count (0 when it has none or is gone).
mq_count() { local -a q=(/sys/block/"$1"/mq/*); [ -e "${q[0]}" ] && echo "${#q[@]}" || echo 0; }

# mq_map_check DISK COUNT: fail unless DISK has COUNT hardware queues and
# every possible CPU is in exactly one queue's cpu_list.  No fork (run
# after every update, under TCG).
NULLB_POSSIBLE=""
mq_map_check() {
	local disk=$1 c q cl seen=" " dup=""
	local -a qs=(/sys/block/"$disk"/mq/*)
	[ -n "$NULLB_POSSIBLE" ] || NULLB_POSSIBLE=$(cpulist_expand "$(cat /sys/devices/system/cpu/possible)")
	[ -e "${qs[0]}" ] || qs=()
	[ "${#qs[@]}" = "$2" ] || fail "/dev/$disk: ${#qs[@]} hardware queues, expected $2"
	for q in "${qs[@]}"; do
		read -r cl < "$q/cpu_list"
		for c in ${cl//,/ }; do
			[[ $seen == *" $c "* ]] && dup+=" $c"
			seen+="$c "
		done
	done
	[ -z "$dup" ] || fail "/dev/$disk: CPUs$dup mapped to more than one queue"
	for c in $NULLB_POSSIBLE; do
		[[ $seen == *" $c "* ]] || fail "/dev/$disk: possible CPU $c in no queue's cpu_list"
	done
}
