# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# phase.sh: the times of make check's phases.  deps, lint and kernels are
# separate make targets that run before check.sh; none of them hands
# check.sh anything.  The Makefile exports SCSI_NUMA_MAKE, "START-PID" of
# the make (START: seconds since the epoch): lint.sh records its start and
# end under that key (phase_record), and check.sh reads them back for the
# same make (phase_read) and takes deps as make's start to lint's, kernels
# as lint's end to its own start.

# make_key: the running make's key, or nothing when no make runs us.
make_key() { echo "${SCSI_NUMA_MAKE:-}"; }

# phase_record FILE NAME START: append "KEY NAME START END" (END: now) for
# this make, if one runs us.
phase_record() {
	local key
	key=$(make_key)
	[ -n "$key" ] || return 0
	mkdir -p "$(dirname "$1")" && echo "$key $2 $3 $(date +%s)" >> "$1"
	# Only the last makes matter: keep the file short.
	tail -n 20 "$1" > "$1.new" && mv "$1.new" "$1"
}

# phase_read FILE NAME: "START END" of NAME for this make, or nothing.
phase_read() {
	local key
	key=$(make_key)
	[ -n "$key" ] && [ -f "$1" ] || return 0
	awk -v k="$key" -v n="$2" '$1 == k && $2 == n { s = $3 " " $4 } END { if (s) print s }' "$1"
}
