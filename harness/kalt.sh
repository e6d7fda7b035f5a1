#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kalt.sh NAME: commit patches/alt/NAME.patch on top of branch patched of
# build/linux as branch NAME, and print that commit.  The alternatives in
# patches/alt/ are kernels the harness measures against (rule-b: make
# compare-rules), never posted.  Nothing is checked out: the commit is
# made in a temporary index, so build/linux's HEAD, index and files stay
# as they are.  A branch NAME already on top of the current patched with
# the same patch is reused.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: kalt.sh NAME}
tree=$top/build/linux
patch=$top/patches/alt/$name.patch
g() { git -C "$tree" "$@"; }
die() { echo "kalt: $*" >&2; exit 1; }
[ -f "$patch" ] || die "no $patch"
base=$(g rev-parse --verify -q "patched^{commit}") || die "no branch patched in $tree (make tree)"
sum=$(sha256sum < "$patch" | cut -d' ' -f1)
if cur=$(g rev-parse --verify -q "refs/heads/$name^{commit}") &&
   [ "$(g rev-parse -q --verify "$cur^")" = "$base" ] &&
   g log -1 --format=%B "$cur" | grep -qx "scsi-numa-alt: $sum"; then
	echo "$cur"
	exit 0
fi
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
export GIT_INDEX_FILE=$idx
g read-tree "$base"
g apply --cached "$patch" || die "patches/alt/$name.patch does not apply on branch patched"
treeid=$(g write-tree)
info=$(mktemp -d)
trap 'rm -f "$idx"; rm -rf "$info"' EXIT
subject=$(git mailinfo "$info/msg" "$info/diff" < "$patch" | sed -n 's/^Subject: //p')
msg=$(printf '%s\n\n' "$subject"; cat "$info/msg")
commit=$(printf '%s\n\nscsi-numa-alt: %s\n' "$msg" "$sum" |
	GIT_AUTHOR_NAME="scsi_numa project" GIT_AUTHOR_EMAIL=scsi_numa@localhost \
	GIT_COMMITTER_NAME="scsi_numa builder" GIT_COMMITTER_EMAIL=builder@localhost \
	GIT_AUTHOR_DATE="$(g log -1 --format=%aD "$base")" GIT_COMMITTER_DATE="$(g log -1 --format=%cD "$base")" \
	g commit-tree "$treeid" -p "$base")
g update-ref "refs/heads/$name" "$commit"
echo "$commit"
