#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lint.sh (make lint): the host-side checks, in seconds, before any guest
# boots: an SPDX line in every source file; shellcheck over every shell
# script (harness, cases, fio-jobs, the meter's KAT, blktests/), following
# sourced files; pyflakes over the Python; the unit tests (placement.py on
# recorded reports, fio-jobs' unittest modules, the kernel-log and the
# shutdown judges, cover-letter.sh on recorded inputs, the cpulist parsers,
# the settings); the case runner on fake cases (test/meta/); every topology
# file sourced and checked for the fields vm.sh and the cases need.  Exit 1
# on any finding.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
rc=0
nsteps=0 nfailed=0
lint_start=$(date +%s)
step() {
	echo "lint: $1"; shift
	nsteps=$((nsteps + 1))
	"$@" || { echo "lint: FAILED: $*"; rc=1; nfailed=$((nfailed + 1)); }
}
# bg_step NAME CMD...: step, run beside the others (make lint must stay
# within a minute on 2 cores); its output and verdict come out at bg_join.
bg_dir=$(mktemp -d)
trap 'rm -rf "$bg_dir"' EXIT
bg_n=0
bg_step() {
	local name=$1; shift
	bg_n=$((bg_n + 1))
	echo "$name" > "$bg_dir/$bg_n.name"
	echo "$*" > "$bg_dir/$bg_n.cmd"
	{ "$@" > "$bg_dir/$bg_n.out" 2>&1; echo $? > "$bg_dir/$bg_n.rc"; } &
}
bg_join() {
	local i
	wait
	for ((i = 1; i <= bg_n; i++)); do
		echo "lint: $(cat "$bg_dir/$i.name") (run beside the others)"
		nsteps=$((nsteps + 1))
		cat "$bg_dir/$i.out"
		[ "$(cat "$bg_dir/$i.rc")" = 0 ] ||
			{ echo "lint: FAILED: $(cat "$bg_dir/$i.cmd")"; rc=1; nfailed=$((nfailed + 1)); }
	done
}

# unittests DIR: the unittest modules test_*.py of DIR; a run that finds
# no test ("Ran 0 tests ... OK", exit 0) fails.
# Silent on success but for the count; unittest's whole output on failure.
unittests() {
	local out st
	out=$(python3 -B -m unittest discover -q -s "$1" -p 'test_*.py' 2>&1)
	st=$?
	[ "$st" = 0 ] || { echo "$out"; return 1; }
	echo "$out" | grep -qE '^Ran [1-9][0-9]* tests? ' || { echo "no test found in $1/test_*.py"; return 1; }
	echo "$out" | grep -E '^Ran [0-9]+ tests? '
}

# The longest test, in a lane of its own from the start (2 cores: this
# lane and the rest).
bg_step "cover letter test (recorded inputs)" test/unit/test_cover_letter.sh
shell=(harness/*.sh harness/lint-series/*.sh harness/guest-init harness/guest-compare harness/guest-scan lib/*.sh
       test/run-cases test/cases/* test/unit/*.sh test/meta/*.sh test/meta/cases/* fio-jobs/run.sh .ci/run
       qemu-plugin/*.sh qemu-plugin/kat/run.sh qemu-plugin/kat/guest-run
       blktests/run.sh blktests/guest-run blktests/posting.sh)
if command -v shellcheck >/dev/null; then
	# SC1090/SC1091: the topology and common.sh are sourced through
	# variables; -x follows the "shellcheck source=" directives instead. -P SCRIPTDIR: the directives are relative to each script.
	step "shellcheck (${#shell[@]} files)" shellcheck -x -P SCRIPTDIR -S warning -e SC1090,SC1091 "${shell[@]}"
	# blktests' tests: its make check's settings (-e SC2119); SC2034 for
	# DESCRIPTION, QUICK.. that its common/shellcheck uses, absent here.
	step "shellcheck blktests/ (blktests' settings)" shellcheck -x -e SC2119,SC2034,SC1091 \
		blktests/common/numa blktests/tests/*/[0-9]*[0-9]
else
	echo "lint: shellcheck missing (make deps installs it)"; rc=1
fi
py=(lib/placement.py lib/cpulist.py test/unit/test_placement.py test/unit/test_cpulist.py
    fio-jobs/*.py qemu-plugin/kat/split.py blktests/table.py
    harness/keep-notes.py test/unit/test_keep_notes.py
    harness/lint-series/notes.py test/unit/test_notes.py)
if command -v pyflakes3 >/dev/null; then
	step "pyflakes (${#py[@]} files)" pyflakes3 "${py[@]}"
else
	echo "lint: pyflakes3 missing (make deps installs it)"; rc=1
fi
step "SPDX line in every source file" harness/spdx-check.sh
step "Python unit tests of lib/ and harness/ (placement.py, cpulist.py against cpulist.sh, keep-notes.py, lint-series' notes.py)" unittests test/unit
step "fio-jobs unit tests (stats.py, reports, meter)" unittests fio-jobs
step "kernel-log judge test" test/unit/test_kmsg.sh
step "shutdown judge test" test/unit/test_poweroff.sh
step "figures in the patches, each in its table" test/unit/test_patch_figures.sh
step "cpulist parser test" test/unit/test_cpulist.sh
step "blktests posting (applies to its base, blktests' make check) and table test" test/unit/test_blktests_posting.sh
step "settings test (config.sh, config.example)" test/unit/test_config.sh
step "case runner meta test" test/meta/test_run_cases.sh
topo_ok() {
	local f
	for f in harness/topo/*; do
		(
			set -u
			# shellcheck source=/dev/null
			. "$f"
			[ "${#TOPO_NODE_CPUS[@]}" = "$TOPO_NODES" ] &&
			[ "${#TOPO_NODE_MEM_MB[@]}" = "$TOPO_NODES" ] &&
			[ "$TOPO_DEV_NODE" -lt "$TOPO_NODES" ] &&
			[ -n "${TOPO_NODE_CPUS[$TOPO_HOST_NODE]}" ] &&
			[ -n "$TOPO_HBAS" ]
		) || { echo "topology $f: inconsistent (node counts, DEV/HOST node, HBAs)"; return 1; }
	done
}
step "topologies" topo_ok
bg_join
# The C (the inspector, the meter plugin and its tools) is compiled with
# -Werror by the builds that make check runs (kbuild.sh, make -C qemu-plugin),
# not here: the inspector needs a kernel build, the plugin QEMU's header.
[ "$rc" = 0 ] || [ "$nfailed" -gt 0 ] || nfailed=1	# a missing tool
echo "lint: $nsteps checks, $nfailed failed (shell: ${#shell[@]} files, Python: ${#py[@]} files)"
# Its time, for make check's phase times (check.sh, lib/phase.sh).
# shellcheck source=../lib/phase.sh
. lib/phase.sh
phase_record build/check/phases lint "$lint_start"
exit $rc
