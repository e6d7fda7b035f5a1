# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck source-path=SCRIPTDIR
# Sourced by every guest test case (and by run-cases, guest-compare).
# Environment from guest-init:
#   SCSI_NUMA_TOP (repo), SCSI_NUMA_KERNEL (vanilla|patched|...), SCSI_NUMA_TOPO, SCSI_NUMA_OUT,
#   SCSI_NUMA_EXPECT (patched|vanilla: what the host expects of this kernel).
#   harness/host-check.sh (a real machine) sets no SCSI_NUMA_EXPECT, and SCSI_NUMA_TOPO_FILE
#   (the machine's topology, written from /sys) and SCSI_NUMA_INSPECTOR (the
#   inspector module, or "attributes": the numa_node attributes instead).
# Here: the topology, fail/skip/info, wait_for, judge_mode.  The rest, by job:
#   kmsg.sh      the kernel-log judge
#   cpulist.sh   the one parser of "0-1,4" lists
#   sysfs.sh     hosts, devices, disks and queue maps in /sys
#   topology.sh  facts of the topology file: nodes, distances, CPUs
#   placement.sh the inspector's report, placement.py's verdict, SLUB traces
#   hbas.sh      HBA loading, rescans, sg3_utils and fio checks, scsi_debug
#   kunit.sh     a KUnit suite run and judged
SCSI_NUMA_TOPO_FILE=${SCSI_NUMA_TOPO_FILE:-$SCSI_NUMA_TOP/harness/topo/$SCSI_NUMA_TOPO}
# shellcheck source=/dev/null
. "$SCSI_NUMA_TOPO_FILE"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
info() { echo "$*"; }

# Wait up to $2 seconds (default 60) for command $1 to succeed.
wait_for() {
	local i
	for ((i = 0; i < ${2:-60} * 2; i++)); do eval "$1" && return 0; sleep 0.5; done
	return 1
}

# host_agent REQUEST: REQUEST to the host agent (harness/vm-agent.py; vm.sh
# starts it for a topology with hot-pluggable CPUs) through AGENT_DIR on
# the result share; its reply on stdout; status 1 on an "error:" reply or
# none within 60 s.
AGENT_DIR=${SCSI_NUMA_OUT:-/nonexistent}/agent
host_agent() {
	local n=0
	[ -d "$AGENT_DIR" ] || { echo "no host agent ($AGENT_DIR)"; return 1; }
	while [ -e "$AGENT_DIR/req-$n" ]; do n=$((n + 1)); done
	echo "$1" > "$AGENT_DIR/.req" && mv "$AGENT_DIR/.req" "$AGENT_DIR/req-$n" || return 1
	wait_for "[ -e $AGENT_DIR/resp-$n ]" $((60 * ${SCSI_NUMA_TSCALE:-1})) ||
		{ echo "no reply to '$1' from the host agent"; return 1; }
	cat "$AGENT_DIR/resp-$n"
	grep -q '^ok' "$AGENT_DIR/resp-$n"
}

# Is the running kernel patched (has scsi_host_alloc_node())?  KALLSYMS_FILE
# stands in for /proc/kallsyms (the runner's meta test, test/meta/).
KALLSYMS=${KALLSYMS_FILE:-/proc/kallsyms}
kernel_is_patched() { grep -qw scsi_host_alloc_node "$KALLSYMS"; }
# How placement is judged: as the host says (SCSI_NUMA_EXPECT, checked against the
# kernel by run-cases before any case runs).  Only a run without a host (a
# real machine, SCSI_NUMA_EXPECT unset) goes by what the kernel has.
judge_mode() {
	if [ -n "${SCSI_NUMA_EXPECT:-}" ]; then echo "$SCSI_NUMA_EXPECT"
	elif kernel_is_patched; then echo patched
	else echo vanilla; fi
}

# shellcheck source=kmsg.sh
. "$SCSI_NUMA_TOP/lib/kmsg.sh"
# shellcheck source=cpulist.sh
. "$SCSI_NUMA_TOP/lib/cpulist.sh"
# shellcheck source=sysfs.sh
. "$SCSI_NUMA_TOP/lib/sysfs.sh"
# shellcheck source=topology.sh
. "$SCSI_NUMA_TOP/lib/topology.sh"
# shellcheck source=placement.sh
. "$SCSI_NUMA_TOP/lib/placement.sh"
# shellcheck source=hbas.sh
. "$SCSI_NUMA_TOP/lib/hbas.sh"
# shellcheck source=kunit.sh
. "$SCSI_NUMA_TOP/lib/kunit.sh"
