#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vm.sh KERNEL TOPOLOGY [CASE-PATTERN]: boot build/kernels/KERNEL in QEMU with
# the topology TOPOLOGY (a name in harness/topo/, or a file's path), run
# the guest test cases, power off.  The only place a QEMU command line is built.
#
# The guest's root is the host's / over 9p, read-only; results come back on
# a second, writable 9p share (build/runs/KERNEL-TOPOLOGY/out), separate from
# the console (build/runs/KERNEL-TOPOLOGY/console.log).  Prints the guest's
# TAP; exits with the guest's status, else 124 when the host-side timeout
# hit, 3 when the guest left no status, 5 when a passed guest did not power
# off cleanly (its shutdown is judged: lib/kmsg.sh), 2 on a setup error.
# VM_RUN names the run directory (default KERNEL-TOPOLOGY); VM_CMDLINE adds
# kernel parameters (scsi_numa.mode=compare selects the fio comparison instead of
# the test cases, see compare.sh; scsi_numa.mode=run scsi_numa.run=PATH a program of the
# repository, see guest-init).  VM_RUN, VM_CMDLINE, VM_METER, VM_ICOUNT,
# VM_CHURN and VM_TSCALE are the callers' interface, not settings; the
# settings VM_ACCEL and VM_TIMEOUT come from lib/config.sh.
set -uo pipefail
kernel=$1 topo=${2:-two-node} cases=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
kdir=$top/build/kernels/$kernel
case $topo in
*/*) topofile=$(realpath -m "$topo") topo=${topo##*/} ;;
*) topofile=$top/harness/topo/$topo ;;
esac
run=$top/build/runs/${VM_RUN:-$kernel-$topo}
# A KASAN kernel under TCG needs hours for every case (harness/README, check-full).
timeout_s=$VM_TIMEOUT
grep -qx CONFIG_KASAN=y "$kdir/.config" 2>/dev/null && timeout_s=$((VM_TIMEOUT * 5))
die() { echo "vm: $*" >&2; exit 2; }

[ -f "$topofile" ] || die "no topology '$topofile' (have: $(ls "$top/harness/topo" | tr '\n' ' '))"
[ -f "$kdir/bzImage" ] || die "no kernel $kdir/bzImage: make kernels"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: apt-get install qemu-system-x86"
# shellcheck source=/dev/null
. "$topofile"
# shellcheck source=../lib/cpulist.sh
. "$top/lib/cpulist.sh"

# KVM only when a KVM guest really runs: /dev/kvm can exist and still hang.
accel=tcg
probe=$top/build/kvm-probe
if [ ! -f "$probe" ]; then
	res=no
	if [ -w /dev/kvm ]; then
		if timeout 30 qemu-system-x86_64 -accel kvm -m 256 -nographic -no-reboot \
			-kernel "$kdir/bzImage" -append "console=ttyS0 panic=-1" 2>/dev/null |
			grep -q "Kernel panic"; then res=yes; fi
	fi
	echo "$res" > "$probe"
fi
[ "$(cat "$probe")" = yes ] && [ "$VM_ACCEL" = auto ] && accel=kvm
# VM_METER=on|KIB:WAYS[:LINE]: load the remote-access meter (qemu-plugin/,
# TCG only; KIB:WAYS[:LINE]: its LLC model), counting into
# $run/out/meter.txt between the guest's markers; the guest may write
# $SCSI_NUMA_OUT/meter-objects (object ranges, see fio-jobs/run.sh
# --meter-objects) for the meter to attribute accesses.  Its -plugin
# value is built with the nodes below (arguments: scsi_numa_meter.c).
if [ -n "${VM_METER:-}" ]; then
	accel=tcg
	make -s -C "$top/qemu-plugin" >/dev/null || die "cannot build the meter (qemu-plugin/)"
fi

# VM_ICOUNT=<QEMU -icount argument>, e.g. shift=3 (0 or empty: off): the
# guest's clock counts the instructions it executes (2^shift ns each; real
# time only while every vCPU idles) instead of following the host's.  TCG
# only, one host thread for all vCPUs.  Used by compare.sh: wall-clock IOPS
# of a TCG guest varied by 5-14 % between runs here, icount IOPS by about
# 1 % (scsi_debug, virtio-scsi) to 4 % (megaraid_sas, AHCI) between guests.
icount=""
if [ -n "${VM_ICOUNT:-}" ] && [ "$VM_ICOUNT" != 0 ]; then
	[[ $VM_ICOUNT =~ ^shift=[0-9]+(,(align|sleep)=(on|off))*$ ]] ||
		die "VM_ICOUNT=$VM_ICOUNT: shift=N[,sleep=on|off][,align=on|off]"
	accel=tcg icount=$VM_ICOUNT
