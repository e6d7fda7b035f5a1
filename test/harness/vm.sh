#!/bin/bash
# vm.sh KERNEL TOPOLOGY [CASE-PATTERN]: boot build/kernels/KERNEL in QEMU with
# the named topology (test/harness/topo/), run the guest test cases, power off.
#
# The guest's root is the host's / over 9p, read-only; results come back on
# a second, writable 9p share (build/runs/KERNEL-TOPOLOGY/out), separate from
# the console (build/runs/KERNEL-TOPOLOGY/console.log).  Prints the guest's
# TAP; exits with the guest's status, or 124 when the host-side timeout hit.
# VM_RUN names the run directory (default KERNEL-TOPOLOGY); VM_CMDLINE adds
# kernel parameters (sni.mode=compare selects the fio comparison instead of
# the test cases, see compare.sh).
set -uo pipefail
kernel=$1 topo=${2:-two-node} cases=${3:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=$top/build/kernels/$kernel
run=$top/build/runs/${VM_RUN:-$kernel-$topo}
timeout_s=${VM_TIMEOUT:-900}
topofile=$top/test/harness/topo/$topo
die() { echo "vm: $*" >&2; exit 2; }

[ -f "$kdir/bzImage" ] || die "no kernel $kdir/bzImage: make kernels"
[ -f "$topofile" ] || die "no topology '$topo' (have: $(ls "$top/test/harness/topo" | tr '\n' ' '))"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: apt-get install qemu-system-x86"
# shellcheck source=/dev/null
. "$topofile"

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
[ "$(cat "$probe")" = yes ] && accel=kvm

rm -rf "$run"
mkdir -p "$run/out" "$run/disks"
args=(-accel "$accel" -machine pc -nographic -no-reboot -nodefaults
      -serial "file:$run/console.log")
ncpu=0 sockets=0 mem=0
for ((n = 0; n < TOPO_NODES; n++)); do
	mb=${TOPO_NODE_MEM_MB[n]} cpus=${TOPO_NODE_CPUS[n]}
	mem=$((mem + mb))
	args+=(-object "memory-backend-ram,id=m$n,size=${mb}M")
	if [ -n "$cpus" ]; then
		args+=(-numa "node,nodeid=$n,memdev=m$n,cpus=$cpus")
		lo=${cpus%-*} hi=${cpus#*-}
		ncpu=$((ncpu + hi - lo + 1)) sockets=$((sockets + 1))
	else
		args+=(-numa "node,nodeid=$n,memdev=m$n")
	fi
done
args+=(-m "${mem}M" -smp "$ncpu,sockets=$sockets,cores=$((ncpu / sockets)),threads=1")

# Root and result shares.
# multidevs=remap: the host's / spans several filesystems; without it their
# inode numbers collide in the guest (mounting /sys then hides /proc).
args+=(-fsdev "local,id=fsroot,path=/,security_model=none,readonly=on,multidevs=remap"
       -device "virtio-9p-pci,fsdev=fsroot,mount_tag=/dev/root"
       -fsdev "local,id=fsout,path=$run/out,security_model=none"
       -device "virtio-9p-pci,fsdev=fsout,mount_tag=sniout")

# The HBAs, all behind one expander bridge on TOPO_DEV_NODE.
args+=(-device "pxb,id=pxb0,bus_nr=64,numa_node=$TOPO_DEV_NODE")
disk() { truncate -s 256M "$run/disks/$1.img"
	 args+=(-drive "if=none,id=$1,format=raw,cache=unsafe,file=$run/disks/$1.img"); }
disk d0; args+=(-device "megasas-gen2,id=hba0,bus=pxb0" -device "scsi-hd,drive=d0,bus=hba0.0,serial=mega0")
disk d1; args+=(-device "ich9-ahci,id=hba1,bus=pxb0" -device "ide-hd,drive=d1,bus=hba1.0,serial=ahci0")
disk d2; args+=(-device "virtio-scsi-pci,id=hba2,bus=pxb0" -device "scsi-hd,drive=d2,bus=hba2.0,serial=vscsi0")

cmdline="console=ttyS0 panic=-1 root=/dev/root rootfstype=9p"
cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro"
cmdline+=" init=$top/test/harness/guest-init sni.top=$top sni.kernel=$kernel sni.topo=$topo"
[ -n "$cases" ] && cmdline+=" sni.cases=$cases"
cmdline+=" log_buf_len=8M ${VM_CMDLINE:-}"

echo "# vm: $kernel/$topo: accel=$accel cpus=$ncpu mem=${mem}M, console: $run/console.log" >&2
start=$(date +%s)
timeout "$timeout_s" qemu-system-x86_64 "${args[@]}" -kernel "$kdir/bzImage" -append "$cmdline" \
	</dev/null >"$run/qemu.log" 2>&1
qrc=$?
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
exit "$(cat "$run/out/status")"
