# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# phase.sh: the times of make check's phases.  deps, lint and kernels are
# separate make targets that run before check.sh; none of them hands
# check.sh anything.  Each phase script under one make has that make
# process as an ancestor: lint.sh records its start and end under the make
# process's key (phase_record), and check.sh reads them back for the same
# make (phase_read) and takes deps as make's start to lint's, kernels as
# lint's end to its own start.

# make_key: "PID:START" of the nearest make ancestor (START: its start,
# seconds since the epoch), or nothing when no make runs us.
make_key() {
	local p=$$ comm stat btime hz
	btime=$(awk '$1 == "btime" { print $2 }' /proc/stat 2>/dev/null) || return 0
	hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
	while [ "${p:-0}" -gt 1 ]; do
		comm=$(cat "/proc/$p/comm" 2>/dev/null) || return 0
		stat=$(cat "/proc/$p/stat" 2>/dev/null) || return 0
		stat=${stat##*) }	# past "(comm)", which may hold blanks
		if [ "$comm" = make ]; then
			# shellcheck disable=SC2086  # the fields of stat, one a word
			set -- $stat	# field 22 of stat is the 20th after "(comm)"
			echo "$p:$((btime + ${20} / hz))"
			return 0
		fi
		p=${stat#* } p=${p%% *}	# the parent (field 4)
	done
}

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
