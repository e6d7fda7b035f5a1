#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_run_cases.sh (make lint): the case runner's own test, as blktests'
# tests/meta: test/run-cases runs the fake cases of test/meta/cases (pass,
# fail, skip with a reason, past its "# timeout:", a kernel-log warning in
# an otherwise passing case, a passing case after it, a case that only
# reports ("# report only": counted as reported, not passed), a file that is not
# executable, a case whose timeout grows with CHURN_CYCLES) and must print exactly the TAP and exit status of
# test/meta/*.out: all.out (every case), selected.out (-p '01*,03*': exit
# 0), setup-bail-out.out (a setup whose modprobe fails: Bail out!),
# glob-typo.out (-p '01*,zz-typo*': a glob that names no case, Bail out!),
# churn.out (CHURN_CYCLES=2: the case past its 1 s "# timeout:" in all.out
# gets 2 s more per cycle, "# cycle-timeout:", and passes).
# Those run in run-cases' real-machine mode (no SCSI_NUMA_EXPECT: kmemleak
# left alone, the log judged from the runner's start).  The harness mode,
# as make check's guests run it (SCSI_NUMA_EXPECT from the host, the
# kernel judged by scsi_host_alloc_node in KALLSYMS_FILE, a stand-in for
# /proc/kallsyms): harness.out (the kernel as expected; the whole log
# from boot is judged, so the BUG line fails boot-and-setup; the budget,
# SCSI_NUMA_BUDGET=32 at second 0, caps a case's 300 s to 2 s, not its
# own 1 s), expect-vanilla.out and expect-patched.out (the kernel is not
# what the host expects: Bail out! before any case).
#
# On the host, harmlessly: a topology without HBAs (topo: setup loads
# nothing), a fake modprobe for the bail-out, kmemleak pointed at a path
# that does not exist (KMEMLEAK_FILE), and the kernel log replaced by a
# file (KMSG_FILE, lib/kmsg.sh) that starts with a BUG line from "before
# the run", which the real-machine mode must not judge.  What differs between
# machines and runs is replaced before the comparison: the kernel release,
# the kernel's word on the series, durations, temporary paths.
# Exit 1 with the differences.  META_UPDATE=1 rewrites the .out files from
# this run (then read git diff: every change must be meant).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "modprobe: FATAL: Module $1 not found (fake modprobe of the meta test)" >&2\nexit 1\n' \
	> "$tmp/bin/modprobe"
chmod +x "$tmp/bin/modprobe"
sed 's/^TOPO_HBAS=.*/TOPO_HBAS="meta_hba"/' "$here/topo" > "$tmp/topo-hba"
bad=0 runs=0

printf 'ffffffff81000000 T _stext\n' > "$tmp/kallsyms-vanilla"
printf 'ffffffff81000000 T _stext\nffffffff81234560 T scsi_host_alloc_node\n' > "$tmp/kallsyms-patched"
menv=()	# VAR=VALUE.. for the next meta run (the harness mode)

# meta NAME TOPOLOGY-FILE [run-cases args..]: run, normalise, compare with NAME.out.
meta() {
	local name=$1 topo=$2 out=$tmp/$1 rc
	runs=$((runs + 1))
	shift 2
	mkdir "$out"
	echo "[    1.000000] BUG: a problem before this run, not its to judge" > "$out/kmsg"
	env -u SCSI_NUMA_EXPECT -u SCSI_NUMA_BUDGET -u SCSI_NUMA_TSCALE -u CASE_TIMEOUT -u SCSI_NUMA_INSPECTOR -u CHURN_CYCLES \
		-u KALLSYMS_FILE -u SECONDS_SINCE_BOOT KMEMLEAK_FILE="$tmp/no-kmemleak" \
		PATH="$tmp/bin:$PATH" KMSG_FILE="$out/kmsg" SCSI_NUMA_TOP="$top" SCSI_NUMA_KERNEL=meta \
		SCSI_NUMA_TOPO=meta SCSI_NUMA_TOPO_FILE="$topo" SCSI_NUMA_OUT="$out/out" "${menv[@]}" \
		"$top/test/run-cases" -d "$here/cases" "$@" > "$out/tap" 2> "$out/err"
	rc=$?
	{
		sed -e 's/^\(# kernel meta \)[^ ]*\(, topology\)/\1UNAME\2/' \
		    -e 's/judged as [a-z]* by\(.*\)scsi_host_alloc_node [a-z]* in/judged as HAVE by\1scsi_host_alloc_node PRESENCE in/' \
		    -e 's/^# duration: [0-9]*s$/# duration: Ns/' \
		    -e "s|$out/out|OUT|g" -e "s|$tmp|TMP|g" -e "s|$top|TOP|g" -e 's/ *$//' "$out/tap"
		echo "exit $rc"
	} > "$out/tap.normal"
	[ -z "${META_UPDATE:-}" ] || cp "$out/tap.normal" "$here/$name.out"
	if ! diff -u "$here/$name.out" "$out/tap.normal"; then
		echo "FAIL: run-cases $*: TAP or exit status differ from test/meta/$name.out (above)"
		bad=$((bad + 1))
	elif [ -s "$out/err" ]; then
		echo "FAIL: run-cases $*: wrote to stderr:"; cat "$out/err"
		bad=$((bad + 1))
	fi
}
meta all "$here/topo"
meta selected "$here/topo" -p '01*,03*'
meta setup-bail-out "$tmp/topo-hba"
meta glob-typo "$here/topo" -p '01*,zz-typo*'
menv=(CHURN_CYCLES=2)
meta churn "$here/topo" -p '09*'
menv=(SCSI_NUMA_EXPECT=patched KALLSYMS_FILE="$tmp/kallsyms-patched" SCSI_NUMA_BUDGET=32 SECONDS_SINCE_BOOT=0)
meta harness "$here/topo" -p '01*,04*'
menv=(SCSI_NUMA_EXPECT=vanilla KALLSYMS_FILE="$tmp/kallsyms-patched")
meta expect-vanilla "$here/topo"
menv=(SCSI_NUMA_EXPECT=patched KALLSYMS_FILE="$tmp/kallsyms-vanilla")
meta expect-patched "$here/topo"
menv=()

[ "$runs" -gt 0 ] || { echo "FAIL: no run of test/run-cases"; bad=$((bad + 1)); }
echo "test_run_cases: $runs runs of test/run-cases on test/meta/cases: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
