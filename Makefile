# scsi_numa: kernel series, placement inspector and test harness.
# See README.  Everything generated goes under build/.  Settings (JOBS,
# VM_TIMEOUT, COMPARE_REPS, FIO_*, ...): config.example; their defaults
# live in lib/config.sh only, which every script below reads.
#
#   make check              deps, lint, both kernels, the runs of CHECK_RUNS, summary
#   make check-full         both kernels and the debug kernel in every topology, long churn
#   make lint-series        every commit of the series: W=1, sparse, checkpatch, kernel-doc
#   make lint               host-side checks only (seconds, no guest)
#   make kernels            build build/kernels/{vanilla,patched}
#   make kernels-debug      build build/kernels/debug (the series, KASAN/kmemleak/lockdep...)
#   make vm K=patched TOPO=cpuless [CASES='1*']   one guest run, TAP on stdout
#   make compare            the measurement: vanilla vs patched, CPUs local vs remote, fio
#                           IOPS and the meter's remote accesses per I/O
#   make compare-smoke      the same, short (scsi_debug only, 2 repetitions of 2 s
#                           runs; ~10 min): build/compare-smoke, not for the letter
#   make tree / make export the kernel git tree <-> patches/; make export
#                           POSTER="Name <addr>" [BASE_COMMIT=<id>] also writes
#                           the postable series under build/postings/
#   make check-upstream [ORIG=linux-7.3.4.tar.xz]   the postings on upstream
#                           7.3.4 without Debian's patches: git am + build
#   make inspector KDIR=... the inspector alone, against any kernel build dir
#   make blktests BLKTESTS=/path/to/blktests [K=patched] [TOPO=two-node]
#                           blktests/'s tests copied into that checkout and
#                           run by its ./check in a guest (not in make check)
#   make host-check [DISK=/dev/sdX [CONFIRM_WRITE=/dev/sdX]]   as root on a
#                           real machine: the scsi_debug cases and placement
#                           on its running kernel (README, "On a real server")
# The capital names after a target are its arguments (what to run, not how):
# K, TOPO, CASES, DISK, CONFIRM_WRITE, INSPECTOR, BLKTESTS, BTESTS, POSTER,
# BASE_COMMIT, COVER_COMPARE, ORIG, KDIR.

H := harness
K ?= patched
TOPO ?= two-node
CASES ?=

# The runs of make check: KERNEL:TOPOLOGY[:CASE-GLOBS[:LABEL]].  What the
# kernel must be follows from its name (lib/expect.sh: vanilla, else
# patched; a patched kernel without the series fails its run).  CASE-GLOBS picks cases
# (default all); a LABEL tells two runs of one kernel and topology apart.
# The patched kernel runs every case in two-node (in two guests, so that
# two run side by side) but 05, the kmemleak control, which needs the
# debug kernel (make check-full); elsewhere each run does what its
# topology is for.  Vanilla in four-node runs no 21: case 10's
# virtio-scsi host already has the 2-queue map whose first-CPU placement
# it checks, and 21 costs about 1.8 min there.  CASES "host-check": make
# host-check run in the guest as on a real server, without the harness
# (guest-init), judged by harness/host-check-judge.sh; 3.2 min, 4.2-4.9
# with the inspector built in the guest (when build/kbuild-wt/.obj is patched's).
CHECK_RUNS ?= \
	patched:two-node:01*,2*,40*:faults \
	patched:two-node:01*,02*,03*,1*,3*:placement \
	patched:two-node:host-check:host \
	vanilla:two-node:01*,1*,21* \
	patched:cpuless:01*,1*,21* \
	vanilla:cpuless:01*,1* \
	patched:memless:01*,10*,20*,30* \
	patched:hotplug:01*,10*,31* \
	vanilla:hotplug:01*,10* \
	patched:one-node:01*,10*,30* \
	patched:four-node:01*,10*,21* \
	vanilla:four-node:01*,10*
TOPOS := two-node cpuless hotplug memless one-node four-node
# make check-full: both kernels and the debug kernel, every case, every
# topology, the long churn.
FULL_RUNS ?= $(foreach t,$(TOPOS),vanilla:$(t) patched:$(t) debug:$(t))

.PHONY: all check check-full lint lint-series check-upstream deps tree export kernels kernels-debug vm compare compare-smoke inspector host-check clean distclean
.NOTPARALLEL:

all: kernels

deps:
	@$(H)/deps.sh

lint:
	@$(H)/lint.sh

tree: deps
	@$(H)/ktree.sh

# POSTER="Name <addr>" (and BASE_COMMIT=), from the command line or the
# environment: also the postable series (build/postings/); without it the
# tracked export is done and the target fails (exit 3).
export:
	@$(H)/export.sh

# Not part of make check: about 15 min on 2 cores (README).
check-upstream:
	@$(H)/check-upstream.sh $(if $(ORIG),--orig $(ORIG))

kernels: tree
	@$(H)/kbuild.sh vanilla vanilla
	@$(H)/kbuild.sh patched patched

kernels-debug: tree
	@$(H)/kbuild.sh debug patched debug

vm:
	@$(H)/vm.sh $(K) $(TOPO) '$(CASES)'

check: deps lint kernels
	@$(H)/check.sh $(foreach r,$(CHECK_RUNS),'$(r)')

check-full: deps lint kernels kernels-debug
	@$(H)/check.sh --churn long $(foreach r,$(FULL_RUNS),'$(r)')

lint-series: tree
	@$(H)/lint-series.sh

compare: deps kernels
	@$(H)/compare.sh

compare-smoke: deps kernels
	@$(H)/compare.sh --smoke

# blktests is not in Debian's archive: CI cannot run these (blktests/README).
# BTESTS='scsi/013 ...' picks tests (default: all of blktests/tests/).
.PHONY: blktests
blktests:
	@blktests/run.sh '$(BLKTESTS)' '$(K)' '$(TOPO)' $(BTESTS)

inspector:
	$(MAKE) -C drivers/scsi_numa_inspect $(if $(KDIR),KDIR=$(KDIR))

host-check:
	@$(H)/host-check.sh $(if $(DISK),--disk $(DISK)) $(if $(CONFIRM_WRITE),--confirm-write $(CONFIRM_WRITE)) \
		$(if $(INSPECTOR),--inspector $(INSPECTOR))

clean:
	rm -rf build/runs build/inspector-* build/kmemleak-control-* build/compare* build/kvm-probe*

distclean:
	rm -rf build
