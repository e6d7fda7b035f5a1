#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare.sh: the fio comparison, vanilla vs patched, in the two-node guest.
# Each repetition boots each kernel once (the order alternates between
# repetitions so that drift hits both alike) and runs every fio job with the
# submitting CPUs on each node (harness/guest-compare), on each target:
# the scsi_debug host (bound to the device node on the patched kernel) and
# the disks of the emulated HBAs (megasas, AHCI, virtio-scsi) on the device
# node.  With the meter (default) the guests run under QEMU TCG with the
# scsi_numa_meter plugin (qemu-plugin/) and every fio run is one meter window.
# Then fio-jobs/report.py prints the table and writes build/compare/report.{txt,
# json,png} (report.json: the data the cover letter reads, with the run id
# of run-id.sh, also in build/compare/run-id; the series measured in
# build/compare/series-commit, harness/lib/series.sh) and, with the meter,
# meter.{txt,png} (remote memory accesses
# and remote LLC misses per I/O); fio's JSON and the meter's raw counts
# (meter-r<rep>.txt) stay under build/compare/<kernel>/.
#
# Last, harness/compare-scan.sh (its own guests, without the meter, in
# four-node): a scan of 2048 scsi_debug LUNs on one host and a host's tag
# set in memory, vanilla vs patched, into build/compare/scan.{txt,json}
# (printed last).
#
# compare.sh --smoke: the short variant (make compare-smoke): the scsi_debug
# target only, 2 repetitions of 2 s runs, into build/compare-smoke, no
# scan comparison; the cover letter takes it only with COVER_COMPARE=smoke.
# Its IOPS rows get no verdict: 2 repetitions are too few for one
# (fio-jobs/README.compare, "The margin").  make compare, compare-smoke
# and compare-rules end with harness/compare-verdict.sh's one line.
#
# compare.sh --rules [TOPOLOGY [REPS [TARGETS]]]: the blk-mq queue-node rules (make
# compare-rules): the kernels vanilla, rule-a (the
# series: the only queue of a map on the tag set's node) and rule-b (the
# node nearest most of the queue's CPUs; patches/alt/rule-b.patch),
# built by make kernels-rules (harness/README, "compare-rules"), in
# TOPOLOGY (default two-node-3-2), REPS repetitions (default 5), on
# TARGETS (default: null_blk, home_node = the device node, one queue, and
# the single-queue HBAs megaraid_sas and ahci), the HBAs' IRQs on the device's node
# (COMPARE_IRQ=device); into build/compare-rules: report.py's tables with
# vanilla as baseline, and fio-jobs/rules_report.py's rule table
# (rules.txt, rules.json): every kernel against vanilla, rule-b against
# rule-a.
#
# Settings (lib/config.sh, config.example): COMPARE_REPS,
# COMPARE_TARGETS, COMPARE_IRQ, COMPARE_METER (the meter's LLC model, "on"
# or 0: no meter), COMPARE_ICOUNT (the guests' clock), FIO_JOBS, FIO_QDS,
# FIO_RUNTIME, FIO_NUMJOBS; handed to the guest in fio.env.  TCG's
# wall-clock IOPS vary by 5-14 % between runs on the 2-core host, icount
# IOPS by about 1 % (scsi_debug, virtio-scsi) to 4 % (megaraid_sas, AHCI)
# between guests (fio-jobs/README; why -icount: fio-jobs/README.compare,
# "The guests' clock"); shift=5 (a 31-MIPS guest CPU)
# keeps the I/Os of a metered window, and so the meter's time, 4 times
# below shift=3's.  A QEMU guest has no remote-memory cost: the IOPS table
# is a no-regression check, not a NUMA benchmark; the meter counts what
# would be remote on real hardware (fio-jobs/README).  Every guest's whole
# kernel log is judged (lib/kmsg.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=../lib/kmsg.sh
. "$top/lib/kmsg.sh"
topo=two-node
kernels="vanilla patched"
# Absolute: the guest reads fio.env through the root share by this path.
out=$top/build/compare
usage() { echo "usage: compare.sh [--smoke | --rules [TOPOLOGY [REPS [TARGETS]]]]" >&2; exit 2; }
scan=yes
case ${1:-} in
'') [ $# -le 1 ] || usage ;;
--smoke) [ $# = 1 ] || usage
	out=$top/build/compare-smoke scan=""
	export COMPARE_TARGETS=scsi_debug COMPARE_REPS=2 FIO_JOBS=randread-4k FIO_QDS=32 \
		FIO_NUMJOBS=1 FIO_RUNTIME=2 ;;
--rules) [ $# -le 4 ] || usage
	out=$top/build/compare-rules topo=${2:-two-node-3-2} kernels="vanilla rule-a rule-b" scan=""
	[[ ${3:-5} =~ ^[1-9][0-9]*$ ]] || usage
	export COMPARE_TARGETS=${4:-null_blk megaraid_sas ahci} COMPARE_REPS=${3:-5} COMPARE_IRQ=device
	for k in rule-a rule-b; do
		[ -f "$top/build/kernels/$k/bzImage" ] ||
			{ echo "compare: no kernel build/kernels/$k (harness/README, compare-rules)" >&2; exit 1; }
	done ;;
*) usage ;;
esac
# The kernels' names, the topology and the settings (harness/lib/plan.sh).
plans=()
for k in $kernels; do plans+=("$k:$topo"); done
"$top/harness/lib/plan.sh" --no-cases "${plans[@]}" > /dev/null
reps=$COMPARE_REPS
meter=$COMPARE_METER
[ "$meter" = 0 ] && meter=""
icount=$COMPARE_ICOUNT
[ "$icount" = 0 ] && icount=""
irqmode=$COMPARE_IRQ
mark=$top/build/qemu-plugin/scsi_numa_meter_mark
if [ -n "$meter" ]; then
	mkdir -p "$top/build/runs"
	# The plugin's build is shared with a make check beside this one.
	flock "$top/build/.kat.lock" make -s -C "$top/qemu-plugin" >/dev/null ||
		{ echo "compare: cannot build the meter (qemu-plugin/)" >&2; exit 1; }
	[ -x "$mark" ] || { echo "compare: no $mark" >&2; exit 1; }
	# The charts are optional: report.py skips them, with one line, without gnuplot.
	command -v gnuplot >/dev/null || echo "compare: gnuplot missing: no charts (apt-get install gnuplot-nox)" >&2
	# The meter proves itself before it is trusted: its unit tests and the
	# known-answer test (qemu-plugin/kat) on this QEMU, else
	# no comparison.
	katlog=$top/build/runs/kat-compare.log
	echo "compare: the meter's known-answer test (build/runs/kat-compare.log)" >&2
	if ! { flock "$top/build/.kat.lock" make -s -C "$top/qemu-plugin" test &&
	       "$top/qemu-plugin/kat/run.sh" --no-baseline vanilla
	     } > "$katlog" 2>&1; then
		tail -n 20 "$katlog" >&2
		echo "compare: the meter failed its known-answer test: no comparison" >&2
		exit 1
	fi
	grep -E '^kat: PASS' "$katlog" >&2
