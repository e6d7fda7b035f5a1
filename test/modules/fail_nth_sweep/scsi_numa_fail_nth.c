// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_fail_nth: a KUnit suite that fails each allocation of a call in
 * turn, through the calling task's fail-nth count (Documentation/
 * fault-injection/fault-injection.rst, /proc/<pid>/fail-nth): point n
 * fails the n-th allocation of this task that reaches failslab or
 * fail_page_alloc, for n = 1, 2, ... until the call makes fewer than n.
 * Allocations that the call hands to other tasks (kthreadd, workqueues)
 * are not counted.  The calls, the series' node-aware allocations among
 * theirs:
 *   blk_mq_alloc_tag_set()          set->tags, set->hctx_node, the tags
 *                                   and requests of each hardware queue
 *   blk_mq_update_nr_hw_queues()    grown (a disk with mq-deadline) and
 *                                   shrunk, a new disk each point: the
 *                                   hctxs, the new set->tags and
 *                                   set->hctx_node, driver and scheduler
 *                                   tags (skipped on vanilla: it reads
 *                                   past set->tags there)
 *   scsi_host_alloc_node()          the Scsi_Host (scsi_host_alloc() on
 *   scsi_add_host()                 the vanilla kernel), its tag set
 *
 * Both fault attributes must count GFP_KERNEL allocations (ignore-gfp-wait
 * N; test/cases/26-kunit-fail-nth sets them up): a sweep with fewer
 * points than its call has allocations it cannot avoid fails.
 *
 * Each outcome is judged against the same call made without a failure
 * (the reference), not against blk-mq's or SCSI's code:
 *  - an error leaves nothing allocated (the set's arrays NULL; of a host,
 *    no number kept, no scsi_eh_<n> thread, nothing to look up);
 *  - a success is the reference's result, except for the kernel's own
 *    fallbacks, each reported and counted: a smaller tag depth (logged:
 *    "reduced tag depth"), an hctx kept on its old node (logged), the
 *    elevator gone (logged), a simpler CPU-to-queue map (not logged; the
 *    nodes then judged from that map); a point where nothing failed must
 *    give the reference's result exactly;
 *  - a host whose device names could not be allocated (scsi_host_alloc()
 *    ignores dev_set_name()'s failure) must be refused by scsi_add_host();
 *  - an update of the queue count leaves the set and the queue both at the
 *    old or both at the new count, every hctx that a CPU maps to with the
 *    set's driver tags, and a request executed from every online CPU.
 * Run it on the debug kernel for KASAN, lockdep and kmemleak's verdict.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* Far more than any of the calls allocates: the sweep must end first. */
#define T_MAX_POINTS	5000
#define T_DEPTH		64

/* Point @n: the @n-th allocation of this task that reaches injection fails. */
static void t_arm(unsigned int n)
{
	WRITE_ONCE(current->fail_nth, n);
}

/* Disarm; whether the armed allocation was failed (the count ran out). */
static bool t_disarm(void)
{
	unsigned int left = READ_ONCE(current->fail_nth);

	WRITE_ONCE(current->fail_nth, 0);
	return left == 0;
}

/*
 * The node the sets and hosts are made for: the first online node (in the
 * two-node guest, another node than queue 0's with several queues, so that
 * an hctx kept on its old node shows).
 */
static int t_home(void)
{
	return first_online_node;
}

/* Queues to grow to: one per online CPU, at least two. */
static unsigned int t_nr_queues(void)
{
	return max(2U, num_online_cpus());
}

static blk_status_t t_queue_rq(struct blk_mq_hw_ctx *hctx,
			       const struct blk_mq_queue_data *bd)
{
	blk_mq_start_request(bd->rq);
	blk_mq_end_request(bd->rq, BLK_STS_OK);
	return BLK_STS_OK;
}

static const struct blk_mq_ops t_mq_ops = {
	.queue_rq	= t_queue_rq,
};

static const struct block_device_operations t_bdops = {
	.owner		= THIS_MODULE,
};

KUNIT_DEFINE_ACTION_WRAPPER(t_free_tag_set, blk_mq_free_tag_set,
			    struct blk_mq_tag_set *);

static void t_set_init(struct blk_mq_tag_set *set, unsigned int nr)
{
	memset(set, 0, sizeof(*set));
	set->ops = &t_mq_ops;
	set->nr_hw_queues = nr;
	set->nr_maps = 1;
	set->queue_depth = T_DEPTH;
	set->numa_node = t_home();
}

/* Whether @set maps every possible CPU to the queue @ref does. */
static bool t_same_map(struct blk_mq_tag_set *set, const unsigned int *ref)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (set->map[0].mq_map[cpu] != ref[cpu])
			return false;
	return true;
}

