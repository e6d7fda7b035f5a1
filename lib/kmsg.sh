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
# lockdep, hung tasks, soft lockups) and RCU's stall reports, which need
# not come with a stack dump.
KMSG_BAD='kernel BUG at|WARNING:|BUG:|Oops|general protection fault|Internal error|Call Trace:|Kernel panic|KASAN:|UBSAN:|KFENCE:|unreferenced object|possible recursive locking detected|possible circular locking dependency|suspicious RCU usage|inconsistent lock state|lock held when returning to user space|blocked for more than|soft lockup|hard LOCKUP|DEBUG_LOCKS_WARN_ON|ODEBUG:|refcount_t:|list_add corruption|list_del corruption|slab .* corrupt|Poison overwritten|self-detected stall|detected stalls on|detected expedited stalls|detected stall, but suppressed|kthread starved for|timer wakeup didn.t happen'

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
# first one) into FILE; ends the slice with a marker of its own.  A marker
# not in the log (the ring buffer wrapped past the start; dmesg failed
# before the end) puts a KMSG_LOST line into FILE, which fails kmsg_judge;
# the lines before the end marker are kept and judged too.
KMSG_LOST="scsi_numa_kmsg: slice incomplete:"
kmsg_slice_to() {
	local prev=$KMSG_LAST
	kmsg_mark "slice end"
	kmsg_read | awk -v s="$prev" -v e="$KMSG_LAST" -v lost="$KMSG_LOST" '
		index($0, e) { end = 1; exit }
		s == "" || on { print; next }
		index($0, s) { on = 1; next }
		{ buf[++n] = $0 }
		END {
			if (!end) print lost " end marker \"" e "\" not in the kernel log"
			if (s == "" || on) exit
			print lost " start marker \"" s "\" not in the kernel log (the ring buffer wrapped past it?); the " (n + 0) " lines before the end marker follow"
			for (i = 1; i <= n; i++) print buf[i]
		}' > "$1"
}

# kmsg_judge DMESG-FILE [KMEMLEAK-FILE]: exit 1, printing the evidence, when
# the slice holds a bad line or kmemleak reported a leak, or the slice is
# missing or incomplete (kmsg_slice_to).  KMEMLEAK-FILE is kmemleak_scan's:
# missing fails, its "kmemleak absent" line does not.
kmsg_judge() {
	local rc=0
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		echo "no kernel log to judge: $1 is missing"
		return 1
	fi
	if grep -q "^$KMSG_LOST" "$1"; then
		grep "^$KMSG_LOST" "$1"
		rc=1
	fi
	if grep -qE "$KMSG_BAD" "$1"; then
		echo "kernel log reports a problem ($1):"
		grep -nE -B2 -A12 "$KMSG_BAD" "$1" | head -n 60
		rc=1
	fi
	if [ -n "${2:-}" ] && [ ! -f "$2" ]; then
		echo "no kmemleak result: $2 is missing"
		rc=1
	elif [ -n "${2:-}" ] && [ -s "$2" ] && ! kmemleak_absent "$2"; then
		echo "kmemleak reports leaks ($2):"
		head -n 60 "$2"
		rc=1
	fi
	return $rc
}

# Fault injection's own reports.  A case that injects allocation failures
# (failslab, fail_page_alloc: verbose=2) makes the kernel print, for each
# failure, "FAULT_INJECTION: forcing a failure." and a stack dump, and for
# a failed page allocation without __GFP_NOWARN, "page allocation failure:"
# with a stack dump and the memory state: "Call Trace:" lines that fail a
# slice.  Such a case says "# kmsg: fault-injection" in its first lines
# (run-cases then judges its slice through kmsg_strip_injected) and
# brackets each injection with the markers below (kmsg_inject_on/off).
# Only inside a bracket, only a report that starts with one of the two
# headers, and only the lines of its dump (the "name ..., interval"
# line, CPU/Hardware name, Call Trace, <TASK>, frames, the user registers
# of a task in a system call, </TASK>) are taken
# out; any other line, a WARNING inside a bracket included, stays judged.
KMSG_INJECT_ON="scsi_numa_fault: inject on"
KMSG_INJECT_OFF="scsi_numa_fault: inject off"
kmsg_inject_on() { kmsg_write "$KMSG_INJECT_ON $*"; }
kmsg_inject_off() { kmsg_write "$KMSG_INJECT_OFF"; }
kmsg_write() {
	if [ -n "${KMSG_FILE:-}" ]; then echo "$*" >> "$KMSG_FILE"; else echo "$*" > /dev/kmsg; fi
}

