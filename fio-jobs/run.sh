#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh - run the fio jobs of this directory once per (repetition, job,
# queue depth, submitter) on one kernel and record the JSON results for
# report.py.  Host mode (a real server) and the guests (make compare) alike.
#
#   run.sh [OPTION..] OUTDIR LABEL DEVICE[:DEVICE..]
#
# LABEL names the kernel (vanilla, patched).  DEVICE is a block device or
# a regular file on a disk filesystem (not tmpfs); several are separated
# by ':' and share every run.
#
# Settings (what each does: config.example; from the environment, else the
# file "config" at the top of the repository, else lib/config.sh's
# defaults, which this script sources):
#   FIO_JOBS      job names (<name>.fio here)
#   FIO_QDS       queue depths
#   FIO_RUNTIME   seconds measured per run
#   FIO_NUMJOBS   fio processes per run
#   COMPARE_REPS  repetitions per kernel: every run this many times
# Each run also has 1 s of warm-up (ramp) and uses the first 64 MiB of
# each DEVICE (the I/O path, not the medium, is what is measured).
#
# Options (this call only; defaults in brackets):
#   --target NAME       what DEVICE is (scsi_debug, ahci, ...): prefixes
#                       the result files, fills the manifest's target
#                       column                               [none: "-"]
#   --dev-node N        the device's NUMA node, when sysfs gives none
#                       (scsi_debug, NVMe multipath); -1: it has none
#                       [the nearest numa_node file above the device in
#                       sysfs; "-" when there is none]
#   --cpu-nodes LIST    submitters: node numbers and "unpinned", separated
#                       by commas or spaces ("0,1", "1 unpinned")
#                       [every node with CPUs, then unpinned; no unpinned
#                       with --meter]
#   --mem-node N        fio's buffers on node N (bind:N)  [the submitter's]
#   --rep-start N       number of the first repetition              [1]
#   --confirm-write DEVICE
#                       DEVICE may be overwritten: the write jobs
#                       (randwrite-4k, randrw-70-30-4k) run only when
#                       every DEVICE is named so; once per device [none]
#   --perf              wrap each fio run in "perf stat -a" with the
#                       kernel-mode remote-DRAM events this CPU has
#                       (README); <file>.perf next to the JSON; skipped
#                       with the reason (no perf, no such event, no
#                       permission)                                [off]
#   --iouring PATH      t/io_uring of fio's source tree (Debian's fio
#                       ships none): after each repetition's fio runs,
#                       its peak IOPS per submitter and queue depth (4 KiB
#                       random reads, no polling), <file>.iouring [none]
#   --irqs LIST         IRQ numbers (the device's), by commas or spaces:
#                       each run's interrupts of these per CPU go to the
#                       manifest's irq_cpus column ("CPU:count,..." of the
#                       CPUs that took any)                       [none]
#   --meter CMD         marker command (qemu-plugin's scsi_numa_meter_mark):
#                       each fio run is one meter window, opened by fio's
#                       exec_prerun (after fio's set-up, right before the
#                       I/O and the ramp) with "CMD start", closed by
#                       exec_postrun ("CMD stop")                 [none]
#   --meter-seq FILE    with --meter: the file counting the windows opened
#                       in this guest, so that the manifest gives each
#                       run's window number          [OUTDIR/meter-windows]
#   --meter-objects FILE  with --meter: before each window, write the SCSI
#                       objects' address ranges (the placement inspector
#                       loaded with addresses=1) to FILE, which the meter
#                       reads at the window's start to attribute remote
#                       accesses to object kinds                  [none]
#   -h, --help          this text
#
# Smoke run, then the report of two kernels' result
# directories:
#   COMPARE_REPS=2 FIO_RUNTIME=2 run.sh --target scsi_debug --dev-node 1 OUT LABEL /dev/sdX
#   report.py --out REPORTDIR OUT/vanilla OUT/patched
#     (REPORTDIR/report.{txt,json,tsv}; exit 0 written, 1 bad input, 2 usage)
# Exit status: 0 every run done; 1 a run failed or something is missing
# (perf and t/io_uring are optional: skipped with the reason); 2 usage or
# refused (a write job without --confirm-write, a device in use, a bad
# value, an unknown option, a FIO_* variable of earlier versions).
#
# Safety: the jobs run read-only (fio --readonly) unless FIO_JOBS holds a
# write job; that is refused unless every DEVICE is named again with
# --confirm-write, and even then when a DEVICE, or a partition of it, is
# mounted, swap or held by another device: make host-check's rule
# (DISK=/dev/sdX CONFIRM_WRITE=/dev/sdX), one function for both
# (lib/write-guard.sh).
#
# Submitters: fio runs with its CPUs and memory on each CPU node in turn
# (cpus_allowed = the node's CPUs, numa_mem_policy=bind:<node>), then
# "unpinned": every online CPU, no memory policy, as an unconfigured
# server runs it.  The device's node (manifest column dev_node) tells
# report.py which submitters are local and which remote.
#
# Results go to OUTDIR/LABEL/[<target>_]<job>_qd<qd>_cpu<submitter>_r<rep>.json,
# one line per run is appended to OUTDIR/LABEL/manifest.tsv; fio's stderr,
# if any, is kept in a .log next to the JSON file.  run-info.txt records
# the command line, kernel, fio version, settings, and whether perf /
# t/io_uring ran or why not.
#
# The repetition is the outer loop, so slow drift (thermal, background
# activity) hits every configuration alike.  An orchestrator that
# alternates kernels calls this with COMPARE_REPS=1 --rep-start R for
# R = 1, 2, ... (harness/guest-compare).
#
# It only relies on its own directory (the job files, run-extras.sh),
# ../lib/{config,cpulist,write-guard}.sh (a checkout of the
# repository), sysfs and fio in $PATH (taskset, perf, t/io_uring when used).
set -euo pipefail

