#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_plan.sh (make lint): the Makefile's plan (harness/lib/plan.sh) in a copy
# whose harness scripts are stand-ins that only say they ran: a misspelt
# setting (command line, environment, config), kernel, topology, case
# glob or a run named twice is refused by every target that boots a
# guest, in under 5 s, naming the culprit, before anything else runs;
# a good plan is printed, one line per run, before the first stand-in.
# shellcheck source=unit-lib.sh
. "$(dirname "$0")/unit-lib.sh"
sb=$tmp/sb
mkdir -p "$sb/lib" "$sb/harness/lib" "$sb/blktests" "$sb/test"
cp "$top/Makefile" "$sb/"
cp "$top/lib/config.sh" "$sb/lib/" && cp "$top"/harness/lib/{plan,expect}.sh "$sb/harness/lib/"
ln -s "$top/harness/topo" "$sb/harness/topo"
ln -s "$top/test/cases" "$sb/test/cases"
for s in $(grep -o '$(H)/[a-z.-]*' "$top/Makefile" | sed 's|$(H)/||' | sort -u) ../blktests/run.sh ../blktests/table.py; do
	printf '#!/bin/sh\necho "ran: %s $*"\n' "$s" > "$sb/harness/$s"
	chmod +x "$sb/harness/$s"
done
# mk [VAR=VALUE..] -- MAKE-ARGS..: make in the copy with only PATH and
# these in its environment; its output in $tmp/out, rc, ms.
mk() {
	local envs=() s
	while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
	n=$((n + 1)) s=$(date +%s%N)
	env -i PATH="$PATH" "${envs[@]}" make -s --no-print-directory -C "$sb" "$@" > "$tmp/out" 2>&1
	rc=$? ms=$(( ($(date +%s%N) - s) / 1000000 ))
}
# refused TEXT[|TEXT..] [VAR=VALUE..] -- MAKE-ARGS..: make fails fast,
# saying each TEXT, and nothing ran.
refused() {
	local say
	IFS='|' read -ra say <<< "$1"; shift
	mk "$@"
	[ "$rc" != 0 ] || fail "$*: exit 0"
	for s in "${say[@]}"; do
		grep -qF -- "$s" "$tmp/out" || fail "$*: does not say '$s': $(head -c 300 "$tmp/out")"
	done
	! grep -q '^ran: ' "$tmp/out" || fail "$*: ran before refusing: $(grep -m 1 '^ran: ' "$tmp/out")"
	[ "$ms" -lt 5000 ] || fail "$*: refused after $ms ms, not within 5 s"
}

# Each finding is named, not only the first.
cl="JOB (make's command line) is no setting|CHECK_RUN (make's command line) is no setting"
env="FIO_QD (the environment) is no setting|COMPARE_REP (the environment) is no setting"
refused "$cl|$env" FIO_QD=4 COMPARE_REP=3 -- check JOB=4 CHECK_RUN=patched:two-node
for t in check-full compare-smoke compare-scan compare-rules; do
	refused "$cl" -- "$t" JOB=4 CHECK_RUN=patched:two-node
done
refused "no topology 'nosuch'|no case named '1x*'|no kernel 'pached'|a second run named patched-two-node-a|not KERNEL:TOPOLOGY" \
	-- check 'CHECK_RUNS=patched:nosuch patched:two-node:01*,1x* pached:two-node patched:two-node::a patched:two-node:1*:a p:t:1*:a:b'
refused "COMPARE_REPS='abc': a positive whole number" -- check COMPARE_REPS=abc
refused "no case named 'nosuch*'|$cl" -- vm 'CASES=nosuch*' JOB=4 CHECK_RUN=x
refused "no topology 'nosuch'|$env" FIO_QD=4 COMPARE_REP=3 -- blktests TOPO=nosuch
refused "no topology 'nosuch'|$env" FIO_QD=4 COMPARE_REP=3 -- compare RULES_TOPO=nosuch
echo 'COMPARE_REP=3' > "$sb/config"
refused "sets COMPARE_REP, which is not a setting" -- check
rm "$sb/config"

# The good plans: printed, a line per run, before anything runs.
mk -- check
runs=$(grep -c '^plan: [a-z]' "$tmp/out")
args=$(grep '^ran: check.sh' "$tmp/out" | wc -w)
[ "$rc" = 0 ] || fail "make check: exit $rc: $(head -n 5 "$tmp/out")"
[ "$runs" -gt 1 ] && [ "$runs" = $((args - 2)) ] ||
	fail "make check: $runs plan lines for $((args - 2)) runs of check.sh"
[ "$(grep -n '^ran: ' "$tmp/out" | head -n 1 | cut -d: -f1)" -gt "$runs" ] ||
	fail "make check: something ran before the plan: $(head -n 3 "$tmp/out")"
grep -q '^plan: patched-two-node-host  *patched  make host-check in the guest$' "$tmp/out" ||
	fail "make check: no plan line for the host-check run: $(grep host "$tmp/out")"
mk -- vm K=vanilla TOPO=one-node 'CASES=01*,1*'
grep -qx 'plan: vanilla-one-node  *vanilla  cases 01 10 11 12 13' "$tmp/out" ||
	fail "make vm: the plan: $(head -n 3 "$tmp/out")"
grep -q "^ran: vm.sh vanilla one-node 01\*,1\*$" "$tmp/out" || fail "make vm: vm.sh not run as asked: $(cat "$tmp/out")"
for t in blktests compare check-full; do
	mk -- "$t" BLKTESTS=/nonexistent
	[ "$rc" = 0 ] && grep -q '^ran: ' "$tmp/out" || fail "make $t: exit $rc: $(head -n 3 "$tmp/out")"
done

verdict test_plan "$n makes"
