# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# write-guard.sh: the one rule for writing to a device, shared by
# fio-jobs/run.sh (its write jobs) and harness/host-check.sh (case 50's
# fio write + verify): a device is written to only when the user named it a
# second time (--confirm-write DEVICE; make host-check CONFIRM_WRITE=), and
# never while it, or one of its partitions, is mounted, swap or held by
# another device (device mapper, md).  Sourced; reads /proc and /sys only.

# same_device A B: do A and B name the same file or device (after links)?
same_device() { [ "$(readlink -m "$1")" = "$(readlink -m "$2")" ]; }

# device_in_use DEVICE: prints why DEVICE must not be written to (its disk
# or a partition of it "is mounted", "is swap", "is held by dm-0 ..."),
# nothing when no reason is known.  A regular file: nothing (its
# filesystem is the user's to choose).
device_in_use() {
	local real name p pn src
	real=$(readlink -f "$1")
	[ -b "$real" ] || return 0
	name=${real##*/}
	for p in "/sys/class/block/$name" "/sys/class/block/$name/$name"*; do
		[ -e "$p" ] || continue
		pn=${p##*/}
		while read -r src _; do
			case $src in /*) ;; *) continue ;; esac
			[ "$(readlink -f "$src")" = "/dev/$pn" ] && { echo "/dev/$pn is mounted"; return 0; }
		done < /proc/mounts
		while read -r src _; do
			[ "$(readlink -f "$src")" = "/dev/$pn" ] && { echo "/dev/$pn is swap"; return 0; }
		done < <(tail -n +2 /proc/swaps)
		if [ -n "$(ls "$p/holders" 2>/dev/null)" ]; then
			echo "/dev/$pn is held by $(ls "$p/holders" | tr '\n' ' ')"
			return 0
		fi
	done
}
