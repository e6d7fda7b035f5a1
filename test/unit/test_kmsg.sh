#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_kmsg.sh (make lint): the kernel-log judge of kmsg.sh can fail.  Every
# line of test_data/kmsg/bad-lines.txt, put alone into an otherwise clean
# log, must make kmsg_judge exit 1 and quote that line; the clean log must
# pass; a non-empty kmemleak report must fail and an empty one pass; the
# list must not be empty, and every pattern of KMSG_BAD must have a line;
# a missing kmemleak report fails; without kmemleak, kmemleak_scan
# writes "kmemleak absent", which passes, and case 05 (the kmemleak
# control) fails on a kernel built with kmemleak, skips on one without;
# fault injection's reports are left out inside the injection brackets
# only, a WARNING there is not, and their sites are read (injected.txt);
# a missing log fails, and so does a slice whose start marker has left the
# log (the ring buffer wrapped), naming the marker.
# Exit 1 with the lines that got through.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/kmsg.sh
. "$here/../../lib/kmsg.sh"
data=$here/test_data/kmsg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0

if ! out=$(kmsg_judge "$data/clean.txt"); then
	echo "FAIL: the clean log was judged bad:"; echo "$out"; bad=$((bad + 1))
fi
while IFS= read -r line; do
	case $line in ''|'#'*) continue ;; esac
	n=$((n + 1))
	{ head -n 3 "$data/clean.txt"; echo "[    3.000000] $line"; tail -n 3 "$data/clean.txt"; } > "$tmp/log"
	if out=$(kmsg_judge "$tmp/log"); then
		echo "FAIL: passed a log holding: $line"; bad=$((bad + 1))
	elif ! grep -qF -- "$line" <<< "$out"; then
		echo "FAIL: failed but did not quote: $line"; bad=$((bad + 1))
	fi
done < "$data/bad-lines.txt"

: > "$tmp/leaks"
kmsg_judge "$data/clean.txt" "$tmp/leaks" > /dev/null ||
	{ echo "FAIL: an empty kmemleak report was judged bad"; bad=$((bad + 1)); }
printf 'unreferenced object 0xffff888004b2e000 (size 64):\n  comm "insmod", pid 77, jiffies 4294893133\n' > "$tmp/leaks"
kmsg_judge "$data/clean.txt" "$tmp/leaks" > /dev/null &&
	{ echo "FAIL: a kmemleak report was judged clean"; bad=$((bad + 1)); }
kmsg_judge "$data/clean.txt" "$tmp/no-such-report" > /dev/null &&
	{ echo "FAIL: a missing kmemleak report was judged clean"; bad=$((bad + 1)); }
# Without kmemleak the result says so (never an empty file), and is no leak.
KMEMLEAK=$tmp/no-kmemleak kmemleak_scan "$tmp/leaks"
grep -qx "kmemleak absent ($tmp/no-kmemleak): leaks not checked" "$tmp/leaks" ||
	{ echo "FAIL: kmemleak_scan without kmemleak wrote '$(cat "$tmp/leaks")', not 'kmemleak absent (...)'"; bad=$((bad + 1)); }
kmsg_judge "$data/clean.txt" "$tmp/leaks" > /dev/null ||
	{ echo "FAIL: 'kmemleak absent' was judged a leak"; bad=$((bad + 1)); }
# Case 05, the kmemleak control, on the host with kmemleak absent: it
# fails on a kernel built with kmemleak (the debug kernel), skips on one
# built without.
mkdir -p "$tmp/top/build/kernels/debug" "$tmp/top/build/kernels/plain"
ln -s "$here/../../lib" "$here/../../harness" "$tmp/top/"
echo CONFIG_DEBUG_KMEMLEAK=y > "$tmp/top/build/kernels/debug/.config"
echo '# CONFIG_DEBUG_KMEMLEAK is not set' > "$tmp/top/build/kernels/plain/.config"
for k in debug:1 plain:4; do
	out=$(env KMEMLEAK_FILE="$tmp/no-kmemleak" SCSI_NUMA_TOP="$tmp/top" SCSI_NUMA_KERNEL="${k%:*}" \
		SCSI_NUMA_TOPO=two-node SCSI_NUMA_EXPECT=patched "$here/../cases/05-kmemleak-control" 2>&1)
	rc=$?
	[ "$rc" = "${k#*:}" ] && grep -q "kmemleak absent" <<< "$out" ||
		{ echo "FAIL: case 05 on kernel ${k%:*} without kmemleak: exit $rc, not ${k#*:}: $out"; bad=$((bad + 1)); }
done
# Fault injection's reports: allowed inside the brackets only, and only
# they (injected.txt: two reports, each in a bracket).
inj=$data/injected.txt
out=$(kmsg_injected_awk sites < "$inj")
[ "$(echo "$out" | grep -c .)" = 2 ] && grep -q "	failslab	scsi_host_alloc_node	sdebug_driver_probe	scsi_host_alloc_node$" <<< "$out" &&
	grep -q "	page-alloc-warning	blk_mq_alloc_rqs	blk_mq_alloc_map_and_rqs	blk_mq_alloc_rqs$" <<< "$out" ||
	{ echo "FAIL: the sites of injected.txt: '$out'"; bad=$((bad + 1)); }
kmsg_strip_injected "$inj" > "$tmp/strip"
kmsg_judge "$tmp/strip" > /dev/null ||
	{ echo "FAIL: injected.txt judged bad after kmsg_strip_injected"; bad=$((bad + 1)); }
