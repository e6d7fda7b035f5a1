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
 * Kept out of line so that the backtrace kmemleak records for the object
 * names this function whatever the compiler inlines.
 */
static noinline int scsi_numa_leak_one(void)
{
	char *p = kmalloc(SCSI_NUMA_LEAK_SIZE, GFP_KERNEL);

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
