# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# run-extras.sh, sourced by run.sh: what it measures beside fio, each only
# when its option asks: perf stat's remote-DRAM events, t/io_uring's peak
# IOPS, the device's interrupts per CPU, the meter's windows.
# shellcheck disable=SC2154	# run.sh's options (opt_*), settings, DEST

# perf_status EVENT: "counted" (a number in the first field),
# "unknown" (perf has no such event for this CPU: event syntax
# error) or "not-supported" (the PMU does not count it).
perf_status() {
	local o
	o=$(perf stat -a -x, -e "$1:k" -- sleep 0.1 2>&1 >/dev/null) || true
	if grep -q "^[0-9][0-9.]*,.*$1" <<<"$o"; then echo counted
	elif grep -qi "syntax error\|unknown\|not found" <<<"$o"; then echo unknown
	else echo not-supported
	fi
}
# perf_events (--perf): PERF_EVENTS, the kernel-mode remote-DRAM events of
# this CPU that perf can count system-wide (names from the kernel's
# tools/perf/pmu-events/arch/x86 JSON; node-load-misses is perf's generic
# cache event, last resort).  PERF_NOTE says what was used or why nothing was.
perf_events() {
	local vendor cands paranoid ev unknown="" unsupported=""
	vendor=$(awk -F': *' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	case $vendor in
	GenuineIntel)	# loads retired from remote DRAM; offcore demand reads
		cands="mem_load_l3_miss_retired.remote_dram ocr.demand_data_rd.remote_dram
		       ocr.demand_data_rd.l3_miss_remote_dram.snoop_miss_or_no_fwd
		       offcore_response.demand_data_rd.l3_miss_remote_dram.snoop_miss_or_no_fwd" ;;
	AuthenticAMD)	# Zen 4/5, Zen 3, Zen 2 names of "fill from remote DRAM"
		cands="ls_dmnd_fills_from_sys.dram_io_far ls_any_fills_from_sys.dram_io_far
		       ls_dmnd_fills_from_sys.mem_io_remote ls_any_fills_from_sys.mem_io_remote
		       ls_refills_from_sys.ls_mabresp_rmt_dram" ;;
	*) cands="" ;;
	esac
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo "?")
	if ! command -v perf >/dev/null; then
		PERF_NOTE="skipped: perf is not installed (apt-get install linux-perf)"
	elif [ "$(id -u)" != 0 ] && [ "$paranoid" != "?" ] && [ "$paranoid" -gt 0 ]; then
		PERF_NOTE="skipped: system-wide counting needs root or kernel.perf_event_paranoid <= 0 (it is $paranoid)"
	else
		for ev in $cands node-load-misses; do
			# perf's generic event only when the CPU's own ones are missing
			[ "$ev" = node-load-misses ] && [ -n "$PERF_EVENTS" ] && break
			case $(perf_status "$ev") in
			counted) PERF_EVENTS+="${PERF_EVENTS:+,}$ev:k" ;;
			unknown) unknown+=" $ev" ;;
			*) unsupported+=" $ev" ;;
			esac
		done
		if [ -n "$PERF_EVENTS" ]; then
			PERF_NOTE="used: $PERF_EVENTS (perf stat -a, kernel mode)"
		else
			PERF_NOTE="skipped: no remote-DRAM event counts on this CPU (vendor '${vendor:-unknown}',"
			PERF_NOTE+=" $(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: *//')):"
			[ -n "$unknown" ] && PERF_NOTE+=" unknown to this perf:$unknown;"
			[ -n "$unsupported" ] && PERF_NOTE+=" not counted by the PMU (a VM without a PMU?):$unsupported;"
			PERF_NOTE+=" the events are listed in fio-jobs/README"
		fi
	fi
	echo "run.sh: perf: $PERF_NOTE" >&2
}

# iouring_note: IOURING_NOTE, t/io_uring (not in Debian's fio) used or why not.
iouring_note() {
	IOURING_NOTE="skipped: no --iouring (Debian's fio $(fio --version) ships no t/io_uring; build it from fio's source: make t/io_uring)"
	if [ -n "$opt_iouring" ]; then
		if [ -x "$opt_iouring" ] && [ ! -d "$opt_iouring" ]; then
			IOURING_NOTE="used: $opt_iouring"
		else
			IOURING_NOTE="skipped: --iouring '$opt_iouring' is not an executable"
		fi
	fi
	echo "run.sh: t/io_uring: $IOURING_NOTE" >&2
}
# iouring_probe: t/io_uring must work before hours of fio runs depend on
# it: one second on the devices (its options differ between fio versions).
iouring_probe() {
	local probe_out
	if ! probe_out=$("$opt_iouring" -d1 -s1 -c1 -b4096 -p0 -B0 -F1 -O1 -n1 -r1 "${devlist[@]}" 2>&1) ||
		! grep -q 'IOPS=' <<<"$probe_out"; then
		echo "$probe_out" | tail -n 5 >&2
		die "--iouring $opt_iouring does not run here (a t/io_uring of another fio version?)"
	fi
}