die() { echo "run.sh: error: $*" >&2; exit 1; }
refuse() { echo "run.sh: refused: $*" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^set -euo pipefail/p' "$0" | sed '$d;s/^# \{0,1\}//'; }

cmdline=$*	# for run-info.txt
opt_target="" opt_dev_node="" opt_cpu_nodes="" opt_mem_node="" opt_rep_start=1
opt_perf=0 opt_iouring="" opt_irqs="" opt_meter="" opt_meter_seq="" opt_meter_objects=""
confirm=()
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--perf) opt_perf=1; shift; continue ;;
	--) shift; break ;;
	--target|--dev-node|--cpu-nodes|--mem-node|--rep-start|--confirm-write|--iouring|--irqs|--meter|--meter-seq|--meter-objects)
		[ $# -ge 2 ] || refuse "$1 needs a value (run.sh --help)" ;;
	-*) refuse "unknown option '$1' (run.sh --help)" ;;
	*) break ;;
	esac
	case $1 in
	--target) opt_target=$2 ;;
	--dev-node) opt_dev_node=$2 ;;
	--cpu-nodes) opt_cpu_nodes=${2//,/ } ;;
	--mem-node) opt_mem_node=$2 ;;
	--rep-start) opt_rep_start=$2 ;;
	--confirm-write) confirm+=("$2") ;;
	--iouring) opt_iouring=$2 ;;
	--irqs) opt_irqs=${2//,/ } ;;
	--meter) opt_meter=$2 ;;
	--meter-seq) opt_meter_seq=$2 ;;
	--meter-objects) opt_meter_objects=$2 ;;
	esac
	shift 2
