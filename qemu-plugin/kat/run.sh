#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kat/run.sh [--no-baseline] [KERNEL]: known-answer test of the scsi_numa_meter plugin.
#
# Boots build/kernels/KERNEL (default vanilla; its bzImage waited for up to
# 20 minutes when absent) with harness/vm.sh under QEMU TCG, topology
# kat/kat-2x2 (2 nodes x (2 vCPUs, 512 MiB), no HBAs), in guest-init's mode
# scsi_numa.mode=run scsi_numa.run=qemu-plugin/kat/guest-run, which runs kat/kat.c
# pinned to CPU 0 (node 0): window 1 = N loads from a node-1
# buffer, window 2 = N loads from a node-0 buffer, window 3 = N stores to
# the node-1 buffer, window 4 = N loads from the node-1 buffer by CPU 0 and
# N/2 loads from the node-0 buffer by a thread on CPU 2 (node 1).  The
# plugin (VM_METER=1024:16:64: a 1 MiB/16-way/64 B LLC per node) writes
# build/runs/kat-meter/out/meter.txt; this script checks the user-mode
# counts against the known answers:
#   w1 0->1 reads = N, w2 0->0 reads = N, w3 0->1 writes = N,
#   w1 0->1 remote_misses = w3 0->1 remote_misses = w2 0->0 llc_misses = N*8/64
#   (the 8N-byte sweeps stream through a cache 8x smaller), and, in each
#   window, the other user-mode pair/direction of cpu_node 0 <= tolerance;
#   w4 per vCPU: vcpu 0 0->1 reads = N, vcpu 2 1->0 reads = N/2, vcpus 1
#   and 3 <= tolerance, and fio-jobs/meter_metrics.py's split with fio's
#   CPUs = 0-1 (node 0) puts N on the submit side, N/2 on the other;
#   window 5 (guest-run: scsi_numa_meter_mark start; dump; stop) exists,
# tolerance = N/1000 + 64.  Then it boots the same guest without the plugin
# (build/runs/kat-baseline) for the baseline time and prints the slowdown
# (times: vm.sh's whole run).  Exit 0 when every check passes, 1 when one
# fails, 2 on a setup error.  The guest needs the kernel's modules in
# build/kernels/KERNEL/lib/modules (guest-init refuses to run without).
# --no-baseline skips the run without the plugin (check.sh, compare.sh).
# N = 1000000; 600 s per boot.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
baseline=1
[ "${1:-}" = --no-baseline ] && { baseline=""; shift; }
case ${1:-} in -*) echo "kat: unknown option '$1' (--no-baseline)" >&2; exit 2 ;; esac
kernel=${1:-vanilla}
n=1000000
tmo=600
runs=$top/build/runs
run=$runs/kat-meter/out
die() { echo "kat: $*" >&2; exit 2; }

i=0
while [ ! -f "$top/build/kernels/$kernel/bzImage" ] && [ "$i" -lt 20 ]; do
	echo "kat: waiting for build/kernels/$kernel/bzImage ($i/20 min)" >&2
	sleep 60
	i=$((i + 1))
done
[ -f "$top/build/kernels/$kernel/bzImage" ] || die "no kernel build/kernels/$kernel/bzImage"
# One KAT at a time (make check and make compare may run side by side):
# its run directories and the plugin's build are shared.
mkdir -p "$runs"
exec 9> "$top/build/.kat.lock"
flock 9 || die "cannot lock build/.kat.lock"
nice -n 10 make -s -C "$top/qemu-plugin" all || die "build failed"

