# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# expect_of KERNEL: what the host requires a kernel of that name to be --
# "vanilla" (build/kernels/vanilla*: without the series) or "patched" (any
# other name: patched, debug, host-...).  The one place the expectation is
# derived; vm.sh puts it on the guest's command line (scsi_numa.expect=).
expect_of() { case $1 in vanilla*) echo vanilla ;; *) echo patched ;; esac; }
