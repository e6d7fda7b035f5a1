# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# kunit.sh: one KUnit suite run in the guest (cases 26, 30, 31): its module
# loaded, its KTAP kept in SCSI_NUMA_OUT and judged.  Needs common.sh
# (fail, skip, info, judge_mode, SCSI_NUMA_OUT), modprobe and a kernel with
# debugfs' kunit results.  Sourced by common.sh.

# kunit_run MODULE SUITE: load a KUnit test module, print its KTAP and fail
# unless every subtest passed or skipped.  Skips on a vanilla kernel (the
# suites come with the series), and when no subtest ran (every one
# skipped: the topology lacks the nodes it needs); on a NUMA-aware kernel
# the module must exist.
kunit_run() {
	local mod=$1 suite=$2
	if [ "$(judge_mode)" != patched ]; then
		modinfo "$mod" >/dev/null 2>&1 && fail "vanilla kernel has the series' $mod module"
		skip "vanilla kernel: $mod comes with the series (expected)"
	fi
	modinfo "$mod" >/dev/null 2>&1 || fail "the host expects the series, and there is no $mod module"
	modprobe "$mod" || fail "modprobe $mod failed"
	kunit_judge "$mod" "$suite"
}

# kunit_insmod KO SUITE: a suite of ours built outside the tree, for both
# kernels (harness/kbuild.sh); judged as kunit_run's.
kunit_insmod() {
	local ko=$1 suite=$2
	[ -f "$ko" ] || fail "no test module $ko"
	insmod "$ko" || fail "insmod $ko failed"
	kunit_judge "$(basename "$ko" .ko)" "$suite"
}

# kunit_judge MODULE SUITE: the loaded MODULE's results for SUITE kept,
# printed and judged; the module unloaded.
kunit_judge() {
	local mod=$1 suite=$2 res sub bad
	res=/sys/kernel/debug/kunit/$suite/results
	[ -r "$res" ] || fail "no KUnit results at $res"
	# The debugfs file goes away with the module: keep a copy.
	cp "$res" "$SCSI_NUMA_OUT/kunit-$suite.ktap"
	res=$SCSI_NUMA_OUT/kunit-$suite.ktap
	cat "$res"
	rmmod "$mod" || fail "rmmod $mod failed"
	# Subtests are indented "ok N name" / "not ok N name"; the suite line is not.
	sub=$(grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$res")
	[ -n "$sub" ] || fail "no subtest results in the KTAP output"
	bad=$(echo "$sub" | grep -E '^[[:space:]]+not ok ' | grep -v '# SKIP')
	[ -z "$bad" ] || fail "KUnit subtests failed: $bad"
	grep -qE "^(not )?ok [0-9]+ $suite" "$res" || fail "no suite result line"
	grep -qE "^not ok [0-9]+ $suite" "$res" && fail "suite $suite failed"
	# A suite none of whose subtests ran (all skipped: a machine without
	# the nodes it needs) tested nothing: that is a skip, not a pass.
	local ran
	ran=$(echo "$sub" | grep -E '^[[:space:]]+ok ' | grep -vc '# SKIP')
	[ "$ran" -gt 0 ] || skip "$suite: every subtest skipped on this topology"
	info "$suite: $ran subtests passed, $(echo "$sub" | grep -c '# SKIP') skipped"
}
