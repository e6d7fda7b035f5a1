# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Kernel log judging, sourced by test/run-cases, harness/guest-init,
# harness/check.sh, harness/compare.sh, harness/vm.sh and lib/common.sh
# (so by harness/guest-compare and the cases), and by the unit tests
# test/unit/test_kmsg.sh and test_poweroff.sh.
#
# The log is cut into slices at markers written to /dev/kmsg (blktests'
# way): every line belongs to exactly one slice, so nothing the kernel says
# goes unjudged, and the markers show in the console log too.
#
# KMSG_FILE: a plain file that stands for the kernel log (the runner's meta
# test, test/meta/, on the host: its log is not the test's to write or
# judge); markers are appended to it and slices cut from it.  Unset: markers
# go to /dev/kmsg, slices come from dmesg.

# What fails a slice: the patterns blktests and the kernel's own test tools
# look for, plus the debug kernel's reporters (KASAN, UBSAN, kmemleak,
# lockdep, hung tasks, soft lockups).
KMSG_BAD='kernel BUG at|WARNING:|BUG:|Oops|general protection fault|Internal error|Call Trace:|Kernel panic|KASAN:|UBSAN:|KFENCE:|unreferenced object|possible recursive locking detected|possible circular locking dependency|suspicious RCU usage|inconsistent lock state|lock held when returning to user space|blocked for more than|soft lockup|hard LOCKUP|DEBUG_LOCKS_WARN_ON|ODEBUG:|refcount_t:|list_add corruption|list_del corruption|slab .* corrupt|Poison overwritten'

KMSG_SEQ=0
KMSG_LAST=""

# kmsg_mark TEXT: write a marker; the next slice starts after it.
kmsg_mark() {
	KMSG_SEQ=$((KMSG_SEQ + 1))
	KMSG_LAST="scsi_numa_mark $$-$KMSG_SEQ:"
	if [ -n "${KMSG_FILE:-}" ]; then
		echo "$KMSG_LAST $*" >> "$KMSG_FILE"
	else
		echo "$KMSG_LAST $*" > /dev/kmsg
	fi
}
kmsg_read() { if [ -n "${KMSG_FILE:-}" ]; then cat "$KMSG_FILE"; else dmesg; fi; }

# kmsg_slice_to FILE: the lines since the last marker (since boot before the
# first one) into FILE; ends the slice with a marker of its own.
kmsg_slice_to() {
	local prev=$KMSG_LAST
	kmsg_mark "slice end"
	if [ -z "$prev" ]; then
		kmsg_read | sed -n "/$KMSG_LAST/q;p" > "$1"
	else
		kmsg_read | sed -n "/$prev/,/$KMSG_LAST/p" | sed '1d;$d' > "$1"
	fi
}

# kmsg_judge DMESG-FILE [KMEMLEAK-FILE]: exit 1, printing the evidence, when
# the slice holds a bad line or kmemleak reported a leak.
kmsg_judge() {
	local rc=0
	if grep -qE "$KMSG_BAD" "$1"; then
		echo "kernel log reports a problem ($1):"
		grep -nE -B2 -A12 "$KMSG_BAD" "$1" | head -n 60
		rc=1
	fi
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		echo "kmemleak reports leaks ($2):"
		head -n 60 "$2"
		rc=1
	fi
	return $rc
}

# KMEMLEAK_FILE: another path for it (the meta test: one that is absent, so
# that the host's kmemleak is left alone in the harness mode too).
KMEMLEAK=${KMEMLEAK_FILE:-/sys/kernel/debug/kmemleak}
kmemleak_clear() { [ -w "$KMEMLEAK" ] && echo clear > "$KMEMLEAK"; return 0; }
# kmemleak_scan FILE: scan and keep the report (empty: no leak, or no kmemleak).
kmemleak_scan() {
	: > "$1"
	[ -w "$KMEMLEAK" ] || return 0
	echo scan > "$KMEMLEAK" && cat "$KMEMLEAK" > "$1"
}

# kmsg_judge_run RUN-DIR: a guest's whole kernel log (RUN-DIR/out/dmesg.txt),
# judged on the host (check.sh, compare.sh); "not ok" lines when it fails.
kmsg_judge_run() {
	local log=$1/out/dmesg.txt out
	[ -f "$log" ] || { echo "not ok - ${1##*/}: no kernel log (out/dmesg.txt)"; return 1; }
	if ! out=$(kmsg_judge "$log"); then
		echo "not ok - ${1##*/}: full kernel log"
		echo "$out" | sed 's/^/# /'
		return 1
	fi
}

# The guest's shutdown: guest-init writes this marker to the kernel log just
# before it powers off; what the console shows from there on is judged by
# kmsg_judge_poweroff.
KMSG_POWEROFF_MARK="scsi_numa: powering off"

# kmsg_judge_poweroff CONSOLE-LOG: exit 1, printing the evidence, unless the
# console log holds the power-off marker and, after it, no bad line and the
# kernel's "reboot: Power down" (a panic, an oops in a driver's shutdown, or
# a guest that never got there).
kmsg_judge_poweroff() {
	local log=$1 part rc=0
	if ! grep -q "$KMSG_POWEROFF_MARK" "$log" 2>/dev/null; then
		echo "no power-off marker in $log: the guest did not reach its shutdown"
		return 1
	fi
	part=$(mktemp)
	sed -n "/$KMSG_POWEROFF_MARK/,\$p" "$log" | tr -d '\r' > "$part"
	kmsg_judge "$part" || rc=1
	if ! grep -q 'reboot: Power down' "$part"; then
		echo "no \"reboot: Power down\" after the power-off marker in $log; its last lines:"
		tail -n 20 "$part"
		rc=1
	fi
	rm -f "$part"
	return $rc
}
