#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_config.sh (make lint): lib/config.sh against config.example and
# its own rules, in a scratch copy (no environment settings, no config):
# config.example's setting lines (#NAME= or NAME=) are exactly the
# settings config.sh knows (scsi_numa_settings), none missing, none extra,
# and its commented lines, used as a config, give exactly the defaults
# (the two cannot drift apart); the environment beats the file,
# the file beats the default; an unknown name, a retired variable and a
# bad value are refused (exit 2).
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
sed -n 's/^#\([A-Z_]*=\)/\1/p' "$top/config.example" > "$tmp/config"
[ "$(show)" = "$defaults" ] || fail "config.example's values are not config.sh's defaults: $(diff <(echo "$defaults") <(show) | grep '^[<>]' | tr '\n' ' ')"
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
show KTARBALL=x >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "retired KTARBALL in the environment: exit $rc, not 2"
echo "test_config: $(wc -w <<< "$known") settings: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
