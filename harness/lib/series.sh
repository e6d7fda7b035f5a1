# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# series.sh: which series a run measured, sourced by check.sh and
# compare.sh, which record it beside their figures so that cover-letter.sh
# can refuse figures of another series than the one it exports.

# series_measured TOP: "COMMIT TREE" of the patched kernel that
# build/kernels/patched was built from (its commit file, kbuild.sh; TREE
# from build/linux, empty when the commit is not there), or "unknown".
series_measured() {
	local c t
	c=$(cut -d' ' -f1 "$1/build/kernels/patched/commit" 2>/dev/null)
	[ -n "$c" ] || { echo unknown; return; }
	t=$(git -C "$1/build/linux" rev-parse -q --verify "$c^{tree}" 2>/dev/null)
	echo "$c${t:+ $t}"
}