/*
 * With a map other than the reference's (blk_mq_map_queues() falls back,
 * silently, to a simpler spread or to every CPU on the first queue when its
 * own allocations fail), the node a queue of several gets: its first
 * possible CPU's (what vanilla and the series both do for such a map), or
 * NUMA_NO_NODE when no CPU maps to it.
 */
static int t_first_cpu_node(struct blk_mq_tag_set *set, unsigned int q)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (set->map[0].mq_map[cpu] == q)
			return cpu_to_node(cpu);
	return NUMA_NO_NODE;
}

/*
 * The map of @set after point @n: every CPU on a queue of the set; the
 * reference's map (@ref_map), or a fallback, which is reported and
 * returns true.  The node of each queue kept by the set (the series'
 * set->hctx_node): the reference's (@ref_node) with the reference's map
 * or a single queue; else t_first_cpu_node().
 */
static bool t_expect_map(struct kunit *test, struct blk_mq_tag_set *set,
			 const unsigned int *ref_map, const int *ref_node,
			 unsigned int n)
{
	bool same = t_same_map(set, ref_map);
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_LT_MSG(test, set->map[0].mq_map[cpu],
				    set->nr_hw_queues,
				    "point %u: CPU %u's queue", n, cpu);
	if (!same)
		kunit_info(test, "point %u: a map other than the reference's\n",
			   n);
#ifdef T_SERIES
	for (unsigned int i = 0; i < set->nr_hw_queues; i++) {
		int want = same || set->nr_hw_queues == 1 ? ref_node[i] :
			   t_first_cpu_node(set, i);

		KUNIT_EXPECT_EQ_MSG(test, set->hctx_node[i], want,
				    "point %u: hctx_node[%u] of %u%s", n, i,
				    set->nr_hw_queues,
				    same ? "" : ", with another map");
	}
#endif
	return !same;
}

/* A set that succeeded at point @n against the fault-free @ref. */
static bool t_expect_set_like(struct kunit *test, struct blk_mq_tag_set *set,
			      struct blk_mq_tag_set *ref, unsigned int n)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, set->nr_hw_queues, ref->nr_hw_queues,
			    "point %u", n);
	KUNIT_EXPECT_LE_MSG(test, set->queue_depth, ref->queue_depth,
			    "point %u", n);
	KUNIT_EXPECT_GT_MSG(test, set->queue_depth, 0, "point %u", n);
	if (!set->tags || !set->map[0].mq_map ||
	    set->nr_hw_queues != ref->nr_hw_queues) {
		KUNIT_FAIL(test, "point %u: success without tags or map", n);
		return false;
	}
	for (i = 0; i < set->nr_hw_queues; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, set->tags[i],
					  "point %u: queue %u has no tags",
					  n, i);
#ifdef T_SERIES
	return t_expect_map(test, set, ref->map[0].mq_map, ref->hctx_node, n);
#else
	return t_expect_map(test, set, ref->map[0].mq_map, NULL, n);
#endif
}

