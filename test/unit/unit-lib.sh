# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the shell unit tests: $top (the checkout), $tmp (removed on
# exit), fail MESSAGE (counts into $bad), verdict NAME WHAT (the last
# line and the exit status).
set -u
# shellcheck disable=SC2034 # top, n: for the sourcing test
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2034
bad=0 n=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
verdict() { echo "$1: $2: $([ "$bad" = 0 ] && echo passed || echo "$bad FAILED")"; [ "$bad" = 0 ]; }
