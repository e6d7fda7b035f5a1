#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-id.sh: print a new run id, DATE-COMMIT: the UTC start time and the
# repository's commit ("+dirty" with uncommitted changes to tracked files).
# check.sh and compare.sh record it with what they write; cover-letter.sh
# refuses to mix figures of different make check runs by it.
top=$(cd "$(dirname "$0")/.." && pwd)
c=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null) || c=nogit
[ "$c" = nogit ] || git -C "$top" diff --quiet HEAD -- 2>/dev/null || c=$c+dirty
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ)-$c"
