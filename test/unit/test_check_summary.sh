#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_check_summary.sh (make lint): check.sh's accounting, in a copy of
# the harness whose vm.sh is a stand-in (no guest) writing the TAP given
# for its run.  Every count of summary.tsv and of the last line for runs
# with a pass, a "# SKIP reason" the run expects and one it does not, a
# "# SKIP report only", a "not ok", a "Bail out!", only 01-topology, only
# skips, a skipped 01-topology, a failed teardown; each run check that fails is named; the
# exit status; a misspelt run refused before any guest.
# shellcheck source=unit-lib.sh
. "$(dirname "$0")/unit-lib.sh"
sb=$tmp/sb taps=$tmp/taps
mkdir -p "$sb/harness/lib" "$sb/lib" "$sb/test" "$taps"
cp "$top/harness/check.sh" "$top/harness/run-id.sh" "$top/harness/placement-summary.sh" "$sb/harness/"
cp "$top"/lib/{kmsg,config}.sh "$top/Makefile" "$sb/lib/"
cp "$top"/harness/lib/{expect,series,phase,plan}.sh "$sb/harness/lib/"
mv "$sb/lib/Makefile" "$sb/"
ln -s "$top/harness/topo" "$sb/harness/" && ln -s "$top/test/cases" "$sb/test/"
cat > "$sb/harness/vm.sh" <<'VM'
#!/bin/bash
# Stand-in for vm.sh: the TAP of STANDIN_TAPS/VM_RUN, a clean kernel log;
# exit 1 on a "not ok" or "Bail out!" in it, as the guest would, or
# the status in STANDIN_TAPS/VM_RUN.rc.
o=$(cd "$(dirname "$0")/.." && pwd)/build/runs/$VM_RUN/out
rm -rf "${o%/out}"; mkdir -p "$o"
cp "$STANDIN_TAPS/$VM_RUN" "$o/tap" && : > "$o/dmesg.txt"
[ ! -f "$STANDIN_TAPS/$VM_RUN.rc" ] || exit "$(cat "$STANDIN_TAPS/$VM_RUN.rc")"
! grep -qE '^(not ok|Bail out!)' "$o/tap"
VM
chmod +x "$sb/harness/vm.sh"
# tap RUN LINE..: the TAP of RUN, between boot-and-setup and teardown
# (unless a LINE is the teardown's).
tap() {
	local r=$1 i=1; shift
	{ echo "ok 1 boot-and-setup"
	  for l in "$@"; do i=$((i + 1)); echo "${l/N/$i}"; done
	  [[ "$*" == *"Bail out!"* || "$*" == *" teardown"* ]] || echo "ok $((i + 1)) teardown"; } > "$taps/$r"
}
# check RUN..: check.sh on these runs; its output in $tmp/out, rc.
check() {
	n=$((n + 1))
	STANDIN_TAPS=$taps "$sb/harness/check.sh" --no-kat "$@" > "$tmp/out" 2>&1; rc=$?
}
# counts RUN P F S R RP RF: RUN's line of summary.tsv has these counts.
counts() {
	local r=$1 got
	got=$(awk -F'\t' -v r="$r" '$1 == "run" && $2 == r { print $7, $8, $9, $10, $11, $12 }' "$sb/build/check/summary.tsv")
	shift
	[ "$got" = "$*" ] || fail "$r: summary.tsv counts '$got', not '$*' (passed failed skipped reported; run checks)"
}
said() { grep -qF -- "$1" "$tmp/out" || fail "check.sh does not say: $1"; }
unsaid() { ! grep -qF -- "$1" "$tmp/out" || fail "check.sh says: $(grep -F -- "$1" "$tmp/out")"; }

tap patched-two-node-mixed 'ok N 01-topology' 'ok N 10-placement-probe' 'ok N 11-placement-rescan # SKIP report only' \
	'not ok N 20-scsi-debug-invalid-node # exit=1' 'ok N 50-named-disk # SKIP no disk named (host-check --disk)'
