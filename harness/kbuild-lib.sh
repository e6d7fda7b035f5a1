# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# harness/kbuild-lib.sh, sourced by kbuild.sh, lint-series.sh (lint-series/
# kconfig.sh) and check-upstream.sh: the one way the harness makes a
# kernel config, and the kernel work trees it builds in.
#
# kconfig_make TREE OUT FRAG...: OUT/.config = tinyconfig of the kernel
#   source TREE, FRAGs merged in (merge_config.sh -m), olddefconfig.  Then
#   every line of the FRAGs must have survived (kunit.py's validate_config):
#   "CONFIG_X=v" as written, "# CONFIG_X is not set" unset; an option TREE
#   does not define (a series-only option on vanilla) is not required.
#   Returns 1, naming the lines that did not survive, otherwise.
# kwt_ensure TREE WT REV: WT is a private, detached git worktree of TREE
#   (created at REV on first use), so that builds never touch TREE's HEAD,
#   index or files.  TREE may be a symlink.  Returns 1 with a message when
#   WT exists but is something else, or has a branch checked out.
kconfig_make() {
	local tree=$1 out=$2 defined line sym missing=""
	shift 2
	make -s -C "$tree" O="$out" tinyconfig >/dev/null || return 1
	(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "$@" >/dev/null) || return 1
	make -s -C "$tree" O="$out" olddefconfig >/dev/null || return 1
	defined=$(mktemp)
	grep -rhoE '^(menu)?config [A-Za-z0-9_]+' --include='Kconfig*' "$tree" | awk '{print $2}' | sort -u > "$defined"
	while read -r line; do
		case $line in
		'# CONFIG_'*' is not set') sym=${line#\# CONFIG_}; sym=${sym%% *} ;;
		''|'#'*) continue ;;
		*) sym=${line%%=*}; sym=${sym#CONFIG_} ;;
		esac
		grep -qxF "$sym" "$defined" || continue
		case $line in
		'#'*) grep -qE "^CONFIG_$sym=" "$out/.config" && missing="$missing $line" ;;
		*) grep -qxF "$line" "$out/.config" || missing="$missing $line" ;;
		esac
	done < <(cat "$@")
	rm -f "$defined"
	if [ -n "$missing" ]; then
		echo "kconfig_make: options not in the generated .config (unsatisfied dependencies?):$missing" >&2
		return 1
	fi
}

kwt_ensure() {
	local tree=$1 wt=$2 rev=$3
	# Compared as git names them: both resolved, so TREE may be a symlink.
	if [ "$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != \
	     "$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir)" ]; then
		[ ! -e "$wt" ] || { echo "$wt exists but is not a worktree of $tree: remove it" >&2; return 1; }
		git -C "$tree" worktree prune
		echo "creating the private worktree $wt (once, about a minute)"
		git -C "$tree" worktree add -q --detach "$wt" "$rev" || return 1
	fi
	! git -C "$wt" symbolic-ref -q HEAD >/dev/null ||
		{ echo "$wt has a branch checked out; it must stay detached" >&2; return 1; }
}