fi
rm -rf "$out"
mkdir -p "$out"
# Which run made these figures (report.json "run_id"; cover-letter.sh names it).
run_id=$("$top/harness/run-id.sh")
echo "$run_id" > "$out/run-id"
# Which series (the patched kernel's commit and tree, harness/lib/series.sh):
# cover-letter.sh refuses figures of another series than it exports.
# Beside report.json, not in it: report.py need not know.
# shellcheck source=lib/series.sh
. "$top/harness/lib/series.sh"
series_measured "$top" > "$out/series-commit"
# Each kernel's commit (kbuild.sh's record), for a comparison of more than the two.
for k in $kernels; do echo "$k $(cat "$top/build/kernels/$k/commit" 2>/dev/null || echo unknown)"; done > "$out/kernels"
# The settings the guest needs (harness/guest-compare), one
# shell-quoted assignment each: multi-word values (FIO_QDS="1 32") must
# reach the guest whole.
{
	for v in FIO_JOBS FIO_QDS FIO_RUNTIME FIO_NUMJOBS COMPARE_TARGETS COMPARE_IRQ; do
		printf '%s=%q\n' "$v" "${!v}"
	done
	[ -n "$meter" ] && printf 'COMPARE_METER_MARK=%q\n' "$mark"
} > "$out/fio.env"