done
[ $# -eq 3 ] || refuse "usage: $0 [OPTION..] OUTDIR LABEL DEVICE[:DEVICE..] (run.sh --help)"
OUTDIR=$1 LABEL=$2 DEVS=$3
[[ $LABEL =~ ^[A-Za-z0-9._+-]+$ ]] || refuse "LABEL '$LABEL': use letters, digits, . _ + - only"

# FIO_JOBS, FIO_QDS, FIO_RUNTIME, FIO_NUMJOBS, COMPARE_REPS (checked there).
for f in config cpulist write-guard; do
	[ -f "$HERE/../lib/$f.sh" ] ||
		die "no $HERE/../lib/$f.sh: run run.sh from a checkout of the repository"
done
# shellcheck source=../lib/config.sh
. "$HERE/../lib/config.sh"
# cpulist_expand: "0-2,5" -> "0 1 2 5" (the repository's one parser).
# shellcheck source=../lib/cpulist.sh
. "$HERE/../lib/cpulist.sh"
# same_device, device_in_use: the rule for writing.
# shellcheck source=../lib/write-guard.sh
. "$HERE/../lib/write-guard.sh"
# perf_events, iouring*, irq_*, meter_*: what is measured beside fio.
# shellcheck source=run-extras.sh
. "$HERE/run-extras.sh"
command -v fio >/dev/null || die "fio not found in PATH (apt-get install fio)"

# Not settings: how each run is made.
RAMP=1 SIZE=64M
[ -n "$opt_meter_seq" ] || opt_meter_seq=$OUTDIR/meter-windows
[[ $opt_irqs =~ ^[0-9\ ]*$ ]] || refuse "--irqs '$opt_irqs': IRQ numbers"
[ -z "$opt_target" ] || [[ $opt_target =~ ^[A-Za-z0-9.+-][A-Za-z0-9._+-]*$ ]] ||
	refuse "--target '$opt_target': use letters, digits, . _ + - only"
[ -z "$opt_dev_node" ] || [[ $opt_dev_node =~ ^(-1|[0-9]+)$ ]] ||
	refuse "--dev-node '$opt_dev_node': a node number (-1: the device has none)"
[ -z "$opt_mem_node" ] || [[ $opt_mem_node =~ ^[0-9]+$ ]] ||
	refuse "--mem-node '$opt_mem_node': a node number"
[[ $opt_rep_start =~ ^[1-9][0-9]*$ ]] || refuse "--rep-start '$opt_rep_start': a repetition number (1, 2, ...)"
if [ -n "$opt_meter" ]; then
	[ -x "$opt_meter" ] || die "--meter '$opt_meter' is not an executable (make -C qemu-plugin)"
else
	[ -z "$opt_meter_objects" ] || refuse "--meter-objects without --meter"
fi

# The jobs, and whether any writes: a job writes unless its rw= is a read
# (read, randread).  Writing needs every device confirmed (write-guard.sh).
WRITES=0 wjobs=""
for job in $FIO_JOBS; do
	[ -f "$HERE/$job.fio" ] || refuse "no job file $HERE/$job.fio (FIO_JOBS='$FIO_JOBS')"
	grep -qE '^rw=(rand)?read$' "$HERE/$job.fio" || { WRITES=1; wjobs+=" $job"; }
done
IFS=: read -ra devlist <<<"$DEVS"
[ ${#devlist[@]} -gt 0 ] || refuse "no DEVICE"
# A confirmation must name a device of this call: a typo is no confirmation.
for c in "${confirm[@]}"; do
	hit=0
	for d in "${devlist[@]}"; do same_device "$c" "$d" && hit=1; done
	[ $hit = 1 ] || refuse "--confirm-write $c does not name a DEVICE of this call ($DEVS)"
done
if [ $WRITES = 1 ]; then
	for d in "${devlist[@]}"; do
		hit=0
		for c in "${confirm[@]}"; do same_device "$c" "$d" && hit=1; done
		[ $hit = 1 ] || refuse "FIO_JOBS='$FIO_JOBS':$wjobs would overwrite $d: name it again with --confirm-write $d if its contents may be destroyed"
	done
fi

# NUMA topology.  A kernel built without CONFIG_NUMA has no node directory:
# treat it as a single node 0 owning all online CPUs, with no memory policy.
NODE_SYS=/sys/devices/system/node
if [ -d "$NODE_SYS/node0" ]; then HAVE_NUMA=1; else HAVE_NUMA=0; fi
node_cpus() {   # CPU list of node $1 ("unpinned": every online CPU), empty if it has none
	if [ "$1" = unpinned ]; then cat /sys/devices/system/cpu/online
	elif [ $HAVE_NUMA = 1 ]; then cat "$NODE_SYS/node$1/cpulist" 2>/dev/null || true
	elif [ "$1" = 0 ]; then cat /sys/devices/system/cpu/online
	fi
}
if [ -z "$opt_cpu_nodes" ]; then
	if [ $HAVE_NUMA = 1 ]; then
		# has_cpu lists the nodes with CPUs; CPU-less (memory-only) nodes
		# cannot submit I/O, so they are never CPU nodes.
		opt_cpu_nodes=$(cpulist_expand "$(cat "$NODE_SYS/has_cpu" 2>/dev/null || cat "$NODE_SYS/online")")
	else
		opt_cpu_nodes=0
	fi
	# A meter window is split by the submitters' node: no unpinned run.
	[ -n "$opt_meter" ] || opt_cpu_nodes+=" unpinned"
fi
for n in $opt_cpu_nodes; do
	[ "$n" = unpinned ] || [[ $n =~ ^[0-9]+$ ]] || refuse "--cpu-nodes: '$n' is neither a node number nor unpinned"
	[ "$n" = unpinned ] && [ -n "$opt_meter" ] &&
		refuse "--cpu-nodes: unpinned with --meter (a meter window needs the submitters' node)"
	[ -n "$(node_cpus "$n")" ] || die "CPU node $n does not exist or has no CPUs"
done
if [ -n "$opt_mem_node" ] && [ $HAVE_NUMA = 1 ] && [ ! -d "$NODE_SYS/node$opt_mem_node" ]; then
	die "memory node $opt_mem_node does not exist"
fi

# Does fio support numa_mem_policy?  Without libnuma fio rejects the option
# ("Build fio with libnuma-dev(el) to enable this option"), so probe it with a
# parse-only run.  If unsupported (or the kernel has no NUMA), use copies of
# the job files without that line.
JOBDIR=$HERE
if [ $HAVE_NUMA = 1 ] && probe=$(fio --parse-only --name=probe --filename=/dev/null \
	--size=4k --numa_mem_policy=local 2>&1) && ! grep -qi libnuma <<<"$probe"; then
	USE_MEMPOL=1
else
	USE_MEMPOL=0
	JOBDIR=$(mktemp -d)
	trap 'rm -rf "$JOBDIR"' EXIT
	for f in "$HERE"/*.fio; do grep -v '^numa_mem_policy=' "$f" >"$JOBDIR/${f##*/}"; done
	echo "run.sh: note: fio without libnuma or kernel without NUMA:" \
		"numa_mem_policy dropped, buffers are not bound" >&2
fi

# --meter: job files that open and close a meter window around each run.
[ -z "$opt_meter" ] || meter_jobs

# fio's own guard: --readonly makes fio refuse any write it would issue.
ro=()
[ "$WRITES" = 1 ] || ro=(--readonly)

# Check the devices: they must exist; a file on tmpfs is not block I/O;
# the write jobs must not destroy a device in use (write-guard.sh).
for d in "${devlist[@]}"; do
	[ -e "$d" ] || die "device or file '$d' does not exist (create test files first, e.g. truncate -s 256M /var/tmp/fiotest.img)"
	if [ -b "$d" ]; then
		why=$(device_in_use "$d")
		if [ -n "$why" ]; then
			[ "$WRITES" = 1 ] && refuse "$d: $why; refusing to write to it"
			echo "run.sh: note: $d: $why: read-only jobs, but its other I/O is noise" >&2
		fi
	elif [ -f "$d" ]; then
		fstype=$(stat -f -c %T "$d")
		case $fstype in tmpfs|ramfs)
			# Older kernels reject O_DIRECT there; newer ones accept it but the
			# I/O never reaches a block device, so the numbers would mean nothing.
			die "'$d' is on $fstype: no O_DIRECT (direct=1) or no block device behind it; put it on a disk filesystem such as /var/tmp";;
		esac
	else
		die "'$d' is neither a block device nor a regular file"
	fi
done

# sysfs_node PATH: the first numa_node file at or above the sysfs device
# PATH (the PCI function of a disk's HBA), "" if none.
sysfs_node() {
	local p=$1
	while [ -n "$p" ] && [ "$p" != / ] && [ "$p" != /sys ]; do
		[ -r "$p/numa_node" ] && { cat "$p/numa_node"; return; }
		p=${p%/*}
	done
}
# dev_node DEVICE: the NUMA node of the disk behind a block device or a
# file's filesystem ("" when unknown).
dev_node() {
	local d=$1 blk
	if [ -b "$d" ]; then
		blk=/sys/dev/block/$(stat -L -c '%Hr:%Lr' "$d")
	else
		blk=/sys/dev/block/$(stat -c '%Hd:%Ld' "$d")
	fi
	[ -e "$blk" ] || return 0
	blk=$(readlink -f "$blk")
	[ -f "$blk/partition" ] && blk=${blk%/*}     # a partition: its disk
	[ -e "$blk/device" ] || return 0
	sysfs_node "$(readlink -f "$blk/device")"
}
if [ -z "$opt_dev_node" ]; then
	opt_dev_node=-
	for d in "${devlist[@]}"; do
		n=$(dev_node "$d")
		[ -n "$n" ] || { opt_dev_node=-; break; }
		if [ "$opt_dev_node" = - ]; then opt_dev_node=$n
		elif [ "$opt_dev_node" != "$n" ]; then
			echo "run.sh: note: the devices are on nodes $opt_dev_node and $n: no local/remote" >&2
			opt_dev_node=-; break
		fi
	done
fi
[ "$opt_dev_node" = - ] && echo "run.sh: note: the device's NUMA node is unknown (--dev-node N gives it): the report names submitters by node only" >&2

# perf's remote-DRAM events, t/io_uring's peak IOPS: used, or why not.
PERF_EVENTS="" PERF_NOTE="off (no --perf)"
[ "$opt_perf" = 0 ] || perf_events
iouring_note
# The settings in force, said once: the defaults are sized for make
# compare's guests (3 s runs), a real server sets its own (fio-jobs/README).
echo "run.sh: settings: FIO_JOBS='$FIO_JOBS' FIO_QDS='$FIO_QDS' FIO_RUNTIME=$FIO_RUNTIME" \
	"FIO_NUMJOBS=$FIO_NUMJOBS COMPARE_REPS=$COMPARE_REPS$([ -f "$config_file" ] && echo " ($config_file)" ||
	echo " (defaults: make compare's; on a real server set them in config, fio-jobs/README)")" >&2

DEST=$OUTDIR/$LABEL
mkdir -p "$DEST"
# fio runs in DEST (see exec_prerun): every path it gets is absolute.
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
DEST=$(cd "$DEST" && pwd)
opt_meter_seq=$(abspath "$opt_meter_seq")
ADEVS=""
for d in "${devlist[@]}"; do ADEVS+="${ADEVS:+:}$(abspath "$d")"; done
MANIFEST=$DEST/manifest.tsv
# target, window (meter window number), dev_ios (see dev_ios()), cpus (the
# CPUs fio ran on), irq_cpus (see irq_delta()), dev_node (the device's
# node): "-" if none.
[ -s "$MANIFEST" ] || printf 'label\tjob\tqd\tcpu_node\tmem_node\trep\tfile\ttarget\twindow\tdev_ios\tcpus\tirq_cpus\tdev_node\n' >"$MANIFEST"
# A short record of what was run, for whoever reads the results later.
{
	echo "# $(date -Is) run.sh $cmdline"
	echo "kernel=$(uname -r) fio=$(fio --version) numa=$HAVE_NUMA mempolicy=$USE_MEMPOL"
	echo "jobs='$FIO_JOBS' qds='$FIO_QDS' cpu_nodes='$opt_cpu_nodes' mem_node='${opt_mem_node:-=cpu}'" \
		"numjobs=$FIO_NUMJOBS reps=$opt_rep_start+$COMPARE_REPS runtime=$FIO_RUNTIME ramp=$RAMP size=$SIZE"
	echo "target='${opt_target:--}' devices='$DEVS' dev_node=$opt_dev_node write_ok=$WRITES" \
		"meter='${opt_meter:-off}' irqs='${opt_irqs:--}'"
	echo "perf: $PERF_NOTE"
	echo "io_uring: $IOURING_NOTE"
} >>"$DEST/run-info.txt"

# I/O requests completed by the devices (reads + writes, /sys/block/X/stat
# fields 1 and 5): the count of I/O inside a meter window, ramp included,
# which fio's own total_ios (after the ramp) leaves out.  "-" for a file.
dev_ios() {
	local d real name sum=0 f
	for d in "${devlist[@]}"; do
		real=$(readlink -f "$d")
		name=${real##*/}
		[ -b "$real" ] && [ -r "/sys/class/block/$name/stat" ] || { echo -; return; }
		read -ra f < "/sys/class/block/$name/stat"
		sum=$((sum + f[0] + f[4]))
	done
	echo "$sum"
}

[[ $IOURING_NOTE != used:* ]] || iouring_probe

last=$((opt_rep_start + COMPARE_REPS - 1))
for ((r = opt_rep_start; r <= last; r++)); do
	for job in $FIO_JOBS; do
		for qd in $FIO_QDS; do
			for node in $opt_cpu_nodes; do
				if [ "$node" = unpinned ]; then
					# no CPU binding; buffers as the kernel places them
					if [ -n "$opt_mem_node" ]; then
						mem=$opt_mem_node policy=bind:$opt_mem_node
					else
						mem=default policy=default
					fi
				else
					mem=${opt_mem_node:-$node} policy=bind:${opt_mem_node:-$node}
				fi
				# manifest records "none" when buffers could not be bound
				[ $USE_MEMPOL = 1 ] && memrec=$mem || memrec=none
				base=${opt_target:+${opt_target}_}${job}_qd${qd}_cpu${node}_r${r}
				echo "run.sh: [$LABEL] rep $r  ${opt_target:+$opt_target  }$job  qd=$qd  submitter $node  mem node $memrec" >&2
				perf=()
				[ -n "$PERF_EVENTS" ] && perf=(perf stat -a "-x," -o "$DEST/$base.perf" -e "$PERF_EVENTS" --)
				win=-
				ios0=$(dev_ios)
				irq0=""
				[ -n "$opt_irqs" ] && irq0=$(irq_counts)
				if [ -n "$opt_meter" ]; then
					[ -n "$opt_meter_objects" ] && meter_objects "$opt_meter_objects"
					win=$(( $(cat "$opt_meter_seq" 2>/dev/null || echo 0) + 1 ))
					echo "$win" > "$opt_meter_seq"
				fi
				# The job files read these variables (fio expands ${VAR}).
				# fio starts on the node's CPUs, not only its jobs
				# (cpus_allowed): the job processes it forks get their
				# task_struct, kernel stack and page tables from that
				# node, as under "numactl --cpunodebind", instead of
				# from wherever the parent happened to run.  Unpinned:
				# every online CPU, as fio runs when nobody binds it.
				rc=0
				cpus=$(node_cpus "$node")
				[ -n "$cpus" ] || die "node $node has no online CPUs to submit I/O from (--cpu-nodes)"
				( cd "$DEST" && FIO_RUNTIME=$FIO_RUNTIME FIO_RAMP=$RAMP FIO_IODEPTH=$qd \
					FIO_NUMJOBS=$FIO_NUMJOBS FIO_DEV=$ADEVS FIO_SIZE=$SIZE \
					FIO_CPUS=$cpus FIO_MEM_POLICY=$policy \
					exec "${perf[@]}" taskset -c "$cpus" fio "${ro[@]}" --output-format=json \
					--output="$DEST/$base.json" "$JOBDIR/$job.fio" 2>"$DEST/$base.log" ) || rc=$?
				# fio did not get to its postrun: close the window (a
				# stop without an open window is ignored).
				[ -n "$opt_meter" ] && "$opt_meter" stop
				rm -f "$DEST"/*.prerun.txt "$DEST"/*.postrun.txt
				ios1=$(dev_ios)
				irqd=-
				[ -n "$opt_irqs" ] && irqd=$(irq_delta "$irq0" "$(irq_counts)")
				if [ "$rc" != 0 ]; then
					echo "run.sh: fio failed for $base; stderr ($DEST/$base.log):" >&2
					tail -n 20 "$DEST/$base.log" >&2
					tail -n 5 "$DEST/$base.json" 2>/dev/null >&2 || true
					die "fio failed (job $job, qd $qd, submitter $node, rep $r)"
				fi
				[ -s "$DEST/$base.log" ] || rm -f "$DEST/$base.log"   # keep only useful logs
				dios=-
				[ "$ios0" != - ] && [ "$ios1" != - ] && dios=$((ios1 - ios0))
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$LABEL" "$job" "$qd" \
					"$node" "$memrec" "$r" "$base.json" "${opt_target:--}" "$win" "$dios" \
					"$cpus" "$irqd" "$opt_dev_node" >>"$MANIFEST"
			done
		done
	done
	[[ $IOURING_NOTE == used:* ]] && iouring "$r"
done
echo "run.sh: done, results in $DEST" >&2
