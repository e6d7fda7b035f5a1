#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_skip_expected.sh (make lint): check.sh's skip_expected, the skips a
# run may have, follows the topology file's facts, read when asked, not
# the topology's name: every topology of harness/topo/ as it stands, then
# copies of them under their own names with a fact changed (slub_debug=U
# dropped or added; a second node with CPUs added or the CPUs of all but
# one node taken away): the pins of cases 12 and 41 must move with them.
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
# tracks FILE / cpunodes FILE: the facts, from the file (not from check.sh).
tracks() { (. "$1"; [[ " ${TOPO_CMDLINE:-} " =~ \ slub_debug=[^\ ]*U ]]) && echo no || echo yes; }
cpunodes() { (. "$1"; c=0; for x in "${TOPO_NODE_CPUS[@]}"; do [ -z "$x" ] || c=$((c + 1)); done; echo "$c"); }
for f in "$real_top"/harness/topo/*; do
	t=${f##*/}
	want "$t" 12-alloc-cpus "$(tracks "$f")" "as it stands"
	c=$(cpunodes "$f")
	want "$t" 41-cpu-offline "$([ "$c" -lt 2 ] && echo yes || echo no)" "as it stands, $c nodes with CPUs"
	want "$t" 10-placement-probe no "a case no topology skips"
done
# Edited copies, under the same names: top is the sandbox's.
mkdir -p "$tmp/harness/topo"
top=$tmp
for f in "$real_top"/harness/topo/*; do
	t=${f##*/} g=$tmp/harness/topo/${f##*/}
	if [ "$(tracks "$f")" = no ]; then
		sed 's/^TOPO_CMDLINE=.*//' "$f" > "$g"
		want "$t" 12-alloc-cpus yes "edited: slub_debug=U dropped"
	else
		{ cat "$f"; echo 'TOPO_CMDLINE="slub_debug=U"'; } > "$g"
		want "$t" 12-alloc-cpus no "edited: slub_debug=U added"
	fi
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
verdict test_skip_expected "$n pins on $(ls "$real_top/harness/topo" | wc -l) topologies and edited copies"