/* blk_mq_alloc_tag_set() with each of its allocations failed in turn. */
static void alloc_tag_set(struct kunit *test)
{
	unsigned int nr = t_nr_queues(), n, failed = 0, done = 0, reduced = 0;
	unsigned int remapped = 0;
	struct blk_mq_tag_set *ref, *set;
	bool fired = true, other;
	int ret;

	ref = kunit_kzalloc(test, sizeof(*ref), GFP_KERNEL);
	set = kunit_kzalloc(test, sizeof(*set), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ref);
	KUNIT_ASSERT_NOT_NULL(test, set);
	t_set_init(ref, nr);
	KUNIT_ASSERT_EQ(test, blk_mq_alloc_tag_set(ref), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, t_free_tag_set,
							ref), 0);

	for (n = 1; n <= T_MAX_POINTS && fired; n++) {
		t_set_init(set, nr);
		t_arm(n);
		ret = blk_mq_alloc_tag_set(set);
		fired = t_disarm();
		if (ret) {
			KUNIT_EXPECT_TRUE_MSG(test, fired,
					      "point %u: error %d, nothing injected",
					      n, ret);
			KUNIT_EXPECT_NULL_MSG(test, set->tags,
					      "point %u: error %d", n, ret);
#ifdef T_SERIES
			KUNIT_EXPECT_NULL_MSG(test, set->hctx_node,
					      "point %u: error %d", n, ret);
#endif
			KUNIT_EXPECT_NULL_MSG(test, set->map[0].mq_map,
					      "point %u: error %d", n, ret);
			failed++;
			continue;
		}
		other = t_expect_set_like(test, set, ref, n);
		remapped += other;
		if (!fired)
			KUNIT_EXPECT_TRUE_MSG(test, !other &&
					      set->queue_depth == ref->queue_depth,
					      "no failure at point %u, yet a fallback",
					      n);
		if (set->queue_depth != ref->queue_depth) {
			kunit_info(test, "point %u: completed with depth %u of %u\n",
				   n, set->queue_depth, ref->queue_depth);
			reduced++;
		}
		if (fired)
			done++;
		blk_mq_free_tag_set(set);
	}
	KUNIT_EXPECT_FALSE_MSG(test, fired, "no end after %u points",
			       T_MAX_POINTS);
	kunit_info(test, "blk_mq_alloc_tag_set, %u queues: %u points, %u failed, %u completed (%u with a reduced depth, %u with another map)\n",
		   nr, failed + done, failed, done, reduced, remapped);
	/* A tags structure per queue and the array of them, at least. */
	KUNIT_EXPECT_GE_MSG(test, failed + done, nr + 1,
			    "too few points: does fault injection count GFP_KERNEL allocations (ignore-gfp-wait N)?");
}

/* A tag set with a disk on it, made fresh for each point. */
struct t_disk {
	struct blk_mq_tag_set set;
	struct gendisk *disk;
	struct request_queue *q;
};

/* The fault-free results, per queue count (index 0: one queue; 1: more). */
struct t_ref {
	int *hctx[2];		/* each hctx's node */
	int *set[2];		/* the set's node of each queue (the series) */
	unsigned int *map[2];	/* each possible CPU's queue */
	int *prev;		/* each hctx's node before the update */
	unsigned int nr;	/* t_nr_queues() */
};

static void t_disk_free(void *data)
{
	struct t_disk *d = data;

	del_gendisk(d->disk);
	put_disk(d->disk);
	blk_mq_free_tag_set(&d->set);
}

/*
 * A disk on a new set of @nr queues: mq-deadline with one queue, none with
 * more (elevator_set_default()).  New each point, so that the update
 * allocates its hctxs anew: a queue keeps the hctxs an update removed, for
 * reuse by the next one (q->unused_hctx_list).
 */
static struct t_disk *t_disk_make(struct kunit *test, unsigned int nr)
{
	struct t_disk *d;

	d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d);
	t_set_init(&d->set, nr);
	KUNIT_ASSERT_EQ(test, blk_mq_alloc_tag_set(&d->set), 0);
	d->disk = blk_mq_alloc_disk(&d->set, NULL, d);
	if (IS_ERR(d->disk)) {
		blk_mq_free_tag_set(&d->set);
		KUNIT_FAIL_AND_ABORT(test, "blk_mq_alloc_disk: %ld",
				     PTR_ERR(d->disk));
	}
	d->q = d->disk->queue;
	d->disk->fops = &t_bdops;
	d->disk->flags |= GENHD_FL_NO_PART;
	strscpy(d->disk->disk_name, "fnth0", DISK_NAME_LEN);
	set_capacity(d->disk, 8);
	if (add_disk(d->disk)) {
		put_disk(d->disk);
		blk_mq_free_tag_set(&d->set);
		KUNIT_FAIL_AND_ABORT(test, "add_disk failed");
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, t_disk_free, d),
			0);
	KUNIT_ASSERT_EQ(test, d->set.nr_hw_queues, nr);
	return d;
}

