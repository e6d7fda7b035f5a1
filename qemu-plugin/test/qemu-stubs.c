// SPDX-License-Identifier: GPL-2.0
/*
 * The QEMU plugin API functions that the plugin's parts reference, for the
 * host-only unit tests (the test/ programs): exactly those, so that the tests
 * link with no symbol left unresolved (a new API call in the plugin fails
 * the tests' link until it is stubbed here).  No test reaches QEMU: each
 * stub aborts, naming itself, so a test that does fails loudly.
 * The prototypes come from the header: a changed signature fails to build.
 */
#include <stdio.h>
#include <stdlib.h>

#include <qemu-plugin.h>

static void __attribute__((noreturn)) unexpected(const char *fn)
{
	fprintf(stderr, "qemu-stubs: %s() called: the unit tests do not run QEMU\n", fn);
	abort();
}

#define STUB(ret, name, ...)	ret name(__VA_ARGS__) { unexpected(#name); }

STUB(bool, qemu_plugin_bool_parse, const char *name, const char *val, bool *ret)
STUB(struct qemu_plugin_hwaddr *, qemu_plugin_get_hwaddr, qemu_plugin_meminfo_t info,
     uint64_t vaddr)
STUB(bool, qemu_plugin_hwaddr_is_io, const struct qemu_plugin_hwaddr *haddr)
STUB(uint64_t, qemu_plugin_hwaddr_phys_addr, const struct qemu_plugin_hwaddr *haddr)
STUB(const void *, qemu_plugin_insn_data, const struct qemu_plugin_insn *insn)
STUB(size_t, qemu_plugin_insn_size, const struct qemu_plugin_insn *insn)
STUB(uint64_t, qemu_plugin_insn_vaddr, const struct qemu_plugin_insn *insn)
STUB(bool, qemu_plugin_mem_is_store, qemu_plugin_meminfo_t info)
STUB(void, qemu_plugin_register_atexit_cb, qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
     void *userdata)
STUB(void, qemu_plugin_register_vcpu_insn_exec_cb, struct qemu_plugin_insn *insn,
     qemu_plugin_vcpu_udata_cb_t cb, enum qemu_plugin_cb_flags flags, void *userdata)
STUB(void, qemu_plugin_register_vcpu_mem_cb, struct qemu_plugin_insn *insn,
     qemu_plugin_vcpu_mem_cb_t cb, enum qemu_plugin_cb_flags flags,
     enum qemu_plugin_mem_rw rw, void *userdata)
STUB(void, qemu_plugin_register_vcpu_tb_trans_cb, qemu_plugin_id_t id,
     qemu_plugin_vcpu_tb_trans_cb_t cb)
STUB(struct qemu_plugin_insn *, qemu_plugin_tb_get_insn, const struct qemu_plugin_tb *tb,
     size_t idx)
STUB(size_t, qemu_plugin_tb_n_insns, const struct qemu_plugin_tb *tb)
