# Sourced by every guest test case.  Environment from guest-init:
#   SNI_TOP (repo), SNI_KERNEL (vanilla|patched|...), SNI_TOPO, SNI_OUT.
# shellcheck source=/dev/null
. "$SNI_TOP/test/harness/topo/$SNI_TOPO"

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
info() { echo "$*"; }

# The series under test adds scsi_host_alloc_node(): its presence, read from
# the running kernel, decides whether placement is judged or only reported.
kernel_is_numa_aware() { grep -qw scsi_host_alloc_node /proc/kallsyms; }
judge_mode() { if kernel_is_numa_aware; then echo numa; else echo vanilla; fi; }

# SCSI host numbers whose proc_name is $1.
hosts_named() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = "$1" ] && echo "${h##*/host}"
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
	[ -r /sys/kernel/debug/scsi_numa_inspect ] ||
		insmod "$SNI_TOP/build/kernels/$SNI_KERNEL/scsi_numa_inspect.ko" ||
		fail "cannot load the placement inspector"
	cat /sys/kernel/debug/scsi_numa_inspect > "$1" || fail "cannot read the inspector"
}

# Kinds every disk-bearing host behind the bridge must show: a report that
# lacks one did not measure what it claims to.
REQUIRED_KINDS=shost,hostdata,tags,rq_page,sense,starget,sdev,budget_map,request_queue,hctx,scsi_disk,gendisk

placement_check() {	# $1 records, $2 context, $3 hosts (comma), $4 kinds off-node on vanilla
	local mode
	mode=$(judge_mode)
	echo "kernel $SNI_KERNEL ($(uname -r)): $( [ "$mode" = numa ] &&
		echo 'has scsi_host_alloc_node: judged as NUMA-aware' ||
		echo 'no scsi_host_alloc_node: vanilla behaviour, placement reported')"
	python3 "$SNI_TOP/test/lib/placement.py" "$1" --hosts "$3" --node "$TOPO_DEV_NODE" \
		--context "$2" --judge "$mode" --off-node-on-vanilla "$4" \
		--require "$REQUIRED_KINDS" --tsv "$SNI_OUT/placement.tsv" \
		--kernel "$SNI_KERNEL" --topo "$SNI_TOPO"
}