static void t_disk_drop(struct kunit *test, struct t_disk *d)
{
	kunit_release_action(test, t_disk_free, d);
}

static struct t_ref *t_ref_make(struct kunit *test)
{
	struct t_ref *r;
	int i;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->nr = t_nr_queues();
	for (i = 0; i < 2; i++) {
		r->hctx[i] = kunit_kcalloc(test, r->nr, sizeof(int),
					   GFP_KERNEL);
		r->set[i] = kunit_kcalloc(test, r->nr, sizeof(int), GFP_KERNEL);
		r->map[i] = kunit_kcalloc(test, nr_cpu_ids,
					  sizeof(unsigned int), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, r->hctx[i]);
		KUNIT_ASSERT_NOT_NULL(test, r->set[i]);
		KUNIT_ASSERT_NOT_NULL(test, r->map[i]);
	}
	r->prev = kunit_kcalloc(test, r->nr, sizeof(int), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->prev);
	return r;
}

/* A request from each online CPU, executed. */
static void t_io_each_cpu(struct kunit *test, struct t_disk *d, unsigned int n)
{
	struct request *rq;
	unsigned int cpu;
	blk_status_t sts;

	for_each_online_cpu(cpu) {
		if (set_cpus_allowed_ptr(current, cpumask_of(cpu)))
			continue;	/* went offline */
		rq = blk_mq_alloc_request(d->q, REQ_OP_DRV_IN, 0);
		if (IS_ERR(rq)) {
			KUNIT_FAIL(test, "point %u: CPU %u: no request: %ld",
				   n, cpu, PTR_ERR(rq));
			continue;
		}
		sts = blk_execute_rq(rq, false);
		blk_mq_free_request(rq);
		KUNIT_EXPECT_EQ_MSG(test, sts, BLK_STS_OK,
				    "point %u: CPU %u", n, cpu);
	}
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* Record each hctx's node, the set's and the map, for the count reached. */
static void t_record(struct t_ref *r, struct t_disk *d)
{
	int k = d->set.nr_hw_queues != 1;
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	queue_for_each_hw_ctx(d->q, hctx, i) {
		r->hctx[k][i] = hctx->numa_node;
#ifdef T_SERIES
		r->set[k][i] = d->set.hctx_node[i];
#endif
	}
	for_each_possible_cpu(i)
		r->map[k][i] = d->set.map[0].mq_map[i];
}

static void t_snapshot(struct t_ref *r, struct t_disk *d)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	queue_for_each_hw_ctx(d->q, hctx, i)
		r->prev[i] = hctx->numa_node;
}

struct t_counts {
	unsigned int failed, done, kept, remapped, noelv;
};

/*
 * The set and queue after point @n of an update from @from queues, the
 * fallbacks counted in @c: an hctx kept on its old node (the kernel keeps
 * the old hctx when a new one cannot be allocated, and logs it), a map
 * other than the reference's.  Requests from every CPU unless the
 * structure is already wrong (a request could then wait forever).
 */
static void t_check_queue(struct kunit *test, struct t_disk *d,
			  struct t_ref *ref, unsigned int from, unsigned int n,
			  struct t_counts *c)
{
	struct blk_mq_tag_set *set = &d->set;
	unsigned int kept = 0, nr = set->nr_hw_queues;
	int k = nr != 1, node, want;
	struct blk_mq_hw_ctx *hctx;
	bool other_map;
	unsigned long i;

