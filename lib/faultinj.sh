# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# faultinj.sh: allocation failures injected into one write of a sysfs or
# configfs attribute (Documentation/fault-injection/fault-injection.rst),
# by failslab and fail_page_alloc, scoped to the task doing the write:
#   fi_write_nth N FILE VALUE    the N-th allocation that reaches the fault
#                                injection in that write fails
#                                (/proc/thread-self/fail-nth);
#   fi_write_random FILE VALUE   failures at random (task-filter=Y and
#                                /proc/self/make-it-fail set in the writing
#                                subshell only; probability, interval,
#                                times, space as fi_random_set put them).
#   fi_require FUNC              only allocations with FUNC on their
#                                stack reach the injection, fail-nth's
#                                count included (the stack filter).
# Each write is bracketed by kmsg_inject_on/off (lib/kmsg.sh), so that
# run-cases leaves the injections' own reports (verbose=2: a stack dump
# each) out of the case's judgement, and kmsg_injected_sites can name the
# failing call site of each.  Needs common.sh (fail, kmsg.sh).
# Sourced by cases 22, 24 and 25.

FI_DIRS=(/sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc)
FI_SAVED=()
FI_ERRF=/tmp/faultinj.err
FI_SYMS=/tmp/faultinj.kallsyms

# fi_setup: both attributes on GFP_KERNEL allocations too (ignore-gfp-wait
# N; fail_page_alloc: order 0 too, user pages not), a stack dump per failure
# without rate limit, task-filter Y, and no random failure (probability
# 0, times 0) until fi_random_set.  The old values are kept for fi_restore.
fi_setup() {
	local d f
	for d in "${FI_DIRS[@]}"; do
		[ -d "$d" ] || fail "$d absent: the kernel lacks FAILSLAB/FAIL_PAGE_ALLOC or FAULT_INJECTION_DEBUG_FS"
		for f in probability interval times space verbose task-filter ignore-gfp-wait \
			 ignore-gfp-highmem min-order verbose_ratelimit_interval_ms verbose_ratelimit_burst \
			 require-start require-end reject-start reject-end stacktrace-depth cache-filter; do
			[ -e "$d/$f" ] && FI_SAVED+=("$d/$f=$(cat "$d/$f")")
		done
		if ! { echo 0 > "$d/probability" && echo 0 > "$d/times" && echo 1 > "$d/interval" &&
			echo 0 > "$d/space" && echo 2 > "$d/verbose" && echo Y > "$d/task-filter" &&
			echo N > "$d/ignore-gfp-wait"; }; then
			fail "cannot set up $d"
		fi
		# The writer's own page faults (user pages are __GFP_HIGHMEM) are
		# not the kernel path under test: left alone.
		[ -e "$d/ignore-gfp-highmem" ] && echo Y > "$d/ignore-gfp-highmem"
		[ -e "$d/min-order" ] && echo 0 > "$d/min-order"
		# Every cache, no stack filter until fi_require.
		[ -e "$d/cache-filter" ] && echo N > "$d/cache-filter"
		[ -e "$d/reject-start" ] && echo 0 > "$d/reject-start" && echo 0 > "$d/reject-end"
		[ -e "$d/verbose_ratelimit_interval_ms" ] && echo 0 > "$d/verbose_ratelimit_interval_ms"
	done
	[ -e /proc/self/fail-nth ] || fail "/proc/self/fail-nth absent"
	return 0
}

# fi_restore: the values fi_setup found.  Quiet; for traps too.
fi_restore() {
	local kv
	for kv in "${FI_SAVED[@]}"; do echo "${kv#*=}" > "${kv%%=*}" 2>/dev/null; done
	return 0
}

