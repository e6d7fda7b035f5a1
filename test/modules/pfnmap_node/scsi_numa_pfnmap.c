// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_pfnmap: the NUMA node of the pages behind a process's PFN
 * mappings -- a driver's remap_pfn_range(), such as ublk's per-queue I/O
 * descriptor buffers, which /proc/PID/pagemap reports as not present and
 * move_pages(2) cannot query.  Test code for case 42
 * (test/cases/42-ublk), built with every kernel (harness/kbuild.sh).
 *
 * Write a PID to /sys/kernel/debug/scsi_numa_pfnmap, then read it: one
 * line per VM_PFNMAP mapping of that process,
 *   START PGOFF NODE [NODE..]
 * START the mapping's first address and PGOFF its file offset in bytes
 * (both hex, as in /proc/PID/maps), then the node of the page behind each
 * of its pages ("?" where no page backs it).
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>

static DEFINE_MUTEX(pfnmap_lock);
static pid_t pfnmap_pid;
static struct dentry *pfnmap_file;

static void pfnmap_vma(struct seq_file *m, struct vm_area_struct *vma)
{
	unsigned long addr, pfn;

	seq_printf(m, "%lx %lx", vma->vm_start, vma->vm_pgoff << PAGE_SHIFT);
	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE) {
		struct follow_pfnmap_args args = { .vma = vma, .address = addr };

		if (follow_pfnmap_start(&args)) {
			seq_puts(m, " ?");
			continue;
		}
		pfn = args.pfn;
		follow_pfnmap_end(&args);
		if (pfn_valid(pfn))
			seq_printf(m, " %d", page_to_nid(pfn_to_page(pfn)));
		else
			seq_puts(m, " ?");
	}
	seq_putc(m, '\n');
}

static int pfnmap_show(struct seq_file *m, void *v)
{
	struct vm_area_struct *vma;
	struct task_struct *task;
	struct mm_struct *mm;
	unsigned long addr = 0;
	struct pid *spid;
	pid_t pid;

	mutex_lock(&pfnmap_lock);
	pid = pfnmap_pid;
	mutex_unlock(&pfnmap_lock);
	spid = find_get_pid(pid);
	task = get_pid_task(spid, PIDTYPE_PID);
	put_pid(spid);
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	put_task_struct(task);
	if (!mm)
		return -ESRCH;
	mmap_read_lock(mm);
	while ((vma = find_vma(mm, addr))) {
		if (vma->vm_flags & VM_PFNMAP)
			pfnmap_vma(m, vma);
		addr = vma->vm_end;
	}
	mmap_read_unlock(mm);
	mmput(mm);
	return 0;
}

static int pfnmap_open(struct inode *inode, struct file *file)
{
	return single_open(file, pfnmap_show, NULL);
}

static ssize_t pfnmap_write(struct file *file, const char __user *buf,
			    size_t len, loff_t *ppos)
{
	int pid, ret;

	ret = kstrtoint_from_user(buf, len, 10, &pid);
	if (ret)
		return ret;
	if (pid <= 0)
		return -EINVAL;
	mutex_lock(&pfnmap_lock);
	pfnmap_pid = pid;
	mutex_unlock(&pfnmap_lock);
	return len;
}

static const struct file_operations pfnmap_fops = {
	.owner = THIS_MODULE,
	.open = pfnmap_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = pfnmap_write,
};

static int __init pfnmap_init(void)
{
	pfnmap_file = debugfs_create_file("scsi_numa_pfnmap", 0600, NULL, NULL,
					  &pfnmap_fops);
	return 0;
}

static void __exit pfnmap_exit(void)
{
	debugfs_remove(pfnmap_file);
}

module_init(pfnmap_init);
module_exit(pfnmap_exit);
MODULE_DESCRIPTION("scsi_numa test: nodes of the pages behind PFN mappings");
MODULE_LICENSE("GPL");