	KUNIT_EXPECT_EQ_MSG(test, d->q->nr_hw_queues, nr,
			    "point %u: queue vs set", n);
	if (d->q->nr_hw_queues != nr)
		return;
	other_map = t_expect_map(test, set, ref->map[k], ref->set[k], n);
	c->remapped += other_map;
	queue_for_each_hw_ctx(d->q, hctx, i) {
		node = hctx->numa_node;
		want = other_map ? t_first_cpu_node(set, i) : ref->hctx[k][i];
		if (want == NUMA_NO_NODE)
			want = set->numa_node;
		if (node == want) {
			/* as without the failure */
		} else if (i < from && node == ref->prev[i]) {
			kept++;
		} else {
			KUNIT_FAIL(test, "point %u: hctx %lu of %u on node %d, not %d; before %d%s",
				   n, i, nr, node, want,
				   i < from ? ref->prev[i] : -2,
				   other_map ? ", with another map" : "");
		}
		if (hctx->nr_ctx)
			KUNIT_EXPECT_TRUE_MSG(test, hctx->tags &&
					      hctx->tags == set->tags[i],
					      "point %u: hctx %lu of %u: tags %p, the set's %p",
					      n, i, nr, hctx->tags,
					      set->tags[i]);
		else
			KUNIT_EXPECT_NULL_MSG(test, hctx->tags,
					      "point %u: hctx %lu of %u has no CPU but tags",
					      n, i, nr);
	}
	if (kept)
		kunit_info(test, "point %u: %u hctxs kept on their old node\n",
			   n, kept);
	c->kept += kept;
	if (test->status != KUNIT_FAILURE)
		t_io_each_cpu(test, d, n);
}

/*
 * blk_mq_update_nr_hw_queues() from one queue to t_nr_queues() or back,
 * each allocation failed in turn, on a new disk each point.
 */
static void t_update_sweep(struct kunit *test, bool grow)
{
	struct t_counts c = {}, clean = {};
	struct t_ref *ref = t_ref_make(test);
	unsigned int n, from, to, fallbacks;
	struct t_disk *d;
	bool fired = true, elv;

#ifndef T_SERIES
	kunit_skip(test, "vanilla: a failed update reads past set->tags (the series' first patch fixes it)");
#endif
	if (num_online_cpus() < 2)
		kunit_skip(test, "one CPU: one queue at most");
	from = grow ? 1 : ref->nr;
	to = grow ? ref->nr : 1;

	/* The references: a new disk at each count, then an update. */
	d = t_disk_make(test, to);
	t_record(ref, d);
	t_disk_drop(test, d);
	d = t_disk_make(test, from);
	t_record(ref, d);
	t_snapshot(ref, d);
	blk_mq_update_nr_hw_queues(&d->set, to);
	KUNIT_ASSERT_EQ(test, d->set.nr_hw_queues, to);
	t_check_queue(test, d, ref, from, 0, &clean);
	KUNIT_ASSERT_EQ_MSG(test, clean.kept + clean.remapped, 0,
			    "a fault-free update differs from a new disk");
	t_disk_drop(test, d);

	for (n = 1; n <= T_MAX_POINTS && fired; n++) {
		d = t_disk_make(test, from);
		elv = d->q->elevator;
		t_snapshot(ref, d);
		t_arm(n);
		blk_mq_update_nr_hw_queues(&d->set, to);
		fired = t_disarm();
		if (d->set.nr_hw_queues == to) {
			c.done += fired;
		} else if (d->set.nr_hw_queues == from) {
			KUNIT_EXPECT_TRUE_MSG(test, fired,
					      "point %u: no update, nothing injected",
					      n);
			c.failed++;
		} else {
			KUNIT_FAIL(test, "point %u: %u queues, neither %u nor %u",
				   n, d->set.nr_hw_queues, from, to);
			return;
		}
		fallbacks = c.kept + c.remapped + c.noelv;
		/* elevator_change() falls back to none, and logs it. */
		if (elv && !d->q->elevator) {
			kunit_info(test, "point %u: the elevator is gone\n", n);
			c.noelv++;
		}
		t_check_queue(test, d, ref, from, n, &c);
		if (!fired)
			KUNIT_EXPECT_EQ_MSG(test, c.kept + c.remapped + c.noelv,
					    fallbacks,
					    "no failure at point %u, yet a fallback",
					    n);
		t_disk_drop(test, d);
	}
	KUNIT_EXPECT_FALSE_MSG(test, fired, "no end after %u points",
			       T_MAX_POINTS);
	kunit_info(test, "blk_mq_update_nr_hw_queues %u -> %u: %u points, %u left it at %u, %u completed (%u hctxs kept on their old node, %u times another map, %u times without the elevator)\n",
		   from, to, c.failed + c.done, c.failed, from, c.done, c.kept,
		   c.remapped, c.noelv);
	/*
	 * Growing allocates an hctx per new queue at least; shrinking moves
	 * the one queue left to the set's node, and re-creates the hctx.
	 */
	KUNIT_EXPECT_GE_MSG(test, c.failed + c.done, grow ? to - from : 1,
			    "too few points: does fault injection count GFP_KERNEL allocations (ignore-gfp-wait N)?");
}

