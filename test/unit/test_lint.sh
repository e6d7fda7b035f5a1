#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_lint.sh (make lint): make lint's own accounting (harness/lint-lib.sh)
# on stand-in steps.  A step that exits 4 is counted as skipped in the
# verdict line; an undeclared skip fails the lint, a declared one does not
# and is named; a failed step fails it; the same through bg_step/bg_join
# and through bg_queue/bg_lane (one lane, in order).
# unittests' pins: the right counts pass; a module file deleted, a test
# lost, or a module not pinned fails.
# Exit 1 with what went wrong.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }

# run SCRIPT: a fresh shell with lint-lib.sh, SCRIPT, then lint_verdict;
# its output in $tmp/out, its last line in $last, its exit status in $rc.
run() {
	bash -c '. "$0"; lint_bg_dir=$(mktemp -d -p "$1"); eval "$2"; lint_verdict' \
		"$here/../../harness/lint-lib.sh" "$tmp" "$1" > "$tmp/out" 2>&1
	rc=$?
	last=$(tail -n 1 "$tmp/out")
}
expect() { # WANT-RC WANT-LAST WHAT
	[ "$rc" = "$1" ] && [ "$last" = "$2" ] ||
		fail "$3: exit $rc, '$last'; expected exit $1, '$2'; output: $(tr '\n' '|' < "$tmp/out")"
}
run 'step ok true; step --may-skip "x: no network" skip-ok bash -c "exit 4"'
expect 0 "lint: 2 checks, 0 failed, 1 skipped (x: no network)" "a declared skip"
run 'step ok true; step skip bash -c "exit 4"'
expect 1 "lint: 2 checks, 1 failed, 1 skipped (skip: no skip declared)" "an undeclared skip"
run 'step ok true; step bad false'
expect 1 "lint: 2 checks, 1 failed, 0 skipped" "a failed step"
run 'bg_step skip bash -c "exit 4"; bg_step --may-skip "y: why" skip-ok bash -c "exit 4"; bg_step ok true; bg_join'
expect 1 "lint: 3 checks, 1 failed, 2 skipped (skip: no skip declared; y: why)" "skips beside the others"
run 'bg_queue --may-skip "q: why" qskip bash -c "exit 4"; bg_queue qbad false; bg_queue qok true; bg_lane; bg_join'
expect 1 "lint: 3 checks, 1 failed, 1 skipped (q: why)" "steps queued in one lane"
grep -q "^lint: qok (run beside the others)" "$tmp/out" || fail "the lane's last step did not report: $(tr '\n' '|' < "$tmp/out")"
run 'step --may-skip "z: why" bad false'
expect 1 "lint: 1 checks, 1 failed, 0 skipped" "a declared skip that failed"

# unittests on two stand-in modules: test_a (2 tests), test_b (1 test).
mkdir "$tmp/py"
printf 'import unittest\n\n\nclass A(unittest.TestCase):\n    def test_1(self):\n        pass\n\n    def test_2(self):\n        pass\n' > "$tmp/py/test_a.py"
printf 'import unittest\n\n\nclass B(unittest.TestCase):\n    def test_1(self):\n        pass\n' > "$tmp/py/test_b.py"
ut() { bash -c '. "$0"; unittests "${@:1}"' "$here/../../harness/lint-lib.sh" "$tmp/py" "$@" > "$tmp/out" 2>&1; }
ut test_a:2 test_b:1 || fail "unittests with the right pins: $(cat "$tmp/out")"
ut test_a:2 test_b:2 && fail "unittests passed a module with a test less than pinned"
ut test_a:2 && fail "unittests passed a module that is not pinned (test_b)"
rm "$tmp/py/test_b.py"
ut test_a:2 test_b:1 && fail "unittests passed with a pinned module file deleted"
grep -q "test_b.py: missing" "$tmp/out" || fail "unittests did not name the deleted module: $(cat "$tmp/out")"

echo "test_lint: 6 verdicts, 4 pin checks: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
