#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# host-check-judge.sh RUN-DIR KERNEL EXPECT: judge, on the host, a guest run
# of make host-check (a CHECK_RUNS entry whose cases are "host-check";
# guest-init runs it as a user would, without the harness).  Its output
# (RUN-DIR/out/tap) must show:
#   - the kernel judged as EXPECT (patched|vanilla) by what it has;
#   - the coverage the host predicts: full (the inspector built in the
#     guest) when the kernel's build link (build/kbuild-wt/.obj) is its build
#     (System.map identical, the source tree's HEAD with its commit's
#     files: guest-init then gives the guest the link), else reduced (the
#     numa_node attributes);
#   - case 21 passed, or on a vanilla kernel with reduced coverage skipped
#     for want of the attributes;
#   - placement rows for sdebug-load, -add and -rescan, on a patched kernel
#     at 100.0 %;
#   - its summary line with 0 not ok and exit 0, and the cleanup: no
#     scsi_debug host left, the slab setting restored;
#   - no read or write on the guest's HBA disks, which it was not given.
# Prints "not ok - RUN: why" per finding; exit 1 if any.
set -u
run=$1 k=$2 e=$3
top=$(cd "$(dirname "$0")/.." && pwd)
tap=$run/out/tap n=${run##*/} rc=0
bad() { echo "not ok - $n (host-check): $*"; rc=1; }
[ -f "$tap" ] || { bad "no output (out/tap)"; exit 1; }
grep -q "^# kernel .*no expectation given (real machine): judged as $e by what the kernel has" "$tap" ||
	bad "not judged as $e by what the kernel has: $(grep -m1 '^# kernel ' "$tap")"
# guest-init's rule for the guest's build link: the same function.
# shellcheck source=../lib/lib-modules.sh
. "$top/lib/lib-modules.sh"
kb=$(readlink "$top/build/kernels/$k/lib/modules/$(cat "$top/build/kernels/$k/kernel.release")/build") cov=reduced
kernel_build_dir "$top/build/kernels/$k" >/dev/null && cov=full
grep -q "^# host-check: coverage: $cov" "$tap" ||
	bad "coverage should be $cov ($kb $( [ $cov = full ] && echo is || echo is not) $k's build): $(grep -m1 '^# host-check: \(coverage\|inspector\)' "$tap")"
r21=$(grep -E '^(not )?ok [0-9]+ 21-' "$tap")
if [ "$e" = vanilla ] && [ "$cov" = reduced ]; then
	echo "$r21" | grep -q '^ok .* # SKIP .*numa_node' || bad "case 21 should skip for want of the numa_node attributes: '$r21'"
else
	echo "$r21" | grep -qE '^ok [0-9]+ 21-[a-z-]+$' || bad "case 21 did not pass: '$r21'"
	for c in sdebug-load sdebug-add sdebug-rescan; do
		row=$(sed -n '/^placement by context/,/^placement by driver/p' "$tap" | grep -E "^  host-[^ ]+ host $c ")
		[ -n "$row" ] || { bad "no placement row for $c"; continue; }
		[ "$e" = patched ] && ! echo "$row" | grep -q ' 100.0% ' && bad "placement row off node: $row"
	done
fi
grep -qE '^host-check: [0-9]+ ok \([0-9]+ skipped\), 0 not ok; exit 0$' "$tap" ||
	bad "summary: $(grep -m1 '^host-check: ' "$tap" || echo none)"
grep -q '^# host-check: cleanup done: no scsi_debug host left' "$tap" || bad "cleanup: $(grep -m1 'cleanup done' "$tap" || echo 'no cleanup line')"
# The guest's kernel has /sys/kernel/slab (no SLUB_TINY): host-check must
# have set the ratio, and restored it.
grep -q '^# host-check: setting remote_node_defrag_ratio' "$tap" ||
	bad "no 'setting remote_node_defrag_ratio' line: the slab setting was not made"
grep -q '^# host-check: remote_node_defrag_ratio restored' "$tap" || bad "remote_node_defrag_ratio not restored"
# The guest's own HBA disks (guest-init: I/O counters before and after).
if [ -f "$run/out/hba-io.before" ]; then
	[ -s "$run/out/hba-io.before" ] || bad "no HBA disk in the guest to watch (out/hba-io.before empty)"
	cmp -s "$run/out/hba-io.before" "$run/out/hba-io.after" ||
		bad "a disk it was not given saw I/O (disk reads writes): before '$(tr '\n' ';' < "$run/out/hba-io.before")' after '$(tr '\n' ';' < "$run/out/hba-io.after" 2>/dev/null)'"
else
	bad "no out/hba-io.before: the HBA disks were not watched"
fi
exit $rc
