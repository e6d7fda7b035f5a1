// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_inspect: report the NUMA node that backs every SCSI I/O-path
 * object of every SCSI host, in the record format of scsi_numa_inspect.h.
 *
 * The node is measured, not asked: it is the node of the page behind the
 * object (virt_to_page() for the direct map, vmalloc_to_page() for vmalloc),
 * so it shows where an allocation really landed, fallbacks included.
 * Builds against Linux 7.3, with or without the NUMA series; not against
 * 6.12, which has no q->elevator_lock.
 *
 * Safe to read on a production machine while hosts and devices come and
 * go: each host is printed with its LLD module pinned (its template is
 * read), its scan_mutex held (no target or device is added or removed, and
 * scsi_remove_host() cannot start freeing the tag set), its state read under
 * host_lock (the tag set is walked only for a host that is running or in
 * error recovery), and each device's driver data read under device_lock.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <scsi/scsi_transport.h>

#include "scsi_numa_inspect.h"

/* Host numbers are small in practice; a few thousand lookups per read is cheap. */
static unsigned int max_hostno = 4096;
module_param(max_hostno, uint, 0644);
MODULE_PARM_DESC(max_hostno, "highest SCSI host number looked up (default 4096)");

/*
 * Off by default: kernel addresses are not for every reader.  The meter
 * (qemu-plugin/) needs them to attribute remote accesses to object kinds.
 */
static bool addresses;
module_param(addresses, bool, 0644);
MODULE_PARM_DESC(addresses, "append each object's kernel address and size to its record (default off)");

static struct dentry *scsi_numa_file;

#define SCSI_NUMA_ENUM(kind, desc) SCSI_NUMA_##kind,
#define SCSI_NUMA_NAME(kind, desc) [SCSI_NUMA_##kind] = #kind,
enum scsi_numa_kind { SCSI_NUMA_KINDS(SCSI_NUMA_ENUM) };
static const char * const scsi_numa_kind_name[] = { SCSI_NUMA_KINDS(SCSI_NUMA_NAME) };

/*
 * The trailing fields of an obj record with addresses=1: " <address> <size>".
 * @size 0: the whole slab allocation that starts at @p (ksize(), which does
 * not unpoison anything under KASAN since 6.x), or unknown (0) elsewhere.
 */
static void scsi_numa_addr(struct seq_file *m, const void *p, size_t size, bool slab)
{
	if (addresses)
		seq_printf(m, " %px %zu", p, size || !slab ? size : ksize(p));
	seq_putc(m, '\n');
}

static void scsi_numa_obj(struct seq_file *m, struct Scsi_Host *shost,
		    enum scsi_numa_kind kind, const char *id, const void *p, size_t size)
{
	struct page *page;
	const char *mem;

	if (!p)
		return;
	if (is_vmalloc_addr(p)) {
		page = vmalloc_to_page(p);
		mem = "vmalloc";
	} else if (virt_addr_valid(p)) {
		page = virt_to_page(p);
		mem = "slab";
	} else {
		return;
	}
	if (!page)
		return;
	seq_printf(m, "obj %u %s %s %d %s", shost->host_no, scsi_numa_kind_name[kind], id,
		   page_to_nid(page), mem);
	scsi_numa_addr(m, p, size, !is_vmalloc_addr(p));
}

/*
 * @name: the id of the tags: "host/tags<hctx index>" or "host/stags" (tags
 * shared by all hctxs) for the tag set's, "<H:C:T:L>/hctx<n>/sched" or
 * "<H:C:T:L>/ssched" for an I/O scheduler's.
 */
static void scsi_numa_tags(struct seq_file *m, struct Scsi_Host *shost,
		     struct blk_mq_tags *tags, const char *name)
{
	struct blk_mq_tag_set *set = &shost->tag_set;
	size_t rq_size = round_up(sizeof(struct request) + set->cmd_size,
				  cache_line_size());
	struct page *page;
	unsigned int i, n = 0, t = 0;
	char id[96];

