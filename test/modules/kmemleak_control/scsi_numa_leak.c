// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_leak: the positive control of the harness's kmemleak scans.
 *
 * Loading it allocates one object and drops the only pointer to it, so a
 * kmemleak scan must report it, with scsi_numa_leak_init in its backtrace
 * (test/cases/05-kmemleak-control).  Nothing else: it is test code, built
 * only for kernels with CONFIG_DEBUG_KMEMLEAK (harness/kbuild.sh) and
 * loaded only by that case.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#define SCSI_NUMA_LEAK_SIZE 96

/*
 * The object comes from a cache of its own, on a fresh slab, with a debug
 * flag.  kmemleak reports an object only when no scanned memory holds its
 * address, and on a 7.3 kernel without SLUB debugging SLUB itself may:
 * a per-CPU sheaf (a kmalloc'd array that keeps the address after
 * handing the object out; from such a cache the object was never
 * reported, with SLAB_STORE_USER, which turns sheaves off, at the second
 * scan), or a live object that held a pointer to the slot's previous
 * user (from kmalloc-96 never reported, slub_debug=U or PU or not;
 * KASAN's quarantine keeps freed slots out of use in the debug kernel).
 * SLAB_STORE_USER needs CONFIG_SLUB_DEBUG: without it the flag is
 * dropped, the cache gets sheaves and the control fails, unreported.
 * The cache and the object stay when the module goes (the name is
 * copied); one load per boot.
 */
#ifndef SLAB_NO_MERGE
#define SLAB_NO_MERGE 0
#endif
static struct kmem_cache *scsi_numa_leak_cache;

/*
 * Kept out of line so that the backtrace kmemleak records for the object
 * names this function whatever the compiler inlines.
 */
static noinline int scsi_numa_leak_one(void)
{
	char *p;

	scsi_numa_leak_cache = kmem_cache_create("scsi_numa_leak", SCSI_NUMA_LEAK_SIZE, 0,
						 SLAB_NO_MERGE | SLAB_STORE_USER, NULL);
	if (!scsi_numa_leak_cache)
		return -ENOMEM;
	p = kmem_cache_alloc(scsi_numa_leak_cache, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	/* Content to recognise in the report's hex dump. */
	strscpy(p, "scsi_numa_kmemleak_control", SCSI_NUMA_LEAK_SIZE);
	return 0;
}

static int __init scsi_numa_leak_init(void)
{
	int ret = scsi_numa_leak_one();

	if (!ret)
		pr_info("scsi_numa_leak: leaked one %d-byte object on purpose\n", SCSI_NUMA_LEAK_SIZE);
	return ret;
}

static void __exit scsi_numa_leak_exit(void)
{
}

module_init(scsi_numa_leak_init);
module_exit(scsi_numa_leak_exit);
MODULE_DESCRIPTION("Leaks one object on load: positive control for kmemleak");
MODULE_LICENSE("GPL");
