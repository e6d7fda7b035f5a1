# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# cpulist.sh: the shell's one parser of CPU and node lists as sysfs and the
# topology files (harness/topo/) write them: "0-1,4", "" = none.
# Sourced by vm.sh, common.sh (the cases) and fio-jobs/run.sh; the Python
# has cpulist.py, of the same language (test_cpulist.py compares them).

# cpulist_expand LIST: "0-1,4" -> "0 1 4"
cpulist_expand() {
	local r i out=()
	for r in ${1//,/ }; do
		for ((i = ${r%-*}; i <= ${r#*-}; i++)); do out+=("$i"); done
	done
	echo "${out[*]}"
}

# cpulist_count LIST: "0-1,4" -> 3
cpulist_count() {
	local a
	read -ra a <<< "$(cpulist_expand "$1")"
	echo "${#a[@]}"
}

# cpulist_has N LIST: is N in LIST?
cpulist_has() { [[ " $(cpulist_expand "$2") " == *" $1 "* ]]; }
