# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# placement.sh: measuring where a host's objects are and judging it: the
# inspector's report (scsi_numa_inspect.ko, or the numa_node attributes
# through attr-report.sh), the kinds a report must have, placement.py's
# verdict for one host or every HBA of the topology, and SLUB's allocation
# traces (which CPU ran an allocation).  Needs common.sh (fail, skip,
# judge_mode, SCSI_NUMA_* and the topology), sysfs.sh (hosts_with_disk,
# queue_map), topology.sh (mem_nodes), python3.  Sourced by common.sh.

inspector_report() {	# $1: output file
	if [ "${SCSI_NUMA_INSPECTOR:-}" = attributes ]; then
		"$SCSI_NUMA_TOP/lib/attr-report.sh" > "$1" || skip "$(tail -n 1 "$1")"
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
	python3 "$SCSI_NUMA_TOP/lib/placement.py" "$rec" --node "$node" \
		--context "$ctx" --judge "$mode" --topology "$SCSI_NUMA_TOPO_FILE" \
		--require "$REQUIRED_KINDS" --tsv "$SCSI_NUMA_OUT/placement.tsv" --queue-tsv "$SCSI_NUMA_OUT/queues.tsv" \
		--kernel "$SCSI_NUMA_KERNEL" --topo "$SCSI_NUMA_TOPO" "$@"
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

# slub_alloc_traces OUT SITE-REGEX [CACHE-GLOB]: from SLUB's allocation
# tracking (slub_debug=U), the records of the live objects allocated at the
# call sites matching SITE-REGEX, "CACHE COUNT SITE+off/len age=.. pid=..
# cpus=.. nodes=.." (the indented stack lines are left out), into OUT; the
# caches matching CACHE-GLOB only (default: all; a read walks the cache's
# objects, which is slow under TCG).  Returns 1 when
# the kernel has no tracking (the kernel was not booted with slub_debug=U).
slub_alloc_traces() {
	local d=/sys/kernel/debug/slab f cache
	ls "$d"/kmalloc-*/alloc_traces >/dev/null 2>&1 || return 1
	: > "$1"
	for f in "$d"/${3:-*}/alloc_traces; do
		cache=${f%/alloc_traces}; cache=${cache##*/}
		awk -v c="$cache" -v re="^($2)" '$1 ~ /^[0-9]+$/ && $2 ~ re { print c, $0 }' "$f" >> "$1"
	done
}

# same_objects BEFORE AFTER: every host's objects on the same nodes in two
# inspector reports (cases 41, 43); what differs on stdout, status 1.
same_objects() {
	local d
	d=$(diff <(grep -a '^obj ' "$1" | awk '{ print $2, $3, $4, $5 }' | sort) \
		 <(grep -a '^obj ' "$2" | awk '{ print $2, $3, $4, $5 }' | sort))
	[ -z "$d" ] && return 0
	echo "objects that differ (< before, > after: host kind object node):"
	echo "$d" | grep '^[<>]' | head -n 40
	return 1
}