boot() { # NAME [VAR=VALUE..]: boot the KAT guest with vm.sh (TCG, the
	# environment's other VM_* settings dropped), print the seconds taken
	local name=$1 t0 t1 rc
	shift
	rm -rf "$runs/kat-$name"
	t0=$(date +%s.%N)
	env -u VM_METER -u VM_ICOUNT -u VM_CHURN -u VM_TSCALE "$@" \
		VM_RUN="kat-$name" VM_TIMEOUT="$tmo" VM_ACCEL=tcg \
		VM_CMDLINE="scsi_numa.mode=run scsi_numa.run=qemu-plugin/kat/guest-run scsi_numa_meter_kat.n=$n" \
		"$top/harness/vm.sh" "$kernel" "$top/qemu-plugin/kat/kat-2x2" >/dev/null
	rc=$?
	t1=$(date +%s.%N)
	[ "$rc" = 0 ] || echo "kat: $name: vm.sh exit $rc (console: $runs/kat-$name/console.log)" >&2
	echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }'
}

echo "kat: booting with the plugin (N=$n)" >&2
tp=$(boot meter VM_METER=1024:16:64)
grep '^kat' "$run/tap" 2>/dev/null | sed 's/^/  guest: /' >&2
grep -q '^kat-guest: kat exit status 0' "$run/tap" 2>/dev/null ||
	die "the guest program failed (see $run/tap, $run/runner.err)"
[ -s "$run/meter.txt" ] || die "no plugin output $run/meter.txt"

