# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# lib_modules KMODS [BUILD]: give a guest (whose root is the host's /,
# read-only over 9p) the running kernel's modules in /lib/modules/$(uname -r),
# as a machine booted with that kernel has them: /usr/lib becomes a tmpfs of
# links to the real one, plus modules/$(uname -r) with the entries of KMODS (build/kernels/<kernel>/lib/modules/<version>) and, when BUILD is
# given, a build link to it (the kernel's headers).  Used by guest-init's
# host-check mode and blktests/guest-run.  Returns non-zero on failure.
lib_modules() {
	local kmods=$1 build=${2:-} kv e
	kv=$(uname -r)
	[ -d "$kmods" ] || { echo "lib_modules: no modules in $kmods" >&2; return 1; }
	mkdir -p /dev/guest-usrlib /dev/guest-lib || return 1
	mount --bind /usr/lib /dev/guest-usrlib && mount -t tmpfs tmpfs /dev/guest-lib || return 1
	for e in /dev/guest-usrlib/* /dev/guest-usrlib/.[!.]*; do
		[ ! -e "$e" ] || [ "${e##*/}" = modules ] || ln -s "$e" "/dev/guest-lib/${e##*/}" || return 1
	done
	mkdir -p "/dev/guest-lib/modules/$kv" || return 1
	# Directories are bind mounts, not links: tools that walk the tree
	# (blktests' _module_file_exists: find /lib/modules/$(uname -r)/kernel)
	# do not follow a link they start from.
	for e in "$kmods"/*; do
		case ${e##*/} in
		build) ;;
		*)	if [ -d "$e" ] && [ ! -L "$e" ]; then
				mkdir "/dev/guest-lib/modules/$kv/${e##*/}" &&
				mount --bind "$e" "/dev/guest-lib/modules/$kv/${e##*/}" || return 1
			else
				ln -s "$e" "/dev/guest-lib/modules/$kv/" || return 1
			fi ;;
		esac
	done
	[ -z "$build" ] || ln -s "$build" "/dev/guest-lib/modules/$kv/build" || return 1
	mount --rbind /dev/guest-lib /usr/lib
}

# kernel_build_dir KDIR: the object directory the kernel in KDIR
# (build/kernels/<kernel>) was built in, its modules' build link, printed
# when it still holds that kernel's build: System.map identical, and the
# source tree above it (kbuild.sh's worktree build/kbuild-wt) holding the
# kernel's commit's files.  Returns 1, printing nothing, otherwise.  Used
# by guest-init's host-check mode and host-check-judge.sh, which must agree.
kernel_build_dir() {
	local kdir=$1 kb
	kb=$(readlink "$kdir/lib/modules/$(cat "$kdir/kernel.release" 2>/dev/null)/build") || return 1
	# safe.directory: the guest runs as root over a 9p share that shows the
	# host user's files as that user's, and git refuses a repository of
	# another owner ("dubious ownership"): the guest and the host (judging
	# as that user) must come to the same answer.
	cmp -s "$kdir/System.map" "$kb/System.map" &&
		[ "$(git -c safe.directory='*' -C "$kb/.." rev-parse "HEAD^{tree}" 2>/dev/null)" = \
		  "$(git -c safe.directory='*' -C "$kb/.." rev-parse "$(cut -d' ' -f1 "$kdir/commit")^{tree}" 2>/dev/null)" ] ||
		return 1
	echo "$kb"
}
