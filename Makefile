# SPDX-License-Identifier: GPL-2.0
# scsi_numa: kernel series, placement inspector and test harness.
# "make" or "make help" lists the targets, their arguments and the
# settings (harness/help.sh); harness/README says what each target leaves behind.
# Everything generated goes under build/.  Settings (JOBS, VM_TIMEOUT,
# COMPARE_REPS, FIO_*, ...): config.example; their defaults live in
# lib/config.sh only, which every script below reads.
# The capital names after a target are its arguments (what to run, not how):
# K, TOPO, CASES, CHECK_RUNS, DISK, CONFIRM_WRITE, INSPECTOR, BLKTESTS,
# BTESTS, BTEXCLUDE, BTTIMEOUT, BLKTESTS_REPO, POSTER, BASE_COMMIT, HARNESS_URL, COVER_COMPARE,
# COVER_ALLOW_NOT_MET, ORIG, KDIR, DEPS.
#
# Packages: each target first asks harness/deps.sh for the groups it needs
# (need-GROUP+GROUP...): as root it installs what is missing, as anyone
# else it names it and stops.  sudo make deps installs every group once;
# nothing else here needs root but make host-check (a real machine).

H := harness
# Python: Debian's python3 (make deps installs it; the scripts need nothing
# but its standard library) ahead of a version manager's: the tests start
# python3 hundreds of times, and pyenv's shim, or its interpreter's site
# setup, costs 40 ms to a second at each start.  Only python3 goes first
# (a link in build/.bin), not the rest of /usr/bin.  Without it: the
# interpreter python3 finds, by its own directory (no shim).
ifneq ($(wildcard /usr/bin/python3),)
PY_DIR := $(CURDIR)/build/.bin
$(shell mkdir -p $(PY_DIR) && ln -sfn /usr/bin/python3 $(PY_DIR)/python3)
else
PY_DIR := $(filter /%,$(shell python3 -c 'import os, sys; print(os.path.dirname(os.path.realpath(sys.executable)))' 2>/dev/null))
endif
export PATH := $(if $(PY_DIR),$(PY_DIR):)$(PATH)
# make check's phase times (harness/lib/phase.sh): this make's start and PID.
export SCSI_NUMA_MAKE := $(shell date +%s)-$(shell echo $$PPID)
K ?= patched
TOPO ?= two-node
CASES ?=

# The runs of make check: KERNEL:TOPOLOGY[:CASE-GLOBS[:LABEL]].  What the
# kernel must be follows from its name (harness/lib/expect.sh: vanilla, else
# patched; a patched kernel without the series fails its run).  CASE-GLOBS picks cases
# (default all); a LABEL tells two runs of one kernel and topology apart.
# The series runs every case in two-node, in four guests side by side
# (CHECK_JOBS at a time): faults (the targeted injections 24 and 25 and
# the rest of 2*, 40), leak (the patched kernel with kmemleak and
# lockdep, harness/kernel-leak.config: 05, the kmemleak control, 22 and
# 23 short, and 44, queues created while the tag set is resized, judged
# for leaks and lock order), placement and host; 41, CPU offline, is for
# four-node (make check-full).  Vanilla runs 23 and 44 too: their map
# and I/O checks hold there.  Elsewhere each run does what its topology
# is for.  Vanilla in four-node runs no 21: case 10's
# virtio-scsi host already has the 2-queue map whose first-CPU placement
# it checks, and 21 is slow there.  Both run 42, ublk, where each queue
# has a node of its own, and 43, the CPU hot-add, in hotplug (the
# topology with absent CPUs).  CASES "host-check": make
# host-check run in the guest as on a real server, without the harness
# (guest-init), judged by harness/host-check-judge.sh; the inspector is
# built in the guest when build/kbuild-wt/.obj is patched's.
CHECK_RUNS ?= \
	patched:two-node:01*,20*,21*,24*,25*,26*,27*,40*:faults \
	leak:two-node:01*,05*,22*,23*,44* \
	patched:two-node:01*,02*,03*,1*,3*:placement \
	patched:two-node:host-check:host \
	vanilla:two-node:01*,1*,21*,23*,44* \
	patched:cpuless:01*,1*,21* \
	vanilla:cpuless:01*,1* \
	patched:memless:01*,10*,20*,30* \
	patched:hotplug:01*,10*,31*,43* \
	vanilla:hotplug:01*,10*,43* \
	patched:one-node:01*,10*,30* \
	patched:four-node:01*,10*,21*,42* \
	vanilla:four-node:01*,10*,42* \
	patched:two-node-3-2:01*,13* \
	patched:two-node-2-3:01*,13* \
	patched:four-node-uneven:01*,13*