# kmsg_injected_awk MODE: the awk program behind the two functions below
# (MODE strip: the log without the reports; sites: one line per report,
# "LABEL<TAB>KIND<TAB>SITE<TAB>CALLER<TAB>SCOPE", the label of its
# bracket, the failure's kind (failslab, fail_page_alloc,
# page-alloc-warning), the first two reliable frames above the allocator,
# and the first frame of the SCSI or block layer or null_blk among all,
# the guessed "? " ones included (a kernel without a frame unwinder
# marks most frames so), "-" if none).
kmsg_injected_awk() {
	# shellcheck disable=SC2016  # an awk program
	awk -v mode="$1" -v on="$KMSG_INJECT_ON" -v off="$KMSG_INJECT_OFF" '
	function msg(l) { sub(/^\[[^]]*\] */, "", l); sub(/^\[ *[CT][0-9]+\] */, "", l); return l }
	function fn(l) { l = msg(l); sub(/^ *(\? )?/, "", l); sub(/\+0x.*/, "", l); return l }
	function alloc(f) {
		return f ~ /^(dump_stack|fail_dump|should_fail|should_failslab|slab_pre_alloc_hook|slab_alloc|__slab_alloc|___slab_alloc|kmem_cache_alloc|kmalloc|__kmalloc|_kmalloc|__do_kmalloc|kvmalloc|__kvmalloc|kzalloc|kcalloc|kmalloc_array|krealloc|__krealloc|kmemdup|kstrdup|kvasprintf|kasprintf|__alloc_pages|alloc_pages|__alloc_frozen|alloc_frozen|prepare_alloc_pages|__folio_alloc|folio_alloc|alloc_slab|allocate_slab|new_slab|warn_alloc|__alloc_pages_slowpath|alloc_pages_mpol|get_zeroed_page|__get_free_pages|___kmalloc|__alloc_empty_sheaf|refill_sheaf|__pcs_replace|__pfx_)/
	}
	function done_report() {
		if (mode == "sites" && kind != "") print label "\t" kind "\t" (site == "" ? "?" : site) "\t" (caller == "" ? "?" : caller) "\t" (scope == "" ? "-" : scope)
		inrep = 0; kind = ""; site = ""; caller = ""; scope = ""
	}
	BEGIN { scope_re = "^(__)?(scsi|sdebug|sd|sg|blk|nullb|null|elevator|elv|disk|add_disk|device_add_disk|sbitmap)_" }
	{
		m = msg($0)
		if (index(m, on) == 1) { win = 1; label = substr(m, length(on) + 2); if (mode == "strip") print; next }
		if (index(m, off) == 1) { if (inrep) done_report(); win = 0; if (mode == "strip") print; next }
		if (win && m ~ /^FAULT_INJECTION: forcing a failure\.$/) {
			if (inrep) done_report(); inrep = 1; kind = "?"; n = 0; next
		}
		if (win && m ~ /: page allocation failure: order:[0-9]+/) {
			if (inrep) done_report(); inrep = 1; kind = "page-alloc-warning"; n = 0; next
		}
		if (inrep) {
			n++
			if (m ~ /^ *name [a-z_]+, interval [0-9]+, probability/) { if (kind == "?") { kind = m; sub(/^ *name /, "", kind); sub(/,.*/, "", kind) } next }
			if (m ~ /^CPU: [0-9]+ .*PID: [0-9]+ .*Comm: / || m ~ /^Hardware name: / || m ~ /^Call Trace:$/ || m ~ /^ *<TASK>$/) next
			if (m ~ /^ *(\? )?[A-Za-z0-9_.]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[^]]+\])?$/) {
				f = fn($0)
				if (!alloc(f)) {
					if (m !~ /^ *\? /) { if (site == "") site = f; else if (caller == "") caller = f }
					# a guessed frame ("? "): the first of the block and SCSI layers
					if (scope == "" && f ~ scope_re) scope = f
				}
				next
			}
			# a task in a system call: its user registers
			if (m ~ /^(RIP|Code|RSP|RAX|RDX|RBP|R10|R13): /) next
			if (m ~ /^ *<\/TASK>$/) { done_report(); next }
			if (n > 200) done_report()
		}
		if (mode == "strip") print
	}
	END { if (inrep) done_report() }'
}
# kmsg_strip_injected DMESG-FILE: the slice without the fault-injection
# reports inside the injection brackets, on stdout.
kmsg_strip_injected() { kmsg_injected_awk strip < "$1"; }
# kmsg_injected_sites DMESG-FILE: one line per such report (see above).
kmsg_injected_sites() { kmsg_injected_awk sites < "$1"; }

# KMEMLEAK_FILE: another path for it (the meta test: one that is absent, so
# that the host's kmemleak is left alone in the harness mode too).
KMEMLEAK=${KMEMLEAK_FILE:-/sys/kernel/debug/kmemleak}
kmemleak_clear() { [ -w "$KMEMLEAK" ] && echo clear > "$KMEMLEAK"; return 0; }
# kmemleak_scan FILE: scan and keep the report (empty: no leak); without
# kmemleak, a KMEMLEAK_ABSENT line, so that "not scanned" never reads as
# "nothing leaked".
KMEMLEAK_ABSENT="kmemleak absent"
kmemleak_scan() {
	if [ ! -w "$KMEMLEAK" ]; then
		echo "$KMEMLEAK_ABSENT ($KMEMLEAK): leaks not checked" > "$1"
		return 0
	fi
	: > "$1"
	echo scan > "$KMEMLEAK" && cat "$KMEMLEAK" > "$1"
}
# kmemleak_absent FILE: FILE is kmemleak_scan's word that there is no kmemleak.
kmemleak_absent() { [ "$(wc -l < "$1")" = 1 ] && grep -q "^$KMEMLEAK_ABSENT (" "$1"; }

# kmsg_judge_run RUN-DIR: a guest's whole kernel log (RUN-DIR/out/dmesg.txt),
# judged on the host (check.sh, compare.sh); "not ok" lines when it fails.
# Fault injection's own reports inside a case's injection brackets are
# left out, as run-cases leaves them out of that case's slice; the rest,
# inside the brackets too, is judged.
kmsg_judge_run() {
	local log=$1/out/dmesg.txt out rc=0 tmp note
	[ -f "$log" ] || { echo "not ok - ${1##*/}: no kernel log (out/dmesg.txt)"; return 1; }
	tmp=$(mktemp)
	kmsg_strip_injected "$log" > "$tmp"
	out=$(kmsg_judge "$tmp") || rc=1
	note="$log, fault injection's own reports left out"
	out=${out//"$tmp"/"$note"}
	rm -f "$tmp"
	if [ "$rc" != 0 ]; then
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