# iouring REP: t/io_uring's peak IOPS of 4 KiB random reads, per queue depth
# and submitter, into <base>.iouring (its own output; report.py reads the
# "Maximum IOPS=" line) and one line of OUTDIR/LABEL/iouring.tsv.
iouring() {
	local r=$1 qd node cpus base batch rc
	[ -f "$DEST/iouring.tsv" ] || printf 'label\tqd\tcpu_node\trep\tfile\ttarget\tdev_node\n' > "$DEST/iouring.tsv"
	for qd in $FIO_QDS; do
		for node in $opt_cpu_nodes; do
			cpus=$(node_cpus "$node")
			base=${opt_target:+${opt_target}_}iouring_qd${qd}_cpu${node}_r${r}
			batch=$((qd < 32 ? qd : 32))
			echo "run.sh: [$LABEL] rep $r  t/io_uring  qd=$qd  submitter $node" >&2
			rc=0
			# -p0: interrupts (no poll queues needed); -O1: O_DIRECT; reads only
			taskset -c "$cpus" "$opt_iouring" -d"$qd" -s"$batch" -c"$batch" -b4096 -p0 -B0 -F1 \
				-O1 -n1 -r"$FIO_RUNTIME" "${devlist[@]}" > "$DEST/$base.iouring" 2>&1 || rc=$?
			if [ "$rc" != 0 ] || ! grep -q 'IOPS=' "$DEST/$base.iouring"; then
				tail -n 5 "$DEST/$base.iouring" >&2
				die "t/io_uring failed (qd $qd, submitter $node, rep $r): $DEST/$base.iouring"
			fi
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$LABEL" "$qd" "$node" "$r" "$base.iouring" \
				"${opt_target:--}" "$opt_dev_node" >> "$DEST/iouring.tsv"
		done
	done
}

# irq_counts: "CPU:count ..." of the --irqs interrupts so far, summed
# per CPU (/proc/interrupts: one column per online CPU).
irq_counts() {
	awk -v irqs=" $opt_irqs " 'NR == 1 { for (i = 1; i <= NF; i++) cpu[i] = substr($i, 4); n = NF; next }
		{ q = $1; sub(":", "", q); if (index(irqs, " " q " ")) for (i = 1; i <= n; i++) c[i] += $(i + 1) }
		END { for (i = 1; i <= n; i++) printf "%s:%d ", cpu[i], c[i] }' /proc/interrupts
}
# irq_delta BEFORE AFTER: "CPU:count,..." of the CPUs whose count grew, "0"
# when none did.
irq_delta() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) { split(x[i], p, ":"); split(y[i], q, ":")
			if (q[2] > p[2]) s = s (s ? "," : "") p[1] ":" q[2] - p[2] }
		print s ? s : "0" }'
}

# meter_jobs (--meter): JOBDIR's job files in a new JOBDIR, each opening a
# meter window right before fio's first I/O and closing it after the last
# (exec_prerun/exec_postrun), fio's start-up (exec, libraries, buffers, file
# set-up) and exit outside it.  With numjobs > 1 the first job opens it (the
# others' starts are ignored) and the first to finish closes it.  fio writes
# the commands' output to <job>.prerun.txt / .postrun.txt in DEST.
meter_jobs() {
	local mdir f
	mdir=$(mktemp -d)
	for f in "$JOBDIR"/*.fio; do
		awk -v m="$opt_meter" '{ print } /^\[global\]/ {
			print "exec_prerun=" m " start"; print "exec_postrun=" m " stop" }' "$f" > "$mdir/${f##*/}"
	done
	[ "$JOBDIR" = "$HERE" ] || rm -rf "$JOBDIR"
	JOBDIR=$mdir
	trap 'rm -rf "$JOBDIR"' EXIT
}

# meter_objects FILE: "<kind> <address> <size>" of every object the
# inspector reports with an address (fields 7 and 8 with addresses=1).
meter_objects() {
	local f=/sys/kernel/debug/scsi_numa_inspect
	[ -r "$f" ] || die "--meter-objects: no $f (load scsi_numa_inspect.ko addresses=1)"
	awk '$1 == "obj" && NF >= 8 && $8 > 0 { print $3, $7, $8; n++ }
	     END { if (!n) exit 1 }' "$f" > "$1" ||
		die "--meter-objects: the inspector gave no addresses (addresses=1?)"
}
