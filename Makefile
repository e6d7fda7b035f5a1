# SCSI NUMA placement: kernel series, placement inspector and test harness.
# See README.  Everything generated goes under build/.
#
#   make check              lint, deps, the kernels, every topology on each, summary
#   make check-full         check + the debug kernel in every topology + long churn
#   make lint               host-side checks only (seconds, no guest)
#   make kernels            build build/kernels/{vanilla,patched}
#   make kernels-debug      build build/kernels/debug (the series, KASAN/kmemleak/lockdep...)
#   make vm K=patched TOPO=cpuless [CASES='1*']   one guest run, TAP on stdout
#   make compare            fio: vanilla vs patched, CPUs local vs remote (COMPARE_REPS, FIO_*)
#   make tree / make export the kernel git tree <-> patches/
#   make inspector KDIR=... the inspector alone, against any kernel build dir

H := test/harness
TOPOS ?= two-node cpuless hotplug memless one-node
KERNELS ?= vanilla patched
# The debug kernel's runs in make check (the rest: make check-full).
DEBUG_TOPOS ?= two-node
K ?= patched
TOPO ?= two-node
CASES ?=

# What each kernel must be: the host's word, not the guest's guess.  A
# "patched" kernel without the series fails its run (run-cases).
expect = $(if $(filter vanilla,$(1)),vanilla,numa)

.PHONY: all check check-full lint deps tree export kernels kernels-debug vm compare inspector clean distclean
.NOTPARALLEL:

all: kernels

deps:
	@$(H)/deps.sh

lint:
	@$(H)/lint.sh

tree: deps
	@$(H)/ktree.sh

export:
	@$(H)/export.sh

kernels: tree
	@$(H)/kbuild.sh vanilla base
	@$(H)/kbuild.sh patched series

kernels-debug: tree
	@$(H)/kbuild.sh debug series debug

vm:
	@VM_EXPECT=$(call expect,$(K)) $(H)/vm.sh $(K) $(TOPO) '$(CASES)'

check: lint deps kernels kernels-debug
	@$(H)/check.sh "$(foreach k,$(KERNELS),$(k)=$(call expect,$(k)))" "$(TOPOS)" \
		"debug=numa" "$(DEBUG_TOPOS)"

check-full: lint deps kernels kernels-debug
	@CHECK_CHURN=long $(H)/check.sh "$(foreach k,$(KERNELS),$(k)=$(call expect,$(k)))" "$(TOPOS)" \
		"debug=numa" "$(TOPOS)"

compare: deps kernels
	@$(H)/compare.sh

inspector:
	$(MAKE) -C drivers/scsi_numa_inspect $(if $(KDIR),KDIR=$(KDIR))

clean:
	rm -rf build/runs build/inspector-* build/compare* build/kvm-probe*

distclean:
	rm -rf build
