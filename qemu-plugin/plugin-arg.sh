#!/bin/bash
# plugin-arg.sh TOPOFILE OUT [LLC [OBJECTS]]: print the value of the QEMU -plugin
# option that loads snimeter for a test/harness/topo/ topology booted the
# way test/harness/vm.sh boots it:
#   qemu-system-x86_64 ... -plugin "$(qemu-plugin/plugin-arg.sh topo/two-node /path/meter.txt 1024:16:64)"
# nodemb= is the nodes' memory in -numa order; layout=legacy when a node has
# no memory (vm.sh then uses -numa node,mem= for all nodes), else memdev
# (vm.sh's -object memory-backend-ram come first, in node order: required by
# the address map, see snimeter.c).  cpus= covers present and absent CPUs.
# LLC (optional) is KIB:WAYS[:LINE]; OBJECTS (optional) the file of object
# ranges the guest writes before each window (objects= in snimeter.c).  The plugin is build/qemu-plugin/libsnimeter.so.
set -euo pipefail
topofile=$1 out=$2 llc=${3:-} objects=${4:-}
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=/dev/null
. "$topofile"
layout=memdev mb="" cpus=""
for ((n = 0; n < TOPO_NODES; n++)); do
	m=${TOPO_NODE_MEM_MB[n]}
	[ "$m" = 0 ] && layout=legacy
	mb+="${mb:+;}$m"
	all=${TOPO_NODE_CPUS[n]}
	absent=${TOPO_NODE_ABSENT_CPUS[n]:-}
	all+=${absent:+${all:+,}$absent}
	for r in ${all//,/ }; do cpus+="${cpus:+;}$r:$n"; done
done
arg="$top/build/qemu-plugin/libsnimeter.so,nodemb=$mb,layout=$layout,out=$out"
[ -n "$cpus" ] && arg+=",cpus=$cpus"
[ -n "$llc" ] && arg+=",llc=$llc"
[ -n "$objects" ] && arg+=",objects=$objects"
echo "$arg"