# vget WINDOW VCPU CPU_NODE MEM_NODE MODE FIELD: a per-vCPU record's field
vget() {
	awk -v w="$1" -v v="$2" -v a="$3" -v b="$4" -v m="$5" -v f="$6" '
		$1 == "window" && $2 == w && $3 == "vcpu" && $4 == v && $6 == a && $8 == b && $10 == m {
			for (i = 11; i < NF; i += 2) if ($i == f) x = $(i + 1) }
		END { print x + 0 }' "$run/meter.txt"
}
# vsum WINDOW VCPU MODE: reads + writes of every record of a vCPU
vsum() {
	awk -v w="$1" -v v="$2" -v m="$3" '
		$1 == "window" && $2 == w && $3 == "vcpu" && $4 == v && $10 == m { x += $12 + $14 }
		END { print x + 0 }' "$run/meter.txt"
}
# get WINDOW CPU_NODE MEM_NODE MODE FIELD
get() {
	awk -v w="$1" -v a="$2" -v b="$3" -v m="$4" -v f="$5" '
		$1 == "window" && $2 == w && $3 == "cpu_node" && $4 == a && $6 == b && $8 == m {
			for (i = 9; i < NF; i += 2) if ($i == f) v = $(i + 1) }
		END { print v + 0 }' "$run/meter.txt"
}
tol=$((n / 1000 + 64))
lines=$(((n * 8 + 63) / 64))
fail=0
check() { # WHAT EXPECTED GOT ["max"]: |got-expected| <= tol, or got <= tol
	local what=$1 exp=$2 got=$3 d
	if [ "${4:-}" = max ]; then
		d=$got
		[ "$got" -le "$tol" ] && r=ok || { r=FAIL; fail=1; }
		printf 'kat: %-4s %-48s expected <= %d, got %d\n' "$r" "$what" "$tol" "$got"
		return
	fi
	d=$((got - exp)); d=${d#-}
	[ "$d" -le "$tol" ] && r=ok || { r=FAIL; fail=1; }
	printf 'kat: %-4s %-48s expected %d +- %d, got %d (diff %d)\n' "$r" "$what" "$exp" "$tol" "$got" "$d"
}
check "w1 user cpu0->mem1 reads" "$n" "$(get 1 0 1 user reads)"
check "w1 user cpu0->mem1 writes" 0 "$(get 1 0 1 user writes)" max
check "w1 user cpu0->mem0 reads+writes" 0 $(($(get 1 0 0 user reads) + $(get 1 0 0 user writes))) max
check "w1 user cpu0->mem1 remote_misses" "$lines" "$(get 1 0 1 user remote_misses)"
check "w2 user cpu0->mem0 reads" "$n" "$(get 2 0 0 user reads)"
check "w2 user cpu0->mem0 writes" 0 "$(get 2 0 0 user writes)" max
check "w2 user cpu0->mem1 reads+writes" 0 $(($(get 2 0 1 user reads) + $(get 2 0 1 user writes))) max
check "w2 user cpu0->mem0 llc_misses (local)" "$lines" "$(get 2 0 0 user llc_misses)"
check "w2 user cpu0->mem0 remote_misses" 0 "$(get 2 0 0 user remote_misses)" max
check "w3 user cpu0->mem1 writes" "$n" "$(get 3 0 1 user writes)"
check "w3 user cpu0->mem1 reads" 0 "$(get 3 0 1 user reads)" max
check "w3 user cpu0->mem0 reads+writes" 0 $(($(get 3 0 0 user reads) + $(get 3 0 0 user writes))) max
check "w3 user cpu0->mem1 remote_misses" "$lines" "$(get 3 0 1 user remote_misses)"
half=$((n / 2))
check "w4 vcpu 0 user 0->1 reads" "$n" "$(vget 4 0 0 1 user reads)"
check "w4 vcpu 2 user 1->0 reads (not the marker)" "$half" "$(vget 4 2 1 0 user reads)"
check "w4 vcpu 2 user 1->1 reads+writes" 0 $(($(vget 4 2 1 1 user reads) + $(vget 4 2 1 1 user writes))) max
check "w4 vcpu 1 user reads+writes" 0 "$(vsum 4 1 user)" max
check "w4 vcpu 3 user reads+writes" 0 "$(vsum 4 3 user)" max
check "w4 user cpu_node 1->0 reads (node record)" "$half" "$(get 4 1 0 user reads)"
# The report's split (what the comparison tables use), fio on CPUs 0-1.
# The report's own split code (fio-jobs/meter_metrics.py) through split.py;
# a failure of it is printed and fails the checks below.
split=$(PYTHONPATH="$top/fio-jobs" python3 "$top/qemu-plugin/kat/split.py" "$run/meter.txt" 4 0-1 0 user) ||
	{ echo "kat: FAIL the report's split could not be computed (qemu-plugin/kat/split.py)"; split="0 0"; fail=1; }
check "w4 report split: submit CPUs 0-1, remote" "$n" "${split% *}"
check "w4 report split: other CPUs, remote" "$half" "${split#* }"
w5=$(awk '$1 == "window" && $2 == 5 && $3 == "summary" { print $5 + $7 }' "$run/meter.txt")
if grep -q '^kat-guest: scsi_numa_meter_mark ok' "$run/tap" && [ "${w5:-0}" -gt 0 ] &&
	grep -q '^# dump' "$run/meter.txt"; then
	echo "kat: ok   w5 scsi_numa_meter_mark start/dump/stop from the guest shell: $w5 accesses"
else
	echo "kat: FAIL w5 scsi_numa_meter_mark start/dump/stop from the guest shell: no window 5 or dump"
	fail=1
fi
echo "kat: window summaries:"
grep -E '^window [0-9a-z]+ summary' "$run/meter.txt" | sed 's/^/  /'

echo "kat: boot with the plugin: ${tp}s"
if [ -n "$baseline" ]; then
	echo "kat: booting without the plugin (baseline)" >&2
	tb=$(boot baseline)
	grep -q '^kat-guest: kat exit status 0' "$runs/kat-baseline/out/tap" 2>/dev/null ||
		echo "kat: warning: the baseline guest program failed (see $runs/kat-baseline/out/tap)"
	echo "kat: boot without the plugin: ${tb}s, slowdown x$(echo "$tp $tb" | awk '{ printf "%.2f", $1 / $2 }')"
fi
if [ "$fail" = 0 ]; then
	echo "kat: PASS (N=$n, tolerance $tol)"
else
	echo "kat: FAIL (see $run/meter.txt)"
fi
exit "$fail"