fi

rm -rf "$run"
mkdir -p "$run/out" "$run/disks"
args=(-accel "$accel" -machine "${TOPO_MACHINE:-pc}" -nographic -no-reboot -nodefaults
      -serial "file:$run/console.log")
# QEMU takes one cpus= per range.
cpus_opts() { local r o=""; for r in ${1//,/ }; do o+=",cpus=$r"; done; echo "$o"; }
ncpu=0 maxcpu=0 mem=0 legacy_mem=""
for ((n = 0; n < TOPO_NODES; n++)); do
	[ "${TOPO_NODE_MEM_MB[n]}" = 0 ] && legacy_mem=1
done
# The meter's node map: nodemb= in -numa order, layout= as below (memdev:
# the memory-backend-ram objects first, in node order, as scsi_numa_meter.c's
# address map requires), cpus= present and absent CPUs.
meter_mb="" meter_cpus=""
for ((n = 0; n < TOPO_NODES; n++)); do
	mb=${TOPO_NODE_MEM_MB[n]} cpus=${TOPO_NODE_CPUS[n]} absent=${TOPO_NODE_ABSENT_CPUS[n]:-}
	mem=$((mem + mb))
	ncpu=$((ncpu + $(cpulist_count "$cpus")))
	maxcpu=$((maxcpu + $(cpulist_count "$cpus") + $(cpulist_count "$absent")))
	all=$cpus${absent:+${cpus:+,}$absent}
	meter_mb+="${meter_mb:+;}$mb"
	for r in ${all//,/ }; do meter_cpus+="${meter_cpus:+;}$r:$n"; done
	if [ -n "$legacy_mem" ]; then
		# A node without memory exists only in the deprecated mem= form
		# (machine types <= 5.0), which cannot be mixed with memdev=.
		args+=(-numa "node,nodeid=$n,mem=${mb}M$(cpus_opts "$all")")
	else
		args+=(-object "memory-backend-ram,id=m$n,size=${mb}M")
		args+=(-numa "node,nodeid=$n,memdev=m$n$(cpus_opts "$all")")
	fi
done
for d in "${TOPO_DISTANCES[@]}"; do
	IFS=: read -r src dst val <<< "$d"
	args+=(-numa "dist,src=$src,dst=$dst,val=$val" -numa "dist,src=$dst,dst=$src,val=$val")
done
# One socket per CPU: a socket never spans nodes (topology_sane()).
args+=(-m "${mem}M" -smp "$ncpu,maxcpus=$maxcpu,sockets=$maxcpu,cores=1,threads=1")
args+=("${TOPO_QEMU_ARGS[@]}")
if [ -n "${VM_METER:-}" ]; then
	meter="$top/build/qemu-plugin/libscsi_numa_meter.so,nodemb=$meter_mb,layout=${legacy_mem:+legacy}"
	[ -n "$legacy_mem" ] || meter+=memdev
	meter+=",out=$run/out/meter.txt${meter_cpus:+,cpus=$meter_cpus}"
	llc=${VM_METER#on}
	meter+="${llc:+,llc=$llc},objects=$run/out/meter-objects"
	args+=(-plugin "$meter")
fi
[ -n "$icount" ] && args+=(-icount "$icount")

# Root and result shares.
# multidevs=remap: the host's / spans several filesystems; without it their
# inode numbers collide in the guest (mounting /sys then hides /proc).
args+=(-fsdev "local,id=fsroot,path=/,security_model=none,readonly=on,multidevs=remap"
       -device "virtio-9p-pci,fsdev=fsroot,mount_tag=/dev/root"
       -fsdev "local,id=fsout,path=$run/out,security_model=none"
       -device "virtio-9p-pci,fsdev=fsout,mount_tag=scsi_numa_out")

# The HBAs of TOPO_HBAS (driver names), each with one disk, all behind one
# expander bridge on TOPO_DEV_NODE (on a one-node machine: the root bus).
# No HBAs (qemu-plugin/kat/kat-2x2): no bridge.
bus=""
if [ "$TOPO_NODES" -gt 1 ] && [ -n "${TOPO_HBAS:-}" ]; then
	args+=(-device "pxb,id=pxb0,bus_nr=64,numa_node=$TOPO_DEV_NODE")
	bus=",bus=pxb0"
fi
i=0
for drv in ${TOPO_HBAS:-}; do
	truncate -s 256M "$run/disks/d$i.img"
	args+=(-drive "if=none,id=d$i,format=raw,cache=unsafe,file=$run/disks/d$i.img")
	case $drv in
	megaraid_sas) args+=(-device "megasas-gen2,id=hba$i$bus" -device "scsi-hd,drive=d$i,bus=hba$i.0,serial=mega$i") ;;
	ahci) args+=(-device "ich9-ahci,id=hba$i$bus" -device "ide-hd,drive=d$i,bus=hba$i.0,serial=ahci$i") ;;
	virtio_scsi) args+=(-device "virtio-scsi-pci,id=hba$i$bus${TOPO_VIRTIO_QUEUES:+,num_queues=$TOPO_VIRTIO_QUEUES}"
			    -device "scsi-hd,drive=d$i,bus=hba$i.0,serial=vscsi$i") ;;
	*) die "topology $topo: no QEMU model for HBA driver '$drv'" ;;
	esac
	i=$((i + 1))