kmsg_judge "$inj" > /dev/null &&
	{ echo "FAIL: injected.txt judged clean without kmsg_strip_injected"; bad=$((bad + 1)); }
grep -v 'scsi_numa_fault: inject on add_host' "$inj" > "$tmp/outside"
kmsg_strip_injected "$tmp/outside" > "$tmp/strip"
kmsg_judge "$tmp/strip" > /dev/null &&
	{ echo "FAIL: a report outside the brackets was not judged"; bad=$((bad + 1)); }
sed 's/^\(.*\)scsi_debug: sdebug_add_host_helper.*/\1WARNING: CPU: 1 PID: 321 at lib\/kobject.c:1 kobject_add+0x1\/0x2/' "$inj" > "$tmp/warn"
kmsg_strip_injected "$tmp/warn" > "$tmp/strip"
kmsg_judge "$tmp/strip" > /dev/null &&
	{ echo "FAIL: a WARNING inside a bracket was not judged"; bad=$((bad + 1)); }
# A WARNING's dump inside a bracket stays whole (it has no injection header).
{ sed -n '1,2p' "$inj"; sed -n '5,20p' "$inj"; tail -n 1 "$inj"; } > "$tmp/bare"
kmsg_strip_injected "$tmp/bare" > "$tmp/strip"
kmsg_judge "$tmp/strip" > /dev/null &&
	{ echo "FAIL: a stack dump without an injection header was not judged"; bad=$((bad + 1)); }
# The whole run's log (check.sh, compare.sh) leaves them out the same way.
mkdir -p "$tmp/run/out" "$tmp/runw/out"
cp "$inj" "$tmp/run/out/dmesg.txt"
cp "$tmp/warn" "$tmp/runw/out/dmesg.txt"
kmsg_judge_run "$tmp/run" > /dev/null ||
	{ echo "FAIL: kmsg_judge_run judged injected.txt's reports"; bad=$((bad + 1)); }
kmsg_judge_run "$tmp/runw" > /dev/null &&
	{ echo "FAIL: kmsg_judge_run missed a WARNING inside a bracket"; bad=$((bad + 1)); }

# Slices cut by kmsg_slice_to from a stand-in log (KMSG_FILE).
kmsg_judge "$tmp/no-such-log" > "$tmp/out" &&
	{ echo "FAIL: a missing log was judged clean"; bad=$((bad + 1)); }
grep -q "no kernel log to judge: $tmp/no-such-log" "$tmp/out" ||
	{ echo "FAIL: a missing log failed without saying so: $(cat "$tmp/out")"; bad=$((bad + 1)); }
export KMSG_FILE=$tmp/kmsg
cp "$data/clean.txt" "$KMSG_FILE"
kmsg_slice_to "$tmp/s0"
cmp -s "$tmp/s0" "$data/clean.txt" || { echo "FAIL: the slice from boot is not the log before the first marker"; bad=$((bad + 1)); }
echo "[    4.000000] BUG: before the case" >> "$KMSG_FILE"
kmsg_mark "case A"
echo "[    5.000000] sd 0:0:0:0: [sda] in the case" >> "$KMSG_FILE"
kmsg_slice_to "$tmp/s1"
[ "$(cat "$tmp/s1")" = "[    5.000000] sd 0:0:0:0: [sda] in the case" ] && kmsg_judge "$tmp/s1" > /dev/null ||
	{ echo "FAIL: a clean slice between two markers: '$(cat "$tmp/s1")'"; bad=$((bad + 1)); }
kmsg_mark "case B"
echo "[    6.000000] BUG: in case B" >> "$KMSG_FILE"
start=$KMSG_LAST
sed -i "/$start/d" "$KMSG_FILE"	# the ring buffer wrapped past case B's start
kmsg_slice_to "$tmp/s2"
if out=$(kmsg_judge "$tmp/s2"); then
	echo "FAIL: a slice whose start marker left the log was judged clean"; bad=$((bad + 1))
elif ! grep -qF "start marker \"$start\" not in the kernel log" <<< "$out" || ! grep -qF "BUG: in case B" <<< "$out"; then
	echo "FAIL: a slice without its start marker failed without naming the marker and the BUG line: $out"; bad=$((bad + 1))
fi
# A log read that lost the end marker (dmesg failed, say).
kmsg_mark "case C"
echo "[    7.000000] sd 0:0:0:0: [sda] in case C" >> "$KMSG_FILE"
( kmsg_read() { grep -v 'slice end' "$KMSG_FILE"; }; kmsg_slice_to "$tmp/s3" )
if kmsg_judge "$tmp/s3" > "$tmp/out" || ! grep -q "end marker .* not in the kernel log" "$tmp/out"; then
	echo "FAIL: a slice without its end marker: judged '$(cat "$tmp/out")'"; bad=$((bad + 1))
fi
unset KMSG_FILE

# An empty or unread list would pass everything above: no bad line tried.
[ "$n" -gt 0 ] || { echo "FAIL: no bad lines read from $data/bad-lines.txt"; bad=$((bad + 1)); }
# Every pattern the judge claims has a line of the list that it catches.
IFS='|' read -ra pats <<< "$KMSG_BAD"
for p in "${pats[@]}"; do
	grep -qE -- "$p" "$data/bad-lines.txt" ||
		{ echo "FAIL: no line of bad-lines.txt for the pattern '$p'"; bad=$((bad + 1)); }
done

echo "test_kmsg: $n bad lines, ${#pats[@]} patterns, the clean log, 4 kmemleak reports, case 05 twice, 5 fault-injection logs, 5 slices: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
