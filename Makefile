# SCSI NUMA placement: kernel series, placement inspector and test harness.
# See README.  Everything generated goes under build/.
#
#   make check              deps, both kernels, every topology on each, summary
#   make kernels            build build/kernels/{vanilla,patched}
#   make vm K=patched TOPO=cpuless [CASES='1*']   one guest run, TAP on stdout
#   make compare            fio: vanilla vs patched, CPUs local vs remote (COMPARE_REPS, FIO_*)
#   make tree / make export the kernel git tree <-> patches/
#   make inspector KDIR=... the inspector alone, against any kernel build dir

H := test/harness
TOPOS ?= two-node cpuless
KERNELS ?= vanilla patched
K ?= patched
TOPO ?= two-node
CASES ?=

.PHONY: all check deps tree export kernels vm compare inspector clean distclean

all: kernels

deps:
	@$(H)/deps.sh

tree:
	@$(H)/ktree.sh

export:
	@$(H)/export.sh

kernels: tree
	@$(H)/kbuild.sh vanilla base
	@$(H)/kbuild.sh patched series

vm:
	@$(H)/vm.sh $(K) $(TOPO) '$(CASES)'

check: deps kernels
	@$(H)/check.sh "$(KERNELS)" "$(TOPOS)"

compare: deps kernels
	@$(H)/compare.sh

inspector:
	$(MAKE) -C drivers/scsi_numa_inspect $(if $(KDIR),KDIR=$(KDIR))

clean:
	rm -rf build/runs build/inspector-*

distclean:
	rm -rf build
