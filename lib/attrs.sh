# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# attrs_agree RECORDS: the series' node attributes against the placement
# inspector's report RECORDS, object for object where both see it:
#   - each host line's shost_node (dev_to_node() of shost_gendev) against
#     /sys/class/scsi_host/hostN/numa_node: always equal;
#   - each hctx object's page node against its debugfs
#     block/<disk>/hctxN/numa_node (hctx->numa_node, the node it was
#     allocated for), where that node has memory per the topology.
#     Skipped, and counted: a node without memory (the allocation fell
#     back elsewhere), -1 (allocated without a node), a device without a
#     disk (no debugfs directory).
# Without an inspector (host-check's reduced mode, SCSI_NUMA_INSPECTOR=attributes)
# there is nothing to compare: said so.  On a kernel without them: "absent (vanilla)", or a failure when the host
# expects the series.  Needs common.sh (topology, judge_mode).  Returns 1
# on any disagreement.
attrs_agree() {
	local rec=$1 rc=0 hosts=0 hctxs=0 skipped="" h dev node sys id q attr disk
	local -a f blk
	if [ "${SCSI_NUMA_INSPECTOR:-}" = attributes ]; then
		echo "attributes vs inspector: not compared (no inspector: the report was read from the attributes)"
		return 0
	fi
	if ! ls /sys/class/scsi_host/host*/numa_node >/dev/null 2>&1; then
		[ "$(judge_mode)" = patched ] &&
			{ echo "FAIL: attributes: /sys/class/scsi_host/hostN/numa_node absent, and the host expects the series"; return 1; }
		echo "attributes: absent (vanilla)"
		return 0
	fi
	while read -r -a f; do
		case ${f[0]} in
		host)	# host <hostno> <proc_name> <dev> <dev_node> <shost_node> <set_node>
			h=${f[1]} node=${f[5]}
			sys=""
			read -r sys < "/sys/class/scsi_host/host$h/numa_node"
			if [ "$sys" != "$node" ]; then
				echo "FAIL: host$h (${f[2]}): sysfs numa_node '$sys', inspector shost_node $node"; rc=1
			fi
			hosts=$((hosts + 1)) ;;
		obj)	# obj <hostno> hctx <C:T:L>/hctx<n> <node> <mem>
			[ "${f[2]}" = hctx ] || continue
			h=${f[1]} id=${f[3]} node=${f[4]}
			dev=$h:${id%%/*} q=${id#*/}
			blk=(/sys/class/scsi_device/"$dev"/device/block/*)
			disk=${blk[0]##*/}
			if [ "$disk" = "*" ]; then
				skipped+=" $dev/$q(no disk)"; continue
			fi
			attr=/sys/kernel/debug/block/$disk/$q/numa_node
			sys=""
			[ -r "$attr" ] && read -r sys < "$attr"
			if [ -z "$sys" ]; then
				echo "FAIL: $dev ($disk) $q: no $attr"; rc=1
			elif [ "$sys" = -1 ]; then
				skipped+=" $dev/$q(-1)"
			elif [ "${TOPO_NODE_MEM_MB[sys]:-0}" = 0 ]; then
				skipped+=" $dev/$q(node $sys: no memory)"
			elif [ "$sys" != "$node" ]; then
				echo "FAIL: $dev ($disk) $q: debugfs numa_node $sys, inspector page node $node"; rc=1
			else
				hctxs=$((hctxs + 1))
			fi ;;
		esac
	done < <(grep -E '^(host |obj [0-9]+ hctx )' "$rec")
	echo "attributes vs inspector: $hosts hosts (sysfs numa_node = shost_node), $hctxs hctx" \
		"(debugfs numa_node = page node)$( [ "$rc" = 0 ] && echo ', all agree'); skipped:${skipped:- none}"
	return $rc
}