static void update_grow(struct kunit *test)
{
	t_update_sweep(test, true);
}

static void update_shrink(struct kunit *test)
{
	t_update_sweep(test, false);
}

static enum scsi_qc_status t_queuecommand(struct Scsi_Host *shost,
					  struct scsi_cmnd *cmd)
{
	return SCSI_MLQUEUE_HOST_BUSY;
}

static const struct scsi_host_template t_sht = {
	.module		= THIS_MODULE,
	.name		= "scsi_numa_fail_nth",
	.proc_name	= "scsi_numa_fail_nth",
	.queuecommand	= t_queuecommand,
	.can_queue	= 4,
	.this_id	= -1,
	.sg_tablesize	= 1,
	.cmd_per_lun	= 1,
};

static struct Scsi_Host *t_host_alloc(void)
{
#ifdef T_HOST_NODE
	return scsi_host_alloc_node(&t_sht, 64, t_home());
#else
	return scsi_host_alloc(&t_sht, 64);
#endif
}

/* Whether a task named scsi_eh_<@host_no> runs (an exiting one: waited for). */
static bool t_eh_left(unsigned int host_no)
{
	char comm[TASK_COMM_LEN];
	struct task_struct *p;
	bool found;
	int tries;

	snprintf(comm, sizeof(comm), "scsi_eh_%u", host_no);
	for (tries = 0; tries < 100; tries++) {
		found = false;
		rcu_read_lock();
		for_each_process(p)
			if (!strcmp(p->comm, comm))
				found = true;
		rcu_read_unlock();
		if (!found)
			return false;
		msleep(20);
	}
	return true;
}

/*
 * Nothing of host @host_no left: no thread, no host to look up.  (Its
 * scsi_tmf_N workqueue: checked by the case, in sysfs, which this thread's
 * filesystem root does not reach.)
 */
static void t_expect_host_gone(struct kunit *test, unsigned int host_no,
			       unsigned int n, const char *what)
{
	struct Scsi_Host *shost;

	KUNIT_EXPECT_FALSE_MSG(test, t_eh_left(host_no),
			       "%s point %u: scsi_eh_%u still runs", what, n,
			       host_no);
	shost = scsi_host_lookup(host_no);
	if (shost) {
		KUNIT_FAIL(test, "%s point %u: host %u still registered",
			   what, n, host_no);
		scsi_host_put(shost);
	}
}

/*
 * The number a new host gets now: the lowest free one, so one that a
 * failed point kept shows as a different number next time.
 */
static unsigned int t_next_host_no(struct kunit *test)
{
	struct Scsi_Host *shost = t_host_alloc();
	unsigned int host_no;

	KUNIT_ASSERT_NOT_NULL(test, shost);
	host_no = shost->host_no;
	scsi_host_put(shost);
	return host_no;
}

