#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_poweroff.sh (make lint): the shutdown judge, kmsg_judge_poweroff of
# lib/kmsg.sh, passes a console log that powers off cleanly and fails each
# way a shutdown goes wrong: init killed (the panic the old sysrq-o + sleep
# power-off caused), a warning in a driver's shutdown, no "Power down", no
# marker at all.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../../lib/kmsg.sh
. "$here/../../lib/kmsg.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0 n=0
boot='[    0.000000] Linux version 7.3.4 (scsi_numa@build)
[   95.120000] sd 2:0:0:0: [sdc] Attached SCSI disk'
mark="[  101.500000] $KMSG_POWEROFF_MARK (status 0)"
shut='[  101.510000] sd 2:0:0:0: [sdc] Synchronizing SCSI cache
[  101.530000] ACPI: PM: Preparing to enter system sleep state S5'
down='[  101.540000] reboot: Power down'
# expect WANT NAME LINES..: judge a console log made of LINES; WANT pass|fail.
expect() {
	local want=$1 name=$2 got
	shift 2
	n=$((n + 1))
	printf '%s\n' "$@" | sed 's/$/\r/' > "$tmp/console.log"	# a serial console's CRLF
	if kmsg_judge_poweroff "$tmp/console.log" > "$tmp/out"; then got=pass; else got=fail; fi
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: judged $got, expected $want"; sed 's/^/  /' "$tmp/out"; bad=$((bad + 1))
	elif [ "$got" = fail ] && [ ! -s "$tmp/out" ]; then
		echo "FAIL: $name: failed without evidence"; bad=$((bad + 1))
	fi
}
expect pass "clean power-off" "$boot" "$mark" "$shut" "$down"
expect fail "init killed after the marker" "$boot" "$mark" "$shut" \
	'[  101.600000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100'
expect fail "warning in a shutdown" "$boot" "$mark" \
	'[  101.520000] WARNING: CPU: 1 PID: 1 at drivers/scsi/sd.c:4100 sd_shutdown+0x1/0x2' "$shut" "$down"
expect fail "no Power down" "$boot" "$mark" "$shut"
expect fail "no marker" "$boot" "$shut" "$down"
expect fail "an empty console log"
rm -f "$tmp/console.log"
n=$((n + 1))
kmsg_judge_poweroff "$tmp/console.log" > /dev/null && { echo "FAIL: a missing console log passed"; bad=$((bad + 1)); }
[ "$n" -gt 0 ] || { echo "FAIL: no case ran"; bad=1; }
echo "test_poweroff: $n console logs: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