done

# A topology with hot-pluggable CPUs gets the host agent
# (harness/vm-agent.py): a case plugs a CPU through QEMU's monitor by a
# request in out/agent/ (case 43).
agent=""
for ((n = 0; n < TOPO_NODES; n++)); do [ -n "${TOPO_NODE_ABSENT_CPUS[n]:-}" ] && agent=1; done
# The socket in /tmp: a Unix socket's path has at most 107 bytes.
if [ -n "$agent" ]; then
	mkdir -p "$run/out/agent"
	qsock=$(mktemp -u /tmp/scsi_numa_qmp.XXXXXX)
	args+=(-qmp "unix:$qsock,server=on,wait=off")
fi

cmdline="console=ttyS0 panic=-1 root=/dev/root rootfstype=9p"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro"
# What the host expects of this kernel (vanilla or patched, from its name);
# the guest fails a kernel that does not match instead of judging it by
# what it finds.
# shellcheck source=lib/expect.sh
. "$top/harness/lib/expect.sh"
expect=$(expect_of "$kernel")
case $top$topofile in *[[:space:]]*) die "the path '$top' or '$topofile' contains spaces: the kernel command line cannot carry it" ;; esac
cmdline+=" init=$top/harness/guest-init scsi_numa.top=$top scsi_numa.kernel=$kernel scsi_numa.topo=$topo scsi_numa.expect=$expect"
# A topology outside harness/topo/: its file, for the guest.
[ "$topofile" = "$top/harness/topo/$topo" ] || cmdline+=" scsi_numa.topofile=$topofile"
[ -n "$cases" ] && cmdline+=" scsi_numa.cases=$cases"
# case_boot CASES: the kernel parameters the cases CASES (run-cases' -p;
# empty: all) ask for in their header ("# boot: PARAM.."), once each.  SLUB's
# allocation tracking (slub_debug=U, cases 11 and 12) costs every
# allocation a stack trace (a two-node boot ~40 s longer under TCG): only a
# run with a case that reads it boots with it.  make host-check boots as a
# server does; a guest that runs no case (scsi_numa.mode=compare|run)
# gets none.
case_boot() {
	local c g m pats
	IFS=, read -ra pats <<< "${1:-*}"
	for c in "$top"/test/cases/*; do
		[ -f "$c" ] || continue
		m=""
		# shellcheck disable=SC2053 # the globs are run-cases' patterns
		for g in "${pats[@]}"; do [[ ${c##*/} == $g ]] && m=1; done
		[ -z "$m" ] || sed -n '1,40s/^# boot: *//p' "$c"
	done | tr ' ' '\n' | awk 'NF && !s[$0]++' | paste -sd' ' -
}
# A run of cases also gets scan waits that measure nothing cut short: the
# scan of QEMU's megasas ends one scsi_mod.inq_timeout after its disk is
# found (default 20 s; seen in dmesg, also with 3 and 5); virtio-scsi's
# scan of 255 absent targets freezes the disk's queue twice per target, an
# RCU grace period each, shorter when the first forcing of quiescent
# states comes at once (rcutree.jiffies_till_first_fqs=0; 1 jiffy at HZ=100
# by default).  Neither changes where anything is allocated.
fast_scan="scsi_mod.inq_timeout=5 rcutree.jiffies_till_first_fqs=0"
tcmd=${TOPO_CMDLINE:-}
[ "$cases" = host-check ] || [[ " ${VM_CMDLINE:-} " =~ \ scsi_numa\.mode=(compare|run)\  ]] ||
	tcmd+=" $(case_boot "$cases") $fast_scan"
