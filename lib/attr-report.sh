#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# attr-report.sh: a placement report in the inspector's record format
# (include/scsi_numa_inspect.h, version 1) read from the kernel's own
# numa_node attributes instead of the inspector, for a machine where the
# inspector cannot be built (harness/host-check.sh):
#   /sys/class/scsi_host/hostN/numa_node              -> obj N shost host NODE attr
#   /sys/kernel/debug/block/<disk>/hctx<Q>/numa_node  -> obj N hctx C:T:L/hctxQ NODE attr
# The host line's device node is the nearest ancestor's numa_node, as case
# 01 reads it; its set_node is -1 (no attribute shows the tag set's node).
# These are the nodes the kernel asked for, not the pages' nodes the
# inspector reads, and cover two kinds (shost, hctx) of the inspector's
# fourteen (SCSI_NUMA_KINDS, include/scsi_numa_inspect.h).
# Exit 1, the reason on the last line, when the kernel has no such
# attribute.
set -u
dbg=/sys/kernel/debug/block
echo "# scsi_numa_inspect 1"
echo "# from the numa_node attributes (kinds shost, hctx; mem field 'attr')"
for h in /sys/class/scsi_host/host*; do
	[ -e "$h" ] || continue
	n=${h##*/host}
	if [ ! -r "$h/numa_node" ]; then
		echo "no $h/numa_node: this kernel lacks the SCSI host numa_node attribute, and without the inspector placement cannot be read"
		exit 1
	fi
	dev=$(readlink -f "$h/device/..")
	anc=$dev
	while [ -n "$anc" ] && [ ! -f "$anc/numa_node" ]; do anc=${anc%/*}; done
	devnode=-1
	[ -f "$anc/numa_node" ] && devnode=$(cat "$anc/numa_node")
	echo "host $n $(cat "$h/proc_name") ${dev##*/} $devnode $(cat "$h/numa_node") -1"
	echo "obj $n shost host $(cat "$h/numa_node") attr"
	for d in /sys/class/scsi_device/"$n":*; do
		[ -e "$d" ] || continue
		hctl=${d##*/}
		disk=$(ls "$d/device/block" 2>/dev/null | head -n 1)
		[ -n "$disk" ] || continue
		q=""
		for q in "$dbg/$disk"/hctx*; do
			[ -e "$q" ] || continue
			if [ ! -r "$q/numa_node" ]; then
				echo "no $q/numa_node: this kernel lacks blk-mq's hctx numa_node in debugfs, and without the inspector placement cannot be read"
				exit 1
			fi
			echo "obj $n hctx ${hctl#*:}/${q##*/} $(cat "$q/numa_node") attr"
		done
		if [ -z "$q" ] || [ ! -e "$q" ]; then
			echo "no $dbg/$disk/hctx*: is debugfs mounted at /sys/kernel/debug?"
			exit 1
		fi
	done
done
