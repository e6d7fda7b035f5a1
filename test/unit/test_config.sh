#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_config.sh (make lint): lib/config.sh against config.example and
# its own rules, in a scratch copy (no environment settings, no config):
# config.example's setting lines (#NAME= or NAME=) are exactly the
# settings config.sh knows (scsi_numa_settings), none missing, none extra;
# every other line is blank or a comment; its setting lines, commented or
# not, used as a config give exactly the defaults, and so does the file
# as it is (cp config.example config): a line uncommented with another
# value fails (checked on altered copies too); the environment beats the file,
# the file beats the default; an unknown name and a bad value are refused
# (exit 2).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lib" && cp "$top/lib/config.sh" "$tmp/lib/"
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
# show: every setting, as config.sh leaves it, one line each.
show() { env -i PATH="$PATH" "$@" bash -c '. "$0/lib/config.sh" &&
	for v in "${scsi_numa_settings[@]}"; do echo "$v=${!v}"; done' "$tmp"; }
defaults=$(show) || fail "config.sh without a config: exit $?"
# The settings, one a line: config.sh's list and config.example's lines.
known=$(env -i bash -c '. "$0/lib/config.sh" && printf "%s\n" "${scsi_numa_settings[@]}"' "$tmp" | sort)
listed=$(sed -n 's/^#\{0,1\}\([A-Z_][A-Z0-9_]*\)=.*/\1/p' "$top/config.example" | sort)
[ "$(wc -w <<< "$known")" -gt 0 ] || fail "config.sh lists no settings (scsi_numa_settings)"
missing=$(comm -23 <(echo "$known") <(echo "$listed") | tr '\n' ' ')
extra=$(comm -13 <(echo "$known") <(echo "$listed") | tr '\n' ' ')
[ -z "$missing" ] || fail "config.example lacks the settings: $missing"
[ -z "$extra" ] || fail "config.example has lines for what is no setting: $extra"
dups=$(uniq -d <<< "$listed" | tr '\n' ' ')
[ -z "$dups" ] || fail "config.example lists twice: $dups"
# example_ok FILE: FILE, as config.example, holds only comments, blank
# lines and setting lines; those, commented or not, give the defaults, and
# so does FILE as it is.  Says what differs.
example_ok() {
	local ok=0 other
	other=$(grep -nvE '^(#.*|[[:space:]]*|#?[A-Z_][A-Z0-9_]*=.*)$' "$1")
	[ -z "$other" ] || { echo "$1: neither a comment nor a setting line: $other"; ok=1; }
	sed -n 's/^#\{0,1\}\([A-Z_][A-Z0-9_]*=\)/\1/p' "$1" > "$tmp/config"
	[ "$(show 2>&1)" = "$defaults" ] ||
		{ echo "$1: its setting lines are not config.sh's defaults: $(diff <(echo "$defaults") <(show 2>&1) | grep '^[<>]' | tr '\n' ' ')"; ok=1; }
	cp "$1" "$tmp/config"
	[ "$(show 2>&1)" = "$defaults" ] ||
		{ echo "$1: as a config, not config.sh's defaults: $(diff <(echo "$defaults") <(show 2>&1) | grep '^[<>]' | tr '\n' ' ')"; ok=1; }
	rm -f "$tmp/config"
	return $ok
}
out=$(example_ok "$top/config.example") || fail "$out"
# Altered copies: a line uncommented with another value, with the default,
# and a setting exported on a line of its own.
sed 's/^#FIO_QDS=.*/FIO_QDS=64/' "$top/config.example" > "$tmp/example"
example_ok "$tmp/example" > /dev/null && fail "config.example with FIO_QDS=64 uncommented passed"
sed 's/^#\(COMPARE_REPS=.*\)/\1/' "$top/config.example" > "$tmp/example"
out=$(example_ok "$tmp/example") || fail "config.example with COMPARE_REPS's default uncommented failed: $out"
echo 'export FIO_RUNTIME=9' >> "$tmp/example"
example_ok "$tmp/example" > /dev/null && fail "config.example with 'export FIO_RUNTIME=9' passed"
echo 'COMPARE_REPS=7' > "$tmp/config"
show | grep -qx 'COMPARE_REPS=7' || fail "the file's value not taken"
show COMPARE_REPS=9 | grep -qx 'COMPARE_REPS=9' || fail "the environment does not beat the file"
show COMPARE_REPS= | grep -qx 'COMPARE_REPS=7' || fail "an empty environment value hides the file's"
for c in 'NOT_A_SETTING=1' 'COMPARE_REPS=0' 'VM_ACCEL=kvm' 'FIO_QDS="1 x"'; do
	echo "$c" > "$tmp/config"
	show >/dev/null 2>&1; rc=$?
	[ "$rc" = 2 ] || fail "config '$c': exit $rc, not 2"
done
rm "$tmp/config"
echo "test_config: $(wc -w <<< "$known") settings: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
