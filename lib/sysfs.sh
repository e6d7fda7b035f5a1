# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# sysfs.sh: where the SCSI hosts, their devices and disks are, read from
# /sys: hosts by driver name, a host's devices (H:C:T:L), a device's block
# and sg nodes, every disk, a host's blk-mq queue map.  Reads only; needs
# fail() (common.sh) for queue_map.  Sourced by common.sh.

# SCSI host numbers whose proc_name is $1.
hosts_named() {
	local h
	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = "$1" ] && echo "${h##*/host}"
	done
}

# Hosts named $1 that have at least one disk (an AHCI controller has a host
# per port, most of them empty).
hosts_with_disk() {
	local h d
	for h in $(hosts_named "$1"); do
		for d in $(devices_of_host "$h"); do
			[ -n "$(blockdev_of "$d")" ] && { echo "$h"; break; }
		done
	done
}

# H:C:T:L of every scsi_device on host $1.
devices_of_host() {
	local d
	for d in /sys/class/scsi_device/"$1":*; do
		[ -e "$d" ] && echo "${d##*/}"
	done
}

# Block device name (sdX) of scsi_device $1 (H:C:T:L), empty if none.
blockdev_of() { ls "/sys/class/scsi_device/$1/device/block" 2>/dev/null | head -n 1; }
# sg name of scsi_device $1.
sgdev_of() { ls "/sys/class/scsi_device/$1/device/scsi_generic" 2>/dev/null | head -n 1; }

# Every SCSI disk: H:C:T:L of devices with a block device.
all_disks() {
	local d
	for d in /sys/class/scsi_disk/*; do [ -e "$d" ] && echo "${d##*/}"; done
}

# Block device of the first disk of host $1.
first_blockdev() {
	local d sd
	for d in $(devices_of_host "$1"); do
		sd=$(blockdev_of "$d")
		[ -n "$sd" ] && { echo "$sd"; return; }
	done
}

# CPUs of hardware queue directory $1 (/sys/block/X/mq/N), one per line.
queue_cpus() { tr ',' '\n' < "$1/cpu_list" | tr -d ' '; }

# queue_map H: the queue map of host H as blk-mq exposes it for its first
# disk, "Q=CPUS;..": hardware queue Q serves CPUS (possible CPUs, present
# or not).  placement.py judges each queue's objects against it and the
# topology.
queue_map() {
	local sd q out=""
	sd=$(first_blockdev "$1")
	[ -n "$sd" ] || fail "host$1: no disk to read the queue map from"
	for q in /sys/block/"$sd"/mq/*; do
		out+="${q##*/}=$(queue_cpus "$q" | sort -n | paste -sd, -);"
	done
	echo "${out%;}"
}
