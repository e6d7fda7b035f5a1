# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lint-series/kconfig.sh, sourced by lint-series.sh: the one config every
# commit is built in, and which files it builds.
#   config_make   makes the config as kbuild.sh does (kconfig_make of
#                 harness/kbuild-lib.sh: tinyconfig + harness/kernel.config
#                 + harness/kernel-compile.config (the converted drivers no
#                 guest boots), merge_config.sh, olddefconfig, every line
#                 checked)
#                 at REV's tip, so that options the series adds exist;
#                 stored as build/lint-series.config (+ .key: the kernel
#                 config fragment and the tip's Kconfig files), remade
#                 when the key changes.
#   sync_config   gives the object directory that config as the checked-out
#                 commit sees it (olddefconfig), when the Kconfig files
#                 differ from the last time ($obj/.lint-config-state, -key).
#   config_on SYM, in_build DIR TOKEN, dir_in_build DIR: what that config
#                 builds, read from the Makefiles' obj-/<module>- lines and
#                 $obj/.config, ignoring ifeq blocks.
# Reads $top, $tip, $at, $wt, $obj, $cfg; uses g, goto, mk, note, die,
# kconfig_make.  Sets
# cfgkey (for sync_config).
: "${top:?}" "${tip:?}" "${at?}" "${wt:?}" "${obj:?}" "${cfg:?}"
frags=("$top/harness/kernel.config" "$top/harness/kernel-compile.config")

config_make() {
	local tmpcfg
	cfgkey=$( { cat "${frags[@]}"; g ls-tree -r "$tip" | grep -E '(^|/)Kconfig[^/]*$|configs/tiny\.config$'; } |
		sha256sum | cut -c1-16)
	if [ ! -f "$cfg" ] || [ "$(cat "$cfg.key" 2>/dev/null)" != "$cfgkey" ]; then
		note "making the config at $(g log -1 --format=%h "$tip") (tinyconfig + harness/kernel.config + harness/kernel-compile.config)"
		goto "$tip"
		tmpcfg=$(mktemp -d "$top/build/lint-cfg.XXXXXX")
		kconfig_make "$wt" "$tmpcfg" "${frags[@]}" || { rm -rf "$tmpcfg"; die "cannot make the config"; }
		cp "$tmpcfg/.config" "$cfg"
		rm -rf "$tmpcfg"
		echo "$cfgkey" > "$cfg.key"
	fi
	mkdir -p "$obj"
}
# Give the object directory the config as the checked-out commit sees it.
# Only needed when the Kconfig files differ from the last time.
sync_config() {
	local last
	last=$(cat "$obj/.lint-config-state" 2>/dev/null || true)
	if [ -n "$last" ] && [ -f "$obj/.config" ] &&
	   [ "$(cat "$obj/.lint-config-key" 2>/dev/null)" = "$cfgkey" ] &&
	   g diff --quiet "$last" "$at" -- ':(glob)**/Kconfig*' 2>/dev/null; then
		return 0
	fi
	cp "$cfg" "$obj/.config"
	mk olddefconfig >/dev/null
	echo "$at" > "$obj/.lint-config-state"
	echo "$cfgkey" > "$obj/.lint-config-key"
}
config_on() { grep -qE "^$1=[ym]\$" "$obj/.config"; }

# Makefile lines of DIR that name TOKEN (x.o, sub/): their left-hand sides.
mkfile_lhs() {
	local mf=$wt/$1/Makefile
	[ -f "$wt/$1/Kbuild" ] && mf=$wt/$1/Kbuild
	[ -f "$mf" ] || return 0
	awk -v t="$2" '
	{ line = line $0 }
	/\\$/ { sub(/\\$/, " ", line); next }
	{
		if (match(line, /^[ \t]*[^ \t:+?=#]+[ \t]*[:+?]?=/)) {
			lhs = substr(line, 1, RLENGTH); rhs = substr(line, RLENGTH + 1)
			sub(/[ \t]*[:+?]?=$/, "", lhs); sub(/^[ \t]+/, "", lhs)
			n = split(rhs, word, /[ \t]+/)
			for (i = 1; i <= n; i++) if (word[i] == t) { print lhs; break }
		}
		line = ""
	}' "$mf"
}
# in_build DIR TOKEN: does the checked-out tree's kbuild, with $obj/.config,
# build TOKEN of DIR?  Top-level directories count as built.
in_build() {
	local dir=$1 tok=$2 lhs sym mod
	while read -r lhs; do
		case $lhs in
		obj-y|obj-m|lib-y)
			dir_in_build "$dir" && return 0 ;;
		'obj-$(CONFIG_'*')')
			sym=${lhs#obj-\$(}; sym=${sym%)}
			config_on "$sym" && dir_in_build "$dir" && return 0 ;;
		*-'$(CONFIG_'*')')
			mod=${lhs%%-\$(*}; sym=${lhs#*-\$(}; sym=${sym%)}
			config_on "$sym" && in_build "$dir" "$mod.o" && return 0 ;;
		*-y|*-objs|*-m)
			mod=${lhs%-*}
			case $mod in obj|lib|ccflags|asflags|ldflags|subdir|always|targets|hostprogs|userprogs) continue ;; esac
			in_build "$dir" "$mod.o" && return 0 ;;
		esac
	done < <(mkfile_lhs "$dir" "$tok")
	# A subdirectory without a Makefile of its own: the parent names the
	# object with its path (obj-$(CONFIG_X) += tests/x_kunit.o).
	if [ ! -f "$wt/$dir/Makefile" ] && [ ! -f "$wt/$dir/Kbuild" ]; then
		case $dir in */*) in_build "${dir%/*}" "${dir##*/}/$tok" && return 0 ;; esac
	fi
	return 1
}
dir_in_build() {
	case $1 in */*) in_build "${1%/*}" "${1##*/}/" ;; *) return 0 ;; esac
}
