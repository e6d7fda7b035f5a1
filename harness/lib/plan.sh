#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plan.sh [--names 'NAME..'] [--no-cases] [--list] [RUN..]: what a make
# target is about to do, checked before anything is installed, linted or
# built (the Makefile's "plan", the first prerequisite of check, vm,
# blktests and compare; check.sh reads its runs through it).  Refused,
# each finding named, exit 2:
# - the file "config" or a setting's value (lib/config.sh);
# - a name on make's command line (--names) that is neither a setting nor
#   a variable the Makefile reads (JOB=4);
# - a name in the environment of a setting's family (CHECK_, COMPARE_,
#   FIO_, VM_) that is neither, nor one vm.sh reads (COMPARE_REP=3);
# - a RUN, KERNEL:TOPOLOGY[:CASE-GLOBS[:LABEL]], whose KERNEL the Makefile
#   does not build (kbuild.sh NAME) and build/kernels/ lacks, whose
#   TOPOLOGY is no file of harness/topo/ (or path), whose CASE-GLOBS
#   (comma-separated; empty: every case; "host-check": make host-check in
#   the guest) has a glob naming no case of test/cases/, or whose name
#   KERNEL-TOPOLOGY[-LABEL] (its directory build/runs/NAME) is taken.
# --no-cases: the guest runs no case (make blktests, make compare): RUN is
# KERNEL:TOPOLOGY.  Prints the plan, a line per RUN; --list instead prints
# "KERNEL TOPOLOGY EXPECT CASE-GLOBS [LABEL]" per RUN, for check.sh.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
names="" nocases="" list=""
while [ $# -gt 0 ]; do
	case $1 in
	--names) names=${2:-}; shift 2 ;;
	--no-cases) nocases=1; shift ;;
	--list) list=1; shift ;;
	*) break ;;
	esac
done
# shellcheck source=../../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=expect.sh
. "$top/harness/lib/expect.sh"
bad=0
refuse() { echo "plan: $*" >&2; bad=$((bad + 1)); }
settings=" ${scsi_numa_settings[*]} "
makevars=" $(grep -oE '\$[({][A-Z][A-Z0-9_]*' "$top/Makefile" | cut -c3- | sort -u | tr '\n' ' ')"
for n in $names; do
	[[ $settings$makevars == *" $n "* ]] ||
		refuse "$n (make's command line) is no setting (config.example) and no argument of a target (make help)"
done
fam=$(printf '%s\n' "${scsi_numa_settings[@]}" | sed -n 's/_.*/_/p' | sort -u | paste -sd '|')
known="$settings$makevars $(grep -ohwE 'VM_[A-Z0-9_]+' "$top/harness/vm.sh" | tr '\n' ' ') $names "
for n in $(compgen -e); do
	[[ $n =~ ^($fam) ]] && [[ $known != *" $n "* ]] &&
		refuse "$n (the environment) is no setting (settings: ${scsi_numa_settings[*]})"
done

kernels=$(sed -n 's/.*kbuild\.sh \([^ ]*\) .*/\1/p' "$top/Makefile" | paste -sd ' ')
cases=()
for c in "$top"/test/cases/*; do [ -f "$c" ] && cases+=("${c##*/}"); done
declare -A taken=() sel=()
for spec in "$@"; do
	IFS=: read -r k t c l more <<< "$spec"
	what="" f=$top/harness/topo/$t
	[[ $t == */* ]] && f=$t
	[[ $spec != *[[:space:]]* ]] && [ -z "$more" ] && [[ $k =~ ^[A-Za-z0-9._-]+$ ]] &&
		[[ $l =~ ^[A-Za-z0-9._-]*$ ]] ||
		{ refuse "'$spec': not KERNEL:TOPOLOGY[:CASE-GLOBS[:LABEL]] (names of letters, digits, . _ -)"; continue; }
	[[ " $kernels " == *" $k "* ]] || [ -f "$top/build/kernels/$k/bzImage" ] ||
		refuse "'$spec': no kernel '$k' (the Makefile builds: $kernels)"
	[ -n "$t" ] && [ -f "$f" ] ||
		refuse "'$spec': no topology '$t' (harness/topo: $(ls "$top/harness/topo" | paste -sd ' '))"
	if [ -n "$nocases" ]; then
		[ -z "$c" ] || refuse "'$spec': this target runs no case"
		what="no case (the target's own guest)"
	elif [ "$c" = host-check ]; then
		what="make host-check in the guest"
	else
		sel=()
		IFS=, read -ra globs <<< "${c:-*}"
		for g in "${globs[@]}"; do
			m=""
			# shellcheck disable=SC2053
			for cn in "${cases[@]}"; do [[ $cn == $g ]] && sel[$cn]=1 m=1; done
			[ -n "$m" ] || refuse "'$spec': no case named '$g' (test/cases: ${cases[*]})"
		done
		what=cases
		for cn in "${cases[@]}"; do [ -z "${sel[$cn]:-}" ] || what+=" ${cn%%-*}"; done
	fi
	n=$k-${t##*/}${l:+-$l}
	[ -z "${taken[$n]:-}" ] || refuse "'$spec': a second run named $n (a LABEL tells them apart)"
	taken[$n]=1
	if [ -n "$list" ]; then
		echo "$k $t $(expect_of "$k") ${c:-*} $l"
	else
		printf 'plan: %-28s %-8s %s\n' "$n" "$(expect_of "$k")" "$what"
	fi
done
[ "$bad" = 0 ] || { echo "plan: refused ($bad)" >&2; exit 2; }
[ -n "$list" ] || echo "plan: $# runs; the settings, make's command line and the environment checked"
