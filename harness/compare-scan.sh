#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# compare-scan.sh [--reps N] [--scans N] [--queues LIST] [--out DIR] [KERNEL..]:
# the scan part of make compare (compare.sh calls it last): what caching each
# hardware queue's node in the tag set (patch 03) costs and saves, kernel
# against kernel.  Each repetition boots each KERNEL of build/kernels/
# (default: vanilla patched; the first is the baseline) once in the
# four-node topology, the order alternating between repetitions as in
# compare.sh, and runs harness/guest-scan there: per submit_queues value of
# LIST (default 2,1: two hardware queues for four CPUs on four nodes, each
# queue's CPUs on two nodes, and a single queue) the memory of 32 scsi_debug
# hosts' tag sets, then N scans (default 2) of one host with 2048 LUNs (8
# targets x 256), timed (the kernel's timestamps around the write to the
# host's scan attribute), with slab and meminfo before and after.  N reps
# default 3.  fio-jobs/scan_report.py then writes DIR/scan.txt (printed)
# and DIR/scan.json: per kernel and queue count the scan time, its time per
# LUN and the slab bytes per LUN, mean and 95% CI, the ratio to the
# baseline with its CI; the measured slab bytes per tag set (per host) and
# the cache's computed size.  The raw guest output stays in DIR/scan/
# <kernel>/r<rep>/.  DIR default build/compare.
# The guests run under QEMU TCG with compare.sh's clock (COMPARE_ICOUNT,
# default -icount shift=5): a time is a count of guest instructions on an
# emulated CPU, not a time on real hardware, and the report's header says
# so.  Each guest's whole kernel log is judged (lib/kmsg.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../lib/config.sh
. "$top/lib/config.sh"
# shellcheck source=../lib/kmsg.sh
. "$top/lib/kmsg.sh"
topo=four-node
reps=3 scans=2 queues=2,1 out=$top/build/compare
usage() { echo "usage: compare-scan.sh [--reps N] [--scans N] [--queues Q[,Q..]] [--out DIR] [KERNEL..]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--reps) reps=${2:-}; shift 2 || usage ;;
	--scans) scans=${2:-}; shift 2 || usage ;;
	--queues) queues=${2:-}; shift 2 || usage ;;
	--out) out=$(realpath -m "${2:-}"); shift 2 || usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] && [[ $scans =~ ^[1-9][0-9]*$ ]] && [[ $queues =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || usage
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(vanilla patched)
[ ${#kernels[@]} -ge 2 ] || { echo "compare-scan: two kernels or more (the first is the baseline)" >&2; exit 2; }
for k in "${kernels[@]}"; do
	[ -f "$top/build/kernels/$k/bzImage" ] || { echo "compare-scan: no kernel build/kernels/$k" >&2; exit 1; }
done
icount=$COMPARE_ICOUNT
[ "$icount" = 0 ] && icount=""
if [ -n "$icount" ]; then
	n=${icount#shift=} n=${n%%,*}
	idle="real time while every vCPU idles"
	[[ $icount == *sleep=off* ]] && idle="while every vCPU idles, a jump to the next timer"
	clock="QEMU TCG -icount $icount: guest time = its instructions x 2^$n ns ($idle), so a time counts guest instructions on an emulated CPU, not real time"
else
	clock="QEMU TCG, the host's wall clock: a time is the emulation's speed on a shared host, not real time"
fi
# struct_sizes KERNEL: sizeof of the structures a tag set's memory is made
# of, as the kernel's own source at its commit (build/kernels/KERNEL/commit)
# lays them out, compiled with gcc against that source and the generated
# headers of make kernels' object directory (kbuild.sh; the same config
# for every kernel but the debug one): "NAME<TAB>BYTES" lines; nothing, and
# a line on stderr, when either is missing.
struct_sizes() {
	local commit obj=$top/build/kbuild-wt/.obj src rc=0
	commit=$(cut -d' ' -f1 "$top/build/kernels/$1/commit" 2>/dev/null) || commit=""
	if [ -z "$commit" ] || [ ! -f "$obj/include/generated/autoconf.h" ]; then
		echo "compare-scan: $1: no commit or no $obj: structure sizes not computed" >&2
		return 0
	fi
	src=$(mktemp -d)
	git -C "$top/build/linux" archive "$commit" include arch/x86/include | tar -x -C "$src" || rc=1
	cat > "$src/sizes.c" <<-'EOF'
	#include <linux/blk-mq.h>
	#include <scsi/scsi_host.h>
	#define SZ(name) asm volatile("\n.ascii \"->SZ " #name " %c0\"" : : "i" (sizeof(struct name)))
	void scan_sizes(void);
	void scan_sizes(void)
	{
		SZ(blk_mq_tag_set);
		SZ(Scsi_Host);
	}
	EOF
	[ $rc = 0 ] && gcc -nostdinc -I"$src/arch/x86/include" -I"$obj/arch/x86/include/generated" \
		-I"$src/include" -I"$obj/include" -I"$src/arch/x86/include/uapi" \
		-I"$obj/arch/x86/include/generated/uapi" -I"$src/include/uapi" -I"$obj/include/generated/uapi" \
		-include "$src/include/linux/compiler-version.h" -include "$src/include/linux/kconfig.h" \
		-include "$src/include/linux/compiler_types.h" -D__KERNEL__ -std=gnu11 -fms-extensions \
		-fshort-wchar -funsigned-char -fno-common -fno-PIE -m64 -mno-red-zone -mcmodel=kernel -fcf-protection=branch -w \
		-mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx -Os -S -o "$src/sizes.s" "$src/sizes.c" 2> "$src/gcc.err" || { head -n 20 "$src/gcc.err" >&2; rc=1; }
	[ $rc = 0 ] && sed -n 's/^[[:space:]]*\.ascii "->SZ \([A-Za-z_]*\) \([0-9]*\)"$/\1\t\2/p' "$src/sizes.s"
	rm -rf "$src"
	[ $rc = 0 ] || echo "compare-scan: $1: cannot compile the structure sizes at $commit" >&2
}

raw=$out/scan
rm -rf "$raw" "$out/scan.txt" "$out/scan.json"
mkdir -p "$raw"
run_id=$("$top/harness/run-id.sh")

t0=$(date +%s)
for ((r = 1; r <= reps; r++)); do
	order=("${kernels[@]}")
	if [ $((r % 2)) = 0 ]; then
		order=()
		for ((i = ${#kernels[@]} - 1; i >= 0; i--)); do order+=("${kernels[$i]}"); done
	fi
	for k in "${order[@]}"; do
		echo "# compare-scan: repetition $r/$reps, $k${icount:+ (icount $icount)}"
		mkdir -p "$raw/$k"
		if ! VM_ICOUNT=$icount VM_RUN=scan-$k \
			VM_CMDLINE="scsi_numa.mode=run scsi_numa.run=harness/guest-scan scsi_numa.scanq=$queues scsi_numa.scanreps=$scans" \
			"$top/harness/vm.sh" "$k" "$topo" > "$raw/$k/r$r.tap"; then
			cat "$raw/$k/r$r.tap"
			echo "compare-scan: the $k guest failed in repetition $r (build/runs/scan-$k/)" >&2
			exit 1
		fi
		grep -E '^(not )?ok ' "$raw/$k/r$r.tap" | sed 's/^/#   /'
		kmsg_judge_run "$top/build/runs/scan-$k" >&2 ||
			{ echo "compare-scan: the $k guest's kernel log failed in repetition $r (build/runs/scan-$k/out/dmesg.txt)" >&2; exit 1; }
		cp -r "$top/build/runs/scan-$k/out/scan" "$raw/$k/r$r"
	done
done
echo "# compare-scan: guests done in $(( $(date +%s) - t0 ))s"
for k in "${kernels[@]}"; do struct_sizes "$k" > "$raw/$k/sizes.tsv"; done
dirs=()
for k in "${kernels[@]}"; do dirs+=("$raw/$k"); done
python3 "$top/fio-jobs/scan_report.py" --run-id "$run_id" --vm-clock "$clock" --topology "$topo" \
	--text "$out/scan.txt" --json "$out/scan.json" "${dirs[@]}"
