#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_skip_expected.sh (make lint): check.sh's skip_expected, the skips a
# run may have, follows the topology file's facts, read when asked, not
# the topology's name: every topology of harness/topo/ as it stands, then
# copies of them under their own names with a fact changed (a second node
# with CPUs added or the CPUs of all but one node taken away): the pins of
# case 41 must move with them.  Case 12 may skip nowhere: its guest boots
# with SLUB's tracking because its header asks for it, and vm.sh's
# case_boot must say so for every case list that selects it (11 too), and
# for none that does not.
# shellcheck source=unit-lib.sh
. "$(dirname "$0")/unit-lib.sh"
fn=$(sed -n '/^skip_expected() {$/,/^}$/p' "$top/harness/check.sh")
[ -n "$fn" ] || { fail "no skip_expected() in harness/check.sh"; verdict test_skip_expected "no function"; exit; }
real_top=$top
eval "$fn"
# want TOPOLOGY CASE yes|no WHY: skip_expected patched TOPOLOGY CASE.
want() {
	local got=no
	n=$((n + 1))
	skip_expected patched "$1" "$2" && got=yes
	[ "$got" = "$3" ] || fail "$1 (${4}): a skip of $2 expected: $got, should be $3"
}
# cpunodes FILE: the fact, from the file (not from check.sh).
cpunodes() { (. "$1"; c=0; for x in "${TOPO_NODE_CPUS[@]}"; do [ -z "$x" ] || c=$((c + 1)); done; echo "$c"); }
for f in "$real_top"/harness/topo/*; do
	t=${f##*/}
	want "$t" 12-alloc-cpus no "as it stands: its header asks for the tracking"
	c=$(cpunodes "$f")
	want "$t" 41-cpu-offline "$([ "$c" -lt 2 ] && echo yes || echo no)" "as it stands, $c nodes with CPUs"
	want "$t" 10-placement-probe no "a case no topology skips"
done
# Edited copies, under the same names: top is the sandbox's.
mkdir -p "$tmp/harness/topo"
top=$tmp
for f in "$real_top"/harness/topo/*; do
	t=${f##*/} g=$tmp/harness/topo/${f##*/}
	if [ "$(cpunodes "$f")" -lt 2 ]; then
		{ cat "$f"; echo 'TOPO_NODES=2 TOPO_NODE_CPUS=(0 1)'; } > "$g"
		want "$t" 41-cpu-offline no "edited: a second node with CPUs"
	else
		{ cat "$f"; echo 'TOPO_NODE_CPUS=(0-1 "" "" "")'; } > "$g"
		want "$t" 41-cpu-offline yes "edited: one node with CPUs"
	fi
	# A path instead of a name: the file at that path.
	want "$g" 41-cpu-offline "$([ "$(cpunodes "$g")" -lt 2 ] && echo yes || echo no)" "a path"
done
# vm.sh's case_boot CASES, on the repository's cases.
fn=$(sed -n '/^case_boot() {$/,/^}$/p' "$real_top/harness/vm.sh")
[ -n "$fn" ] || fail "no case_boot() in harness/vm.sh"
eval "$fn"
top=$real_top
for c in "01*,2*,40*:" "01*,10*,30*:" "01*,13*:" "12*:slub_debug=U" "01*,1*,21*:slub_debug=U" \
	 "11-placement-rescan:slub_debug=U" ":slub_debug=U"; do
	n=$((n + 1))
	got=$(case_boot "${c%%:*}")
	[ "$got" = "${c#*:}" ] || fail "case_boot '${c%%:*}': '$got', should be '${c#*:}'"
done
verdict test_skip_expected "$n pins on $(ls "$real_top/harness/topo" | wc -l) topologies and edited copies"