	if (!tags)
		return;
	scsi_numa_obj(m, shost, SCSI_NUMA_tags, name, tags, sizeof(*tags));
	list_for_each_entry(page, &tags->page_list, lru) {
		char *start = page_address(page), *end = start;

		/*
		 * blk_mq_alloc_rqs() fills the pages in list order with the
		 * requests of consecutive tags: a page's extent is its run.
		 */
		while (tags->static_rqs && t < tags->nr_tags &&
		       (char *)tags->static_rqs[t] == end) {
			end += rq_size;
			t++;
		}
		snprintf(id, sizeof(id), "%s/page%u", name, n++);
		seq_printf(m, "obj %u %s %s %d slab", shost->host_no,
			   scsi_numa_kind_name[SCSI_NUMA_rq_page], id, page_to_nid(page));
		scsi_numa_addr(m, start, end - start, false);
	}
	if (!tags->static_rqs)
		return;
	for (i = 0; i < tags->nr_tags; i++) {
		struct request *rq = tags->static_rqs[i];
		struct scsi_cmnd *cmd;

		if (!rq)
			continue;
		cmd = blk_mq_rq_to_pdu(rq);
		snprintf(id, sizeof(id), "%s/tag%u", name, i);
		scsi_numa_obj(m, shost, SCSI_NUMA_sense, id, cmd->sense_buffer, SCSI_SENSE_BUFFERSIZE);
	}
}

static void scsi_numa_sdev(struct seq_file *m, struct Scsi_Host *shost,
		     struct scsi_device *sdev)
{
	struct request_queue *q = sdev->request_queue;
	struct device_driver *drv;
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;
	char id[48], sub[80];

	snprintf(id, sizeof(id), "%u:%u:%llu", sdev->channel, sdev->id, sdev->lun);
	scsi_numa_obj(m, shost, SCSI_NUMA_sdev, id, sdev, sizeof(*sdev) + shost->transportt->device_size);
	scsi_numa_obj(m, shost, SCSI_NUMA_budget_map, id, sdev->budget_map.map,
		sdev->budget_map.map_nr * sizeof(*sdev->budget_map.map));
	if (!q)
		return;
	scsi_numa_obj(m, shost, SCSI_NUMA_request_queue, id, q, sizeof(*q));
	queue_for_each_hw_ctx(q, hctx, i) {
		snprintf(sub, sizeof(sub), "%s/hctx%lu", id, i);
		scsi_numa_obj(m, shost, SCSI_NUMA_hctx, sub, hctx, sizeof(*hctx));
	}
	/*
	 * With an I/O scheduler (mq-deadline is the default of a single-queue
	 * device) the requests in use are the scheduler's, allocated per
	 * hardware queue (or shared) like the tag set's: report them as tags,
	 * rq_page and sense of the device.  elevator_lock keeps them from being
	 * switched and freed meanwhile (lock order: scan_mutex, elevator_lock,
	 * as in the scan's synchronous sd probe).
	 */
	mutex_lock(&q->elevator_lock);
	if (q->elevator && (shost->tag_set.flags & BLK_MQ_F_TAG_HCTX_SHARED)) {
		snprintf(sub, sizeof(sub), "%s/ssched", id);
		scsi_numa_tags(m, shost, q->sched_shared_tags, sub);
	} else if (q->elevator) {
		queue_for_each_hw_ctx(q, hctx, i) {
			snprintf(sub, sizeof(sub), "%s/hctx%lu/sched", id, i);
			scsi_numa_tags(m, shost, hctx->sched_tags, sub);
		}
	}
	mutex_unlock(&q->elevator_lock);
	/* sd/sr probe and remove run under the device lock. */
	device_lock(&sdev->sdev_gendev);
	drv = sdev->sdev_gendev.driver;
	if (drv && !strcmp(drv->name, "sd"))
		scsi_numa_obj(m, shost, SCSI_NUMA_scsi_disk, id, dev_get_drvdata(&sdev->sdev_gendev), 0);
	else if (drv && !strcmp(drv->name, "sr"))
		scsi_numa_obj(m, shost, SCSI_NUMA_scsi_cd, id, dev_get_drvdata(&sdev->sdev_gendev), 0);
	scsi_numa_obj(m, shost, SCSI_NUMA_gendisk, id, q->disk, sizeof(*q->disk));
	device_unlock(&sdev->sdev_gendev);
}

