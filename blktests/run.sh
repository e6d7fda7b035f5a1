#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh BLKTESTS KERNEL TOPOLOGY [TEST..] (make blktests): copy this
# folder's tests (tests/scsi/NNN, .out, common/numa) into the blktests
# checkout BLKTESTS, shellcheck them there as blktests' make check does,
# and run ./check on them (default: all of them) in a guest of
# build/kernels/KERNEL in TOPOLOGY (harness/vm.sh, guest-run).  The
# guest's root is the host's /: blktests' dependencies (fio, udevadm,
# gawk) are the host's.  Prints check's output; exits with its status.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
die() { echo "blktests: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: make blktests BLKTESTS=/path/to/blktests [K=patched] [TOPO=two-node]"
bt=$1 kernel=$2 topo=$3
shift 3
"$top/harness/lib/plan.sh" --no-cases "$kernel:$topo" > /dev/null || exit 2
[ -n "$bt" ] || die "BLKTESTS= names a blktests checkout (README: blktests)"
bt=$(cd "$bt" 2>/dev/null && pwd) || die "no directory '$1'"
[ -x "$bt/check" ] && [ -f "$bt/common/scsi_debug" ] || die "$bt is no blktests checkout (no check, common/scsi_debug)"
# The guest sees the host's / but not its /tmp and /run (its own tmpfs),
# and the kernel command line that carries the path cannot carry blanks.
case $bt in
/tmp/*|/run/*) die "$bt: the guest does not see the host's /tmp or /run; clone blktests elsewhere" ;;
*[[:space:]]*) die "'$bt': a path without blanks, please" ;;
esac
missing=""
for c in fio udevadm gawk; do command -v "$c" >/dev/null || missing+=" $c"; done
[ -z "$missing" ] || die "missing on the host (and so in the guest):$missing (Debian: apt-get install fio udev gawk)"

tests=("$@")
if [ ${#tests[@]} = 0 ]; then
	for t in "$here"/tests/scsi/[0-9]*[0-9]; do tests+=("scsi/${t##*/}"); done
fi
# Never overwrite blktests' own files: a later blktests may have taken
# these numbers (then renumber ours).
for f in common/numa "$here"/tests/scsi/[0-9]*[0-9]; do
	f=${f#"$here"/}
	if git -C "$bt" ls-files --error-unmatch "$f" >/dev/null 2>&1; then
		die "$bt already has its own $f: renumber blktests/ (README)"
	fi
done
ours=()
for t in "$here"/tests/scsi/[0-9]*[0-9]; do ours+=("scsi/${t##*/}"); done
install -m 644 "$here/common/numa" "$bt/common/numa" || die "cannot write into $bt"
for t in "$here"/tests/scsi/[0-9]*[0-9]; do
	install -m 755 "$t" "$bt/tests/scsi/" && install -m 644 "$t.out" "$bt/tests/scsi/" || die "cannot write into $bt"
done
# blktests' helper programs (src/), which some tests require.
make -s -C "$bt" >/dev/null 2>&1 || die "make in $bt failed (its helper programs, src/)"
echo "# blktests: copied $(cd "$here" && echo tests/scsi/[0-9]*[0-9]) and common/numa into $bt; running ${tests[*]}"
if command -v shellcheck >/dev/null; then
	# blktests' own make check: its exclusions, its common files followed.
	(cd "$bt" && shellcheck -x -e SC2119 -f gcc common/numa tests/scsi/rc "${ours[@]/#/tests/}") ||
		die "shellcheck (blktests' settings) failed"
fi

# BTEXCLUDE: tests ./check leaves out (-x), "none" for none.  Default
# block/042: its unaligned direct I/O on the megaraid_sas disk (QEMU's
# megasas-gen2) ends in "kernel BUG at megaraid_sas_base.c" and a panic
# in megasas_complete_cmd_dpc() on vanilla and patched alike, which ends
# the guest and every test after it (blktests/README).
exclude=${BTEXCLUDE-block/042}
[ "$exclude" != none ] || exclude=""
[ -z "$exclude" ] || echo "# blktests: not running $exclude (BTEXCLUDE; blktests/README)"
# BTTIMEOUT=SECONDS: blktests' TIMEOUT, the runtime of each TIMED test
# (unset: each test's own default).
[ -z "${BTTIMEOUT:-}" ] || [[ $BTTIMEOUT =~ ^[0-9]+$ ]] || die "BTTIMEOUT=$BTTIMEOUT: seconds"
run=${VM_RUN:-blktests-$kernel-$topo}
VM_RUN=$run \
VM_CMDLINE="scsi_numa.mode=run scsi_numa.run=blktests/guest-run scsi_numa.blktests=$bt scsi_numa.btests=$(IFS=,; echo "${tests[*]}")${exclude:+ scsi_numa.btexclude=${exclude// /,}}${BTTIMEOUT:+ scsi_numa.bttimeout=$BTTIMEOUT}" \
	"$top/harness/vm.sh" "$kernel" "$topo"
rc=$?
# The table of blktests' results (blktests/table.py): per test and device
# passed / failed / not run with blktests' reason, and the kernel log.
if [ -d "$top/build/runs/$run/out/blktests" ]; then
	python3 "$here/table.py" table "$top/build/runs/$run" || { [ "$rc" != 0 ] || rc=1; }
fi
exit "$rc"