TOPOS := two-node cpuless hotplug memless one-node four-node two-node-3-2 two-node-2-3 four-node-uneven
# make check-full: both kernels and the debug kernel, every case, every
# topology, the long churn on each and the long variants of 22, 23, 41
# and 44 (CHURN_CYCLES set in the guest: more injection points, rounds,
# offline time); then, with BLKTESTS=, blktests' block and scsi groups
# on the three kernels in two-node.
FULL_RUNS ?= $(foreach t,$(TOPOS),vanilla:$(t) patched:$(t) debug:$(t))

.PHONY: all help plan check check-full lint lint-series check-upstream deps tree export kernels kernels-debug kernels-leak kernels-rules vm compare compare-smoke compare-scan compare-rules compare-rules-matrix inspector host-check clean distclean
.NOTPARALLEL:

all: help

help:
	@$(H)/help.sh

# DEPS='lint series': only those groups (harness/deps.sh --list).
deps:
	@$(H)/deps.sh $(DEPS)

# The first prerequisite of check, vm, blktests and compare: the runs,
# settings and command-line names checked and the plan printed before
# anything is installed or built (harness/lib/plan.sh); PLAN: the target's runs.
plan:
	@harness/lib/plan.sh --names '$(strip $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v)))' $(foreach r,$(PLAN),'$(r)')
check: PLAN = $(CHECK_RUNS)
check-full: PLAN = $(FULL_RUNS)
vm: PLAN = $(K):$(TOPO):$(CASES)
blktests: PLAN = --no-cases $(K):$(TOPO)
compare compare-rules: PLAN = --no-cases rule-a:$(RULES_TOPO) rule-b:$(RULES_TOPO)
compare-rules-matrix: PLAN = --no-cases $(foreach t,$(RULES_MATRIX),rule-a:$(t) rule-b:$(t))

# need-A+B: the package groups A and B (installed as root, else named).
need-%:
	@$(H)/deps.sh $(subst +, ,$*)

lint: need-base+lint
	@$(H)/lint.sh

tree: need-base+tree
	@$(H)/ktree.sh

# POSTER="Name <addr>" (and BASE_COMMIT=), from the command line or the
# environment: also the postable series (build/postings/); without it the
# tracked export is done and the target fails (exit 3).
export: need-base
	@$(H)/export.sh

# Not part of make check (harness/README).
check-upstream: need-base+kernel
	@$(H)/check-upstream.sh $(if $(ORIG),--orig $(ORIG))

kernels: need-base+tree+kernel tree
	@$(H)/kbuild.sh vanilla vanilla
	@$(H)/kbuild.sh patched patched

kernels-debug: need-base+tree+kernel tree
	@$(H)/kbuild.sh debug patched debug

kernels-leak: need-base+tree+kernel tree
	@$(H)/kbuild.sh leak patched leak

vm: plan need-base+guest
	@$(H)/vm.sh $(K) $(TOPO) '$(CASES)'

CHECK_NEEDS := need-base+lint+tree+kernel+guest+meter
check: plan $(CHECK_NEEDS) lint kernels kernels-leak
	@$(H)/check.sh $(foreach r,$(CHECK_RUNS),'$(r)')

check-full: plan $(CHECK_NEEDS) lint kernels kernels-debug
	@$(H)/check.sh --churn long $(foreach r,$(FULL_RUNS),'$(r)')
	@if [ -z '$(BLKTESTS)' ]; then echo "check-full: BLKTESTS unset: blktests' block and scsi groups not run (blktests/README)"; \
	else rc=0; for k in vanilla patched debug; do VM_TIMEOUT=14400 blktests/run.sh '$(BLKTESTS)' $$k two-node block scsi || rc=1; done; \
		blktests/table.py compare build/runs/blktests-vanilla-two-node build/runs/blktests-patched-two-node || rc=1; exit $$rc; fi