static void scsi_numa_host(struct seq_file *m, struct Scsi_Host *shost)
{
	struct blk_mq_tag_set *set = &shost->tag_set;
	struct device *dma = shost->dma_dev;
	struct scsi_device *sdev;
	struct scsi_target *starget;
	enum scsi_host_state state;
	unsigned long flags;
	unsigned int i;
	char id[32];

	/* The template (names, below) belongs to the LLD module. */
	if (!try_module_get(shost->hostt->module))
		return;
	mutex_lock(&shost->scan_mutex);
	spin_lock_irqsave(shost->host_lock, flags);
	state = shost->shost_state;
	spin_unlock_irqrestore(shost->host_lock, flags);

	seq_printf(m, "host %u %s %s %d %d %d\n", shost->host_no,
		   shost->hostt->proc_name ?: shost->hostt->name ?: "-",
		   dma ? dev_name(dma) : "-", dma ? dev_to_node(dma) : NUMA_NO_NODE,
		   dev_to_node(&shost->shost_gendev), set->numa_node);

	scsi_numa_obj(m, shost, SCSI_NUMA_shost, "host", shost, sizeof(*shost));
	/* hostdata is the tail of the same allocation: only if there is one. */
	if (ksize(shost) > sizeof(*shost))
		scsi_numa_obj(m, shost, SCSI_NUMA_hostdata, "host", shost->hostdata,
			ksize(shost) - sizeof(*shost));
	scsi_numa_obj(m, shost, SCSI_NUMA_shost_data, "host", shost->shost_data,
		shost->transportt->host_size);

	/*
	 * scsi_remove_host() sets SHOST_CANCEL* under scan_mutex before it
	 * frees the tag set: with the mutex held, a running or recovering
	 * host keeps its tags until we are done.
	 */
	if (state != SHOST_RUNNING && state != SHOST_RECOVERY)
		goto out;
	if (set->shared_tags) {
		scsi_numa_tags(m, shost, set->shared_tags, "host/stags");
	} else if (set->tags) {
		for (i = 0; i < set->nr_hw_queues; i++) {
			snprintf(id, sizeof(id), "host/tags%u", i);
			scsi_numa_tags(m, shost, set->tags[i], id);
		}
	}

	spin_lock_irqsave(shost->host_lock, flags);
	list_for_each_entry(starget, &shost->__targets, siblings) {
		snprintf(id, sizeof(id), "%u:%u", starget->channel, starget->id);
		scsi_numa_obj(m, shost, SCSI_NUMA_starget, id, starget,
			sizeof(*starget) + shost->transportt->target_size);
	}
	spin_unlock_irqrestore(shost->host_lock, flags);

	shost_for_each_device(sdev, shost)
		scsi_numa_sdev(m, shost, sdev);
out:
	mutex_unlock(&shost->scan_mutex);
	module_put(shost->hostt->module);
}

/*
 * A seq_file iterator over host numbers: one host per show(), so that a
 * host's locks are held only while it is printed, and the buffer grows per
 * host rather than for the whole report.  *pos is the next host number to
 * look up; SEQ_START_TOKEN prints the header.
 */
static void *scsi_numa_find(loff_t *pos)
{
	struct Scsi_Host *shost;

	for (; *pos <= max_hostno; (*pos)++) {
		shost = scsi_host_lookup(*pos);
		if (shost)
			return shost;
	}
	return NULL;
}

static void *scsi_numa_start(struct seq_file *m, loff_t *pos)
{
	loff_t hostno;
	void *p;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	hostno = *pos - 1;
	p = scsi_numa_find(&hostno);
	*pos = hostno + 1;
	return p;
}

static void *scsi_numa_next(struct seq_file *m, void *v, loff_t *pos)
{
	loff_t hostno = *pos;	/* v is host number *pos - 1 */

	if (v != SEQ_START_TOKEN)
		scsi_host_put(v);
	v = scsi_numa_find(&hostno);
	*pos = hostno + 1;
	return v;
}

static void scsi_numa_stop(struct seq_file *m, void *v)
{
	if (v && v != SEQ_START_TOKEN)
		scsi_host_put(v);
}

static int scsi_numa_seq_show(struct seq_file *m, void *v)
{
	if (v == SEQ_START_TOKEN)
		seq_printf(m, "# scsi_numa_inspect %d\n", SCSI_NUMA_FORMAT_VERSION);
	else
		scsi_numa_host(m, v);
	return 0;
}

static const struct seq_operations scsi_numa_s_sops = {
	.start	= scsi_numa_start,
	.next	= scsi_numa_next,
	.stop	= scsi_numa_stop,
	.show	= scsi_numa_seq_show,
};
DEFINE_SEQ_ATTRIBUTE(scsi_numa_s);

static int __init scsi_numa_init(void)
{
	scsi_numa_file = debugfs_create_file(SCSI_NUMA_DEBUGFS_NAME, 0444, NULL, NULL, &scsi_numa_s_fops);
	return 0;
}

static void __exit scsi_numa_exit(void)
{
	debugfs_remove(scsi_numa_file);
}

module_init(scsi_numa_init);
module_exit(scsi_numa_exit);
MODULE_DESCRIPTION("Report the NUMA node backing SCSI I/O-path objects");
MODULE_LICENSE("GPL");