# A debug kernel (SLUB_DEBUG_ON: red zones, poisoning, sanity checks, user
# tracking) keeps all of it: slub_debug=U would switch the rest off.
grep -qx CONFIG_SLUB_DEBUG_ON=y "$kdir/.config" 2>/dev/null && tcmd=${tcmd//slub_debug=U/slub_debug=FZPU}
# kmemleak cannot see a leaked object whose address SLUB still holds in a
# per-CPU sheaf (7.x: a kmalloc'd array, scanned, that keeps the address
# after handing the object out); a cache with a debug flag has none (case
# 05's control: never reported from a sheaf, at the second scan without).
# A kmemleak kernel without SLUB_DEBUG_ON (the leak kernel) boots with
# slub_debug=U: no sheaves in any cache.
if grep -qx CONFIG_DEBUG_KMEMLEAK=y "$kdir/.config" 2>/dev/null &&
   ! grep -qx CONFIG_SLUB_DEBUG_ON=y "$kdir/.config" && [[ " $tcmd " != *" slub_debug=U "* ]]; then
	tcmd+=" slub_debug=U"
fi
# Case timeouts scale on a KASAN kernel (several times slower under TCG).
grep -qx CONFIG_KASAN=y "$kdir/.config" 2>/dev/null && tcmd+=" scsi_numa.tscale=${VM_TSCALE:-4}"
# The guest's own budget: its cases stop (and say which) before the host's
# timeout kills the VM.
cmdline+=" $tcmd scsi_numa.budget=$((timeout_s - 60))${VM_CHURN:+ scsi_numa.churn=$VM_CHURN} log_buf_len=8M ${VM_CMDLINE:-}"

echo "# vm: $kernel/$topo: accel=$accel${icount:+ icount=$icount} cpus=$ncpu/$maxcpu mem=${mem}M expect=$expect, console: $run/console.log" >&2
start=$(date +%s)
apid=""
if [ -n "$agent" ]; then
	python3 "$top/harness/vm-agent.py" "$qsock" "$run/out/agent" 2>"$run/agent.log" &
	apid=$!
fi
timeout "$timeout_s" qemu-system-x86_64 "${args[@]}" -kernel "$kdir/bzImage" -append "$cmdline" \
	</dev/null >"$run/qemu.log" 2>&1
qrc=$?
[ -z "$apid" ] || { kill "$apid" 2>/dev/null; wait "$apid" 2>/dev/null; rm -f "$qsock"; }
echo "# vm: $kernel/$topo: QEMU exited ($qrc) after $(( $(date +%s) - start ))s" >&2
rm -rf "$run/disks"
[ -f "$run/out/tap" ] && cat "$run/out/tap"
if [ "$qrc" = 124 ]; then
	echo "# vm: TIMEOUT after ${timeout_s}s; console tail:" >&2
	tail -n 40 "$run/console.log" | sed 's/^/#   /' >&2
	exit 124
fi
if [ ! -f "$run/out/status" ]; then
	echo "# vm: the guest left no status (QEMU rc $qrc); qemu.log and console tail:" >&2
	sed 's/^/#   /' "$run/qemu.log" >&2
	tail -n 40 "$run/console.log" | sed 's/^/#   /' >&2
	exit 3
fi
# The shutdown, judged like the rest: from guest-init's power-off marker to
# "reboot: Power down" on the console (sd's cache sync and stop, host
# removal: paths the series touches).  A guest that passed but did not
# power off cleanly fails (exit 5).
# shellcheck source=../lib/kmsg.sh
. "$top/lib/kmsg.sh"
if ! pw=$(kmsg_judge_poweroff "$run/console.log"); then
	echo "# vm: $kernel/$topo: the shutdown failed (console.log):" >&2
	echo "$pw" | sed 's/^/#   /' >&2
	st=$(cat "$run/out/status")
	[ "$st" = 0 ] && exit 5
	exit "$st"
fi
exit "$(cat "$run/out/status")"
