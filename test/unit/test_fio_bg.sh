#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# test_fio_bg.sh (make lint): the guest cases' background I/O helper
# (lib/hbas.sh fio_bg, fio_bg_progress, fio_bg_end) on the host, with a
# stand-in fio and a stand-in /sys/block (SYS_BLOCK_DIR).  A job whose
# disk keeps completing I/O passes; an idle one, one that stalls after a
# start, one with an I/O error and one that issued almost nothing fail,
# each saying so.  And no guest case starts fio in the background itself
# (a line "fio ... &"): background I/O goes through fio_bg.
# Exit 1 with what went wrong.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
mkdir -p "$tmp/bin"
# The stand-in fio: FAKE_FIO=busy|idle|stall|error|few.  It adds to the
# disk's completed writes (field 5 of stat) while it runs ("stall": 100 at
# its start, then nothing) and, on SIGINT, writes a result as fio does.
cat > "$tmp/bin/fio" <<'EOF'
#!/usr/bin/env python3
import os, signal, sys, time
mode = os.environ['FAKE_FIO']
out = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--output=')][0]
stat = os.path.join(os.environ['SYS_BLOCK_DIR'], 'sdz', 'stat')
done = [0]


def stop(*_):
    err = 5 if mode == 'error' else 0
    issued = 3 if mode in ('idle', 'few') else done[0]
    with open(out, 'w') as f:
        f.write(f'bg-sdz: (groupid=0, jobs=1): err= {err}: pid={os.getpid()}\n'
                f'  write: IOPS=1, BW=4KiB/s\n'
                f'     issued rwts: total=0,{issued},0,0 short=0,0,0,0 dropped=0,0,0,0\n')
    sys.exit(0)


signal.signal(signal.SIGINT, stop)
open(os.path.join(os.path.dirname(out), 'started'), 'w').close()
while True:
    time.sleep(0.05)
    if mode in ('busy', 'error', 'few') or (mode == 'stall' and not done[0]):
        done[0] += 100 if mode == 'stall' else 10
        with open(stat, 'w') as f:
            f.write(f'0 0 0 0 {done[0]} 0 0 0 0 0 0\n')
EOF
chmod +x "$tmp/bin/fio"

# job MODE: fio_bg, a progress check 1 s after the stand-in has started,
# another after 1 s more, fio_bg_end at once; each check waits 3 s at most.  The helper's words
# and the exit status, as the case's, into $tmp/MODE.out and .rc.
job() {
	mkdir -p "$tmp/$1/sdz"
	echo '0 0 0 0 0 0 0 0 0 0 0' > "$tmp/$1/sdz/stat"
	FAKE_FIO=$1 SYS_BLOCK_DIR=$tmp/$1 FIO_BG_WAIT=3 PATH="$tmp/bin:$PATH" bash -c '
		set -u
		trap "kill \$FIO_PID 2>/dev/null; wait" EXIT
		fail() { echo "FAIL: $*"; exit 1; }
		info() { echo "$*"; }
		. "$0/lib/hbas.sh"
		fio_bg sdz "$1/fio.out" ""
		for _ in $(seq 300); do [ -e "$1/started" ] && break; sleep 0.1; done
		sleep 1; fio_bg_progress "$FIO_PID" "$1/fio.out" "check 1"
		sleep 1; fio_bg_progress "$FIO_PID" "$1/fio.out" "check 2"
		fio_bg_end "$FIO_PID" "$1/fio.out" "end"' "$top" "$tmp/$1" > "$tmp/$1.out" 2>&1
	echo $? > "$tmp/$1.rc"
}
modes=(busy idle stall error few)
for m in "${modes[@]}"; do job "$m" & done
wait
expect() { # MODE WANT-RC WANT-TEXT
	[ "$(cat "$tmp/$1.rc")" = "$2" ] && grep -qF -- "$3" "$tmp/$1.out" ||
		{ echo "FAIL: a $1 background fio: exit $(cat "$tmp/$1.rc"), expected $2 with '$3'; said: $(cat "$tmp/$1.out")"; bad=$((bad + 1)); }
}
expect busy 0 "end: fio write+verify: write: IOPS=1"
expect idle 1 "FAIL: check 1: /dev/sdz completed 0 I/Os in the"
expect stall 1 "FAIL: check 2: /dev/sdz completed"
expect error 1 "FAIL: end: fio saw errors"
expect few 1 "FAIL: end: fio issued 3 writes, fewer than 16"

# Background fio started by a case itself (its lines joined where they end
# in a backslash).
own=$(for c in "$top"/test/cases/*; do
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$c" | grep -nE '(^|[;&|({]|then|do)[[:space:]]*fio .*&[[:space:]]*$' |
		sed "s|^|${c##*/}:|"
done)
[ -z "$own" ] || { echo "FAIL: background fio outside fio_bg (lib/hbas.sh):"; echo "$own"; bad=$((bad + 1)); }

echo "test_fio_bg: ${#modes[@]} background jobs, the cases' own fio: $([ $bad = 0 ] && echo passed || echo "$bad FAILED")"
[ $bad = 0 ]
