#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# help.sh (make help, plain make): the targets, their arguments, the
# settings with their values here (lib/config.sh: environment, then the
# file "config", then the default) and the package groups.  Reads, never
# installs or builds.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cat <<'EOF'
scsi_numa: make TARGET [ARG=value ...]   (README; what each leaves behind: harness/README)

Targets
  help             this text (also plain "make")
  deps             install every package group below (as root: sudo make deps)
  plan             check the runs, settings and names of a target; the targets below
                   that boot guests run it first (PLAN: the runs to check)
  check            the tests: lint, both kernels, the guest runs of CHECK_RUNS, summary
  check-full       check plus the debug kernel in every topology and the long churn
  compare          the measurement: vanilla vs patched, fio IOPS and remote accesses,
                   then the scan of 2048 LUNs and a tag set's memory (compare-scan),
                   then the queue-node rules (compare-rules); its last line
                   "verdict: ...", exit 1 when an IOPS row is not met
  compare-smoke    compare, short: scsi_debug only, 2 repetitions (too few for a
                   verdict), into build/compare-smoke
  compare-scan     compare's last part alone: scan time and memory, into build/compare/scan.*
  compare-rules    compare's last part alone: the queue-node rules, vanilla, rule-a, rule-b
                   (RULES_TOPO, RULES_REPS, RULES_TARGETS), into build/compare-rules
  compare-rules-matrix  compare-rules in each topology of RULES_MATRIX, then one table
                   (build/rules-matrix/matrix.txt; patches/evidence-rules.txt)
  lint             host-side checks only, no guest
  lint-series      every commit of the series: W=1, sparse, checkpatch, kernel-doc;
                   the notes below "---"; each posting applied and built on its own
  tree             lay out build/linux: tag vanilla + branch patched from patches/
  export           write build/linux's vanilla..patched back into patches/
  kernels          build build/kernels/{vanilla,patched}
  kernels-debug    build build/kernels/debug (the series with KASAN, kmemleak, ...)
  kernels-leak     build build/kernels/leak (the series with kmemleak and lockdep only)
  kernels-rules    build build/kernels/{rule-a,rule-b} (the series; patches/alt/rule-b.patch)
  vm               one guest run, TAP on stdout (K=, TOPO=, CASES=)
  check-upstream   the postings on upstream 7.3.4 without Debian's patches
  blktests         blktests/'s tests in a guest (BLKTESTS=, needs a blktests checkout)
  host-check       as root on a real machine: scsi_debug cases and placement
  inspector        the placement inspector alone, against KDIR
  clean            remove run results (build/runs, build/compare*, ...)
  distclean        remove build/ entirely

Target arguments (what to run, not how)
  K=patched        make vm, blktests: kernel build/kernels/K (vanilla, patched, debug, leak)
  TOPO=two-node    make vm, blktests: a topology of harness/topo/
  CASES=           make vm: case globs of test/cases/ (e.g. '1*'); empty: all
  CHECK_RUNS=      make check: KERNEL:TOPOLOGY[:CASE-GLOBS[:LABEL]] ... (Makefile)
  POSTER=          make export: 'Name <address>', also writes build/postings/
  BASE_COMMIT=     make export: v7.3.4's commit id for the base-commit: lines
  COVER_COMPARE=   make export: smoke takes build/compare-smoke's figures
  COVER_ALLOW_NOT_MET=
                   make export: 1 writes the letter though an IOPS row is not met
  HARNESS_URL=     make export: the harness's public URL, for the letters' @HARNESS@
  ORIG=            make check-upstream: upstream's linux-7.3.4.tar.xz
  BLKTESTS=        make blktests: a blktests checkout; BTESTS='block scsi' or
                   'scsi/013 ...' picks groups or tests; BTEXCLUDE= leaves
                   tests out (default block/042; none); BTTIMEOUT= seconds,
                   blktests' TIMEOUT of its TIMED tests
  BLKTESTS_REPO=   make export, make lint: a blktests repository with the
                   blktests posting's base (blktests/posting.sh)
  DISK=            make host-check: a disk to read (sg_inq, sg_turs, sg_readcap)
  CONFIRM_WRITE=   make host-check: the same disk again, to let fio write it
  INSPECTOR=       make host-check: a prebuilt scsi_numa_inspect.ko
  KDIR=            make inspector: a kernel build directory
  DEPS=            make deps: the groups to install (default: all)

Settings: NAME  what: value here  (config.example; the environment or
make's command line wins over the file "config")
EOF
declare -A say=(
	[KSRC]="your kernel tree or .tar.xz, not Debian's source"
	[JOBS]="parallel jobs of kernel builds and make lint-series"
	[CHECK_JOBS]="guests make check boots at a time"
	[VM_ACCEL]="auto (KVM when a probe guest runs with it) or tcg"
	[VM_TIMEOUT]="seconds before a guest is killed"
	[COMPARE_REPS]="repetitions per kernel (make compare, fio-jobs/run.sh)"
	[COMPARE_TARGETS]="what make compare measures"
	[COMPARE_IRQ]="HBA interrupts: device (the device node's CPUs) or kernel"
	[COMPARE_METER]="the meter's LLC model KIB:WAYS[:LINE], on, or 0 (no meter)"
	[COMPARE_ICOUNT]="the guests' clock: QEMU -icount, or 0 (wall clock)"
	[COMPARE_VERDICT]="a row not met: fail (make compare exits 1) or report (exit 0)"
	[FIO_JOBS]="fio job files of fio-jobs/"
	[FIO_QDS]="queue depths"
	[FIO_RUNTIME]="seconds measured per run"
	[FIO_NUMJOBS]="fio processes per run"
)
# shellcheck source=../lib/config.sh
if (. "$top/lib/config.sh") >/dev/null 2>&1; then
	. "$top/lib/config.sh"
	for v in "${scsi_numa_settings[@]}"; do
		printf '  %-16s %s: %s\n' "$v" "${say[$v]:-see config.example}" "${!v:-(empty)}"
	done
else
	(. "$top/lib/config.sh") 2>&1 | sed 's/^/  /'
fi
echo
echo "Package groups (harness/deps.sh; each target installs or names only its own)"
"$top/harness/deps.sh" --list
