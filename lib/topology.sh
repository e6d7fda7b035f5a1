# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# topology.sh: facts computed from the topology file alone (TOPO_NODES,
# TOPO_NODE_CPUS, TOPO_NODE_ABSENT_CPUS, TOPO_NODE_MEM_MB, TOPO_DISTANCES;
# harness/topo/), not from the running machine: a CPU off a node, a
# CPU's node, node distances, the node a host's objects belong on, the
# nodes with memory.  Needs the topology sourced and cpulist.sh (both done
# by common.sh, which sources this).

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