lint-series: need-base+tree+kernel+series tree
	@$(H)/lint-series.sh

COMPARE_NEEDS := need-base+tree+kernel+guest+meter
# Three parts: IOPS and remote accesses, the scan (compare-scan), the
# queue-node rules (compare-rules); last, one verdict line over the IOPS
# rows (harness/compare-verdict.sh: exit 1 when a row is not met).
compare: plan $(COMPARE_NEEDS) kernels kernels-rules
	@$(H)/compare.sh
	@$(H)/compare.sh --rules '$(RULES_TOPO)' '$(RULES_REPS)' '$(RULES_TARGETS)'
	@$(H)/compare-verdict.sh build/compare build/compare-rules

compare-smoke: plan $(COMPARE_NEEDS) kernels
	@$(H)/compare.sh --smoke
	@$(H)/compare-verdict.sh build/compare-smoke

# make compare's last part alone (harness/compare-scan.sh: other kernels,
# repetitions, queue counts there).
compare-scan: plan need-base+tree+kernel+guest kernels
	@$(H)/compare-scan.sh

# The blk-mq queue-node rules (harness/README): kernels vanilla, rule-a
# (the series), rule-b (the series with patches/alt/rule-b.patch on top),
# in RULES_TOPO, RULES_REPS repetitions, on RULES_TARGETS (ahci too:
# RULES_TARGETS='null_blk megaraid_sas ahci').  compare-rules-matrix: the
# same in each topology of RULES_MATRIX, then one table over them
# (harness/compare-rules-matrix.sh).
RULES_TOPO ?= two-node-3-2
RULES_REPS ?= 5
RULES_TARGETS ?= null_blk megaraid_sas
RULES_MATRIX ?= two-node-2-1 two-node-3-2 two-node-4-3 two-node-2-3 two-node-2-3-dev1 four-node-uneven
kernels-rules: need-base+tree+kernel tree
	@$(H)/kbuild.sh rule-a patched
	@$(H)/kbuild.sh rule-b "$$($(H)/kalt.sh rule-b)"

compare-rules: plan $(COMPARE_NEEDS) kernels kernels-rules
	@$(H)/compare.sh --rules '$(RULES_TOPO)' '$(RULES_REPS)' '$(RULES_TARGETS)'
	@$(H)/compare-verdict.sh build/compare-rules

compare-rules-matrix: plan $(COMPARE_NEEDS) kernels kernels-rules
	@RULES_REPS='$(RULES_REPS)' RULES_TARGETS='$(RULES_TARGETS)' $(H)/compare-rules-matrix.sh $(RULES_MATRIX)

# blktests is not in Debian's archive: CI cannot run these (blktests/README).
# BTESTS='block scsi' or 'scsi/013 ...' picks groups or tests (default: all
# of blktests/tests/); BTEXCLUDE= tests left out (default block/042, "none");
# BTTIMEOUT= seconds: blktests' TIMEOUT for its TIMED tests.
# The table: build/runs/blktests-K-TOPO/table.txt; two runs side by side:
# blktests/table.py compare VANILLA-RUN PATCHED-RUN.
.PHONY: blktests
blktests: plan need-base+guest+blktests
	@$(if $(BTEXCLUDE),BTEXCLUDE='$(BTEXCLUDE)') $(if $(BTTIMEOUT),BTTIMEOUT='$(BTTIMEOUT)') blktests/run.sh '$(BLKTESTS)' '$(K)' '$(TOPO)' $(BTESTS)

inspector:
	$(MAKE) -C drivers/scsi_numa_inspect $(if $(KDIR),KDIR=$(KDIR))

host-check:
	@$(H)/host-check.sh $(if $(DISK),--disk $(DISK)) $(if $(CONFIRM_WRITE),--confirm-write $(CONFIRM_WRITE)) \
		$(if $(INSPECTOR),--inspector $(INSPECTOR))

clean:
	rm -rf build/runs build/inspector-* build/kmemleak-control-* build/fail-nth-* build/pfnmap-* build/kublk-* build/compare* build/kvm-probe*

distclean:
	rm -rf build