/* scsi_host_alloc_node(), each allocation failed in turn. */
static void host_alloc(struct kunit *test)
{
	unsigned int h0 = t_next_host_no(test), failed = 0, done = 0, n;
	unsigned int nameless = 0;
	struct Scsi_Host *shost;
	struct device *parent;
	bool fired = true;
	int ret;

	parent = kunit_device_register(test, "fnth-parent");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	for (n = 1; n <= T_MAX_POINTS && fired; n++) {
		t_arm(n);
		shost = t_host_alloc();
		fired = t_disarm();
		if (!shost) {
			KUNIT_EXPECT_TRUE_MSG(test, fired,
					      "point %u: no host, nothing injected",
					      n);
			failed++;
		} else {
			KUNIT_EXPECT_EQ_MSG(test, shost->host_no, h0,
					    "point %u: host number", n);
			KUNIT_EXPECT_NOT_NULL_MSG(test, shost->ehandler,
						  "point %u: no scsi_eh thread",
						  n);
			done += fired;
			if (!dev_name(&shost->shost_gendev) ||
			    !dev_name(&shost->shost_dev)) {
				nameless++;
				ret = scsi_add_host(shost, parent);
				KUNIT_EXPECT_NE_MSG(test, ret, 0,
						    "point %u: a host without its names was added",
						    n);
				if (!ret)
					scsi_remove_host(shost);
			}
			scsi_host_put(shost);
		}
		t_expect_host_gone(test, h0, n, "alloc");
		KUNIT_EXPECT_EQ_MSG(test, t_next_host_no(test), h0,
				    "alloc point %u: a host number leaked", n);
	}
	KUNIT_EXPECT_FALSE_MSG(test, fired, "no end after %u points",
			       T_MAX_POINTS);
	kunit_info(test, "host alloc: %u points, %u failed, %u completed (%u without their names, refused by scsi_add_host)\n",
		   failed + done, failed, done, nameless);
	/* The Scsi_Host, its error handler thread's and workqueue's. */
	KUNIT_EXPECT_GE_MSG(test, failed + done, 2,
			    "too few points: does fault injection count GFP_KERNEL allocations (ignore-gfp-wait N)?");
}

/* scsi_add_host() of a fault-free host, each allocation failed in turn. */
static void host_add(struct kunit *test)
{
	unsigned int h0 = t_next_host_no(test), failed = 0, done = 0, n;
	struct Scsi_Host *shost, *found;
	struct device *parent;
	bool fired = true;
	int ret;

	parent = kunit_device_register(test, "fnth-parent");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, parent);
	for (n = 1; n <= T_MAX_POINTS && fired; n++) {
		shost = t_host_alloc();
		KUNIT_ASSERT_NOT_NULL(test, shost);
		KUNIT_EXPECT_EQ_MSG(test, shost->host_no, h0,
				    "add point %u: host number", n);
		t_arm(n);
		ret = scsi_add_host(shost, parent);
		fired = t_disarm();
		if (ret) {
			KUNIT_EXPECT_TRUE_MSG(test, fired,
					      "point %u: error %d, nothing injected",
					      n, ret);
			failed++;
		} else {
			found = scsi_host_lookup(shost->host_no);
			KUNIT_EXPECT_PTR_EQ_MSG(test, found, shost,
						"point %u: lookup", n);
			if (found)
				scsi_host_put(found);
			KUNIT_EXPECT_NOT_NULL_MSG(test, shost->tag_set.tags,
						  "point %u: no tags", n);
			if (shost->tag_set.queue_depth != t_sht.can_queue)
				kunit_info(test, "point %u: tag depth %u of %d\n",
					   n, shost->tag_set.queue_depth,
					   t_sht.can_queue);
			done += fired;
			scsi_remove_host(shost);
		}
		scsi_host_put(shost);
		t_expect_host_gone(test, h0, n, "add");
	}
	KUNIT_EXPECT_FALSE_MSG(test, fired, "no end after %u points",
			       T_MAX_POINTS);
	kunit_info(test, "host add: %u points, %u failed, %u completed\n",
		   failed + done, failed, done);
	/* The tag set's arrays and tags, the host's device names. */
	KUNIT_EXPECT_GE_MSG(test, failed + done, 3,
			    "too few points: does fault injection count GFP_KERNEL allocations (ignore-gfp-wait N)?");
}

static struct kunit_case scsi_numa_fail_nth_cases[] = {
	KUNIT_CASE(alloc_tag_set),
	KUNIT_CASE_SLOW(update_grow),
	KUNIT_CASE_SLOW(update_shrink),
	KUNIT_CASE_SLOW(host_alloc),
	KUNIT_CASE_SLOW(host_add),
	{}
};

static struct kunit_suite scsi_numa_fail_nth_suite = {
	.name = "scsi_numa_fail_nth",
	.test_cases = scsi_numa_fail_nth_cases,
};

kunit_test_suite(scsi_numa_fail_nth_suite);

MODULE_DESCRIPTION("Each allocation of the tag set and SCSI host lifecycle failed in turn");
MODULE_LICENSE("GPL");