t0=$(date +%s)
for ((r = 1; r <= reps; r++)); do
	# The order rotates between repetitions, so that drift hits every kernel alike.
	# shellcheck disable=SC2086 # the kernels' names: one word each
	set -- $kernels
	for ((i = 1; i < r; i++)); do set -- "$@" "$1"; shift; done
	order="$*"
	for k in $order; do
		echo "# compare: repetition $r/$reps, $k${meter:+ (meter $meter)}${icount:+ (icount $icount)}"
		if ! VM_METER=$meter VM_ICOUNT=$icount VM_RUN=compare-$k \
			VM_CMDLINE="scsi_numa.mode=compare scsi_numa.rep=$r scsi_numa.fioenv=$out/fio.env" \
			"$top/harness/vm.sh" "$k" "$topo"; then
			echo "compare: the $k guest failed in repetition $r (build/runs/compare-$k/)" >&2
			exit 1
		fi
		kmsg_judge_run "$top/build/runs/compare-$k" >&2 ||
			{ echo "compare: the $k guest's kernel log failed in repetition $r (build/runs/compare-$k/out/dmesg.txt)" >&2; exit 1; }
		src=$top/build/runs/compare-$k/out/fio/$k
		mkdir -p "$out/$k"
		cp "$src"/*.json "$out/$k/"
		[ -f "$out/$k/manifest.tsv" ] || head -n 1 "$src/manifest.tsv" > "$out/$k/manifest.tsv"
		tail -n +2 "$src/manifest.tsv" >> "$out/$k/manifest.tsv"
		cp "$src/run-info.txt" "$out/$k/run-info-r$r.txt" 2>/dev/null || true
		cp "$src/irqs-r$r.txt" "$out/$k/" ||
			{ echo "compare: the $k guest recorded no IRQ placement ($src/irqs-r$r.txt)" >&2; exit 1; }
		if [ -n "$meter" ]; then
			m=$top/build/runs/compare-$k/out/meter.txt
			want=$(cat "$top/build/runs/compare-$k/out/meter-windows" 2>/dev/null || echo 0)
			got=$(sed -n 's/^end windows \([0-9]*\)$/\1/p' "$m" 2>/dev/null)
			if [ "${got:-x}" != "$want" ]; then
				echo "compare: $k repetition $r: the meter saw '${got:-no output}' windows, the guest opened $want ($m)" >&2
				exit 1
			fi
			cp "$m" "$out/$k/meter-r$r.txt"
		fi
	done
done
echo "# compare: guests done in $(( $(date +%s) - t0 ))s"
# Where every HBA's IRQs were, per kernel and repetition (guest-compare).
{
	echo "# COMPARE_IRQ=$irqmode: the HBAs' IRQs per kernel and repetition (harness/guest-compare)"
	head -n 2 "$out/vanilla/irqs-r1.txt" | tail -n 1
	for f in "$out"/*/irqs-r*.txt; do tail -n +3 "$f"; done
} | awk -F'\t' '/^#/ { print; next } { n++; for (i = 1; i <= NF; i++) { c[n, i] = $i
		if (length($i) > w[i]) w[i] = length($i) } if (NF > nf) nf = NF }
	END { for (r = 1; r <= n; r++) { s = ""; for (i = 1; i <= nf; i++)
		s = s sprintf(i < nf ? "%-" w[i] "s  " : "%s", c[r, i]); print s } }' > "$out/irqs.txt"
margs=()
[ -n "$meter" ] && margs=(--meter-text "$out/meter.txt" --meter-summary "$out/meter-summary.txt"
	--meter-png "$out/meter.png" --meter-llc "$meter")
if [ -n "$icount" ]; then
	n=${icount#shift=} n=${n%%,*}
	clock="QEMU -icount $icount: guest time = its instructions x 2^$n ns (real time while idle), so the IOPS follow the instructions per I/O, not the host's speed"
else
	clock="the host's wall clock"
fi
kdirs=()
for k in $kernels; do kdirs+=("$out/$k"); done
python3 "$top/fio-jobs/report.py" --baseline vanilla --run-id "$run_id" --vm-clock "$clock" --text "$out/report.txt" \
	--json "$out/report.json" --png "$out/report.png" "${margs[@]}" "${kdirs[@]}"
if [ "$out" = "$top/build/compare-rules" ]; then
	# Present CPUs per node, from the topology file (the weighted sums).
	# shellcheck disable=SC2016 # the inner script's own expansions
	ncpus=$(bash -c '. "$1"; . "$2"; s=""
		for ((n = 0; n < TOPO_NODES; n++)); do
			[ -n "${TOPO_NODE_CPUS[n]}" ] && s+="${s:+,}$n=$(cpulist_count "${TOPO_NODE_CPUS[n]}")"
		done; echo "$s"' _ "$top/harness/topo/$topo" "$top/lib/cpulist.sh")
	echo
	echo "# compare: the queue-node rules in $topo ($out/rules.txt, rules.json)"
	python3 "$top/fio-jobs/rules_report.py" --ref vanilla --pair rule-b:rule-a --node-cpus "$ncpus" \
		--topology "$topo" --run-id "$run_id" --text "$out/rules.txt" --json "$out/rules.json" \
		--summary "$out/rules-summary.txt" "${kdirs[@]}"
fi
if [ -s "$out/meter-summary.txt" ]; then
	echo
	echo "# compare: meter summary ($out/meter-summary.txt; the cover letter's meter lines come from report.json; full tables: $out/report.txt)"
	cat "$out/meter-summary.txt"
fi
echo
echo "# compare: the HBAs' interrupts ($out/irqs.txt)"
cat "$out/irqs.txt"
if [ -n "$scan" ]; then
	echo
	echo "# compare: the scan of 2048 LUNs and a tag set's memory (harness/compare-scan.sh; $out/scan.txt)"
	"$top/harness/compare-scan.sh" --out "$out" vanilla patched
fi