# fi_require FUNC: the stack filter (FAULT_INJECTION_STACKTRACE_FILTER) on
# both attributes: require-start/end span FUNC's text, from its address in
# /proc/kallsyms to the next symbol's (a compiler suffix such as .isra.0
# accepted; the name must be unique), over 32 frames.  FUNC "": no filter.
fi_require() {
	local f=$1 d m start end
	if [ -z "$f" ]; then
		start=0x0 end=0xffffffffffffffff
	else
		# The symbols sorted once per set of loaded modules (sorting
		# kallsyms takes seconds under TCG).
		if [ ! -s "$FI_SYMS" ] || [ "$(cut -d' ' -f1,6 /proc/modules)" != "$(cat "$FI_SYMS.modules")" ]; then
			sort "${KALLSYMS:-/proc/kallsyms}" > "$FI_SYMS" &&
				cut -d' ' -f1,6 /proc/modules > "$FI_SYMS.modules"
		fi
		# shellcheck disable=SC2016  # an awk program
		m='$3 == f || (index($3, f ".") == 1 && $3 !~ /\.cold$/)'
		[ "$(awk -v f="$f" "$m" "$FI_SYMS" | wc -l)" = 1 ] ||
			fail "fi_require: $f is not one symbol in /proc/kallsyms"
		read -r start end < <(awk -v f="$f" \
			"found && \$1 != a { print \"0x\" a, \"0x\" \$1; exit } $m { found = 1; a = \$1 }" "$FI_SYMS") || true
		[ "${start:-}" != 0x0000000000000000 ] || fail "fi_require: /proc/kallsyms hides addresses (kptr_restrict)"
		[ -n "${end:-}" ] || fail "fi_require: no symbol after $f in /proc/kallsyms"
	fi
	for d in "${FI_DIRS[@]}"; do
		[ -e "$d/require-start" ] ||
			fail "$d/require-start absent: the kernel lacks FAULT_INJECTION_STACKTRACE_FILTER"
		if ! { echo "$start" > "$d/require-start" && echo "$end" > "$d/require-end" &&
			echo 32 > "$d/stacktrace-depth"; }; then
			fail "fi_require: cannot set $d's stack filter to $f"
		fi
	done
}

# fi_random_set PROBABILITY INTERVAL TIMES SLAB-SPACE PAGE-SPACE: the
# random mode's knobs, on both attributes (space: failslab counts bytes of
# objects, fail_page_alloc pages); fi_write_random sets them again before
# each write (times and space are used up by the writes).
FI_RANDOM=(0 1 0 0 0)
fi_random_set() {
	FI_RANDOM=("$@")
	fi_random_apply
}
fi_random_apply() {
	local d sp
	for d in "${FI_DIRS[@]}"; do
		sp=${FI_RANDOM[3]}
		[ "$d" = "${FI_DIRS[1]}" ] && sp=${FI_RANDOM[4]}
		if ! { echo "${FI_RANDOM[0]}" > "$d/probability" && echo "${FI_RANDOM[1]}" > "$d/interval" &&
			echo "${FI_RANDOM[2]}" > "$d/times" && echo "$sp" > "$d/space"; }; then
			fail "cannot set $d"
		fi
	done
}

# fi_write_nth N FILE VALUE LABEL: write VALUE to FILE in a subshell whose
# N-th allocation (counted by the fault injection: failslab and
# fail_page_alloc calls that pass their filters) fails.  The file and the
# fail-nth file are opened before the count starts, so the count begins at
# the write(2) of VALUE.  Sets FI_RC (the write's status: 0 or 1),
# FI_ERR (its error text), FI_LEFT (0: the failure was injected; >0: the
# write made fewer than N such allocations, nothing failed).
fi_write_nth() {
	local n=$1 file=$2 val=$3 label=$4 res
	kmsg_inject_on "$label nth=$n"
	# No fork between setting fail-nth and the write: a child starts
	# with fail-nth 0; its error text goes to a file opened before.
	res=$(
		exec 3> "$file" 4<> /proc/thread-self/fail-nth 5> "$FI_ERRF" || exit 90
		echo "$n" >&4 || exit 91
		rc=0; echo "$val" >&3 2>&5 || rc=1
		read -r left <&4
		echo 0 >&4
		echo "$rc ${left:-?} $(tr '\n' ' ' < "$FI_ERRF")"
	)
	kmsg_inject_off
	FI_RC=${res%% *} res=${res#* }
	FI_LEFT=${res%% *} FI_ERR=${res#* }
	[ "$FI_ERR" = "$FI_LEFT" ] && FI_ERR=""
	[ -n "$FI_RC" ] || fail "$label: the injecting subshell failed (open of $file or fail-nth)"
}

# fi_write_random FILE VALUE LABEL: write VALUE to FILE from a subshell
# with make-it-fail set (the task filter's target), FILE opened first.
# Sets FI_RC and FI_ERR.
fi_write_random() {
	local file=$1 val=$2 label=$3 res
	fi_random_apply
	kmsg_inject_on "$label random"
	res=$(
		exec 3> "$file" 4> /proc/self/make-it-fail 5> "$FI_ERRF" || exit 90
		echo 1 >&4 || exit 91
		rc=0; echo "$val" >&3 2>&5 || rc=1
		echo 0 >&4
		echo "$rc $(tr '\n' ' ' < "$FI_ERRF")"
	)
	kmsg_inject_off
	FI_RC=${res%% *} FI_ERR=${res#* }
	[ "$FI_ERR" = "$FI_RC" ] && FI_ERR=""
	[ -n "$FI_RC" ] || fail "$label: the injecting subshell failed"
}