tap vanilla-cpuless-only01 'ok N 01-topology'
tap patched-cpuless-newskip 'ok N 01-topology' 'ok N 10-placement-probe' 'ok N 12-alloc-cpus # SKIP no SLUB allocation tracking'
tap patched-one-node-bail 'Bail out! the host expects a patched kernel; this one is vanilla'
tap vanilla-two-node-allskip 'ok N 01-topology' 'ok N 20-scsi-debug-invalid-node # SKIP vanilla kernel (expected)' \
	'ok N 50-named-disk # SKIP no disk named (host-check --disk)'
tap patched-four-node-own 'ok N 01-topology # SKIP a run check' 'ok N 10-placement-probe'
# A failed teardown is no case, but it fails the run all the same, even
# where the guest's exit says nothing.
tap vanilla-cpuless-teardown 'ok N 01-topology' 'ok N 10-placement-probe' 'not ok N teardown'
echo 0 > "$taps/vanilla-cpuless-teardown.rc"
check patched:two-node:01*,10*,11*,20*,50*:mixed vanilla:cpuless:01*:only01 patched:cpuless:01*,1*:newskip \
	patched:one-node::bail vanilla:two-node:01*,20*,50*:allskip patched:four-node:01*,10*:own \
	vanilla:cpuless:01*,10*:teardown
[ "$rc" = 1 ] || fail "check.sh with failing runs: exit $rc, not 1"
counts patched-two-node-mixed 1 1 1 1 4 0
counts vanilla-cpuless-only01 0 0 0 0 4 1
counts patched-cpuless-newskip 1 0 1 0 4 1
counts patched-one-node-bail 0 0 0 0 2 2
counts vanilla-two-node-allskip 0 0 2 0 4 1
counts patched-four-node-own 1 0 0 0 3 1
counts vanilla-cpuless-teardown 1 0 0 0 3 1
grep -qx 'total	4	1	4	1	24	7' "$sb/build/check/summary.tsv" ||
	fail "summary.tsv: $(grep '^total' "$sb/build/check/summary.tsv"), not total 4 1 4 1 24 7"
[ "$(tail -n 1 "$tmp/out" | cut -d';' -f1-2)" = "check: 4 cases passed, 1 failed, 4 skipped, 1 reported; 24 run checks passed, 7 failed (boot, teardown, kernel log)" ] ||
	fail "check.sh's last line: $(tail -n 1 "$tmp/out")"
said "not ok - vanilla-cpuless-only01: no case ran in this run"
said "not ok - vanilla-two-node-allskip: no case ran in this run"
said "not ok - patched-one-node-bail: no case ran in this run"
said "not ok - patched-cpuless-newskip: 12-alloc-cpus skipped (no SLUB allocation tracking), which this run does not expect"
said "not ok 5 20-scsi-debug-invalid-node # exit=1"
unsaid "50-named-disk skipped"
unsaid "20-scsi-debug-invalid-node skipped"
unsaid "11-placement-rescan skipped"
unsaid "patched-two-node-mixed: no case ran"

# A clean run with a skip it expects passes; so does the run whose
# teardown failed, redone clean.
tap patched-two-node 'ok N 01-topology' 'ok N 10-placement-probe' 'ok N 50-named-disk # SKIP no disk named'
tap vanilla-cpuless-teardown 'ok N 01-topology' 'ok N 10-placement-probe'
check patched:two-node:01*,10*,50* vanilla:cpuless:01*,10*:teardown
[ "$rc" = 0 ] || fail "check.sh on clean runs: exit $rc: $(grep '^not ok' "$tmp/out")"
counts patched-two-node 1 0 1 0 4 0
counts vanilla-cpuless-teardown 1 0 0 0 4 0

# A typo: refused, and no guest started.
rm -rf "$sb/build/runs"
check patched:two-nod:01*
[ "$rc" = 2 ] || fail "check.sh on a misspelt topology: exit $rc, not 2"
said "no topology 'two-nod'"
[ ! -d "$sb/build/runs/patched-two-nod" ] || fail "check.sh started a guest for a misspelt topology"

verdict test_check_summary "$n check.sh runs"
