// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter's windows: the marker's commands (vcpu_mark()), the
 * counters' snapshots and sums, and the records a window writes (the
 * format: scsi_numa_meter.c's comment).
 */
#include <inttypes.h>
#include <string.h>

#include "meter.h"

unsigned int win_no;
pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;
struct counts total;			/* under ctl_lock */
static struct counts win_sum;		/* under ctl_lock: close_window()'s sum */
/* Under ctl_lock: each vCPU's counters at the window's start, and a
 * snapshot of them at its close. */
struct counts *vcpu_base, *vcpu_snap;

/* Copy every vCPU's counters to @s[0..nvcpus). */
static void snap_counts(struct counts *s)
{
	size_t n = sizeof(*s) / sizeof(uint64_t), i;
	int v;

	for (v = 0; v < nvcpus; v++) {
		const uint64_t *p = (const uint64_t *)&vcpu_counts[v];
		uint64_t *d = (uint64_t *)&s[v];

		for (i = 0; i < n; i++)
			d[i] = __atomic_load_n(&p[i], __ATOMIC_RELAXED);
	}
}

/* a = a - b (sub = true) or a + b */
static void add_counts(struct counts *a, const struct counts *b, bool sub)
{
	uint64_t *d = (uint64_t *)a;
	const uint64_t *s = (const uint64_t *)b;
	size_t n = sizeof(*a) / sizeof(uint64_t), i;

	for (i = 0; i < n; i++)
		d[i] = sub ? d[i] - s[i] : d[i] + s[i];
}

const char *node_name(int n, char *buf)
{
	if (n == MAX_NODES)
		return "none";
	sprintf(buf, "%d", n);
	return buf;
}

struct totals {
	uint64_t r, w, local, remote, unmapped, m, rm;
};

/*
 * The access and object records of counts @c, each line beginning
 * "window @tag" (the window's label, and " vcpu N" for one vCPU's counts);
 * their totals added to @t.
 */
static void emit_records(const char *tag, const struct counts *c, struct totals *t)
{
	char b1[16], b2[16];
	int a, b, k;

	for (a = 0; a < NN; a++)
		for (b = 0; b < NN; b++)
			for (k = 1; k >= 0; k--) {
				uint64_t cr = c->acc[a][b][k][0], cw = c->acc[a][b][k][1];
				uint64_t cm = c->miss[a][b][k];
				bool rem = a != b && a != MAX_NODES && b != MAX_NODES;

				if (!cr && !cw && !cm)
					continue;
				fprintf(out, "window %s cpu_node %s mem_node %s mode %s reads %" PRIu64
					" writes %" PRIu64 " llc_misses %" PRIu64 " remote_misses %" PRIu64 "\n",
					tag, node_name(a, b1), node_name(b, b2), k ? "kernel" : "user",
					cr, cw, cm, rem ? cm : 0);
				t->r += cr;
				t->w += cw;
				t->m += cm;
				if (b == MAX_NODES)
					t->unmapped += cr + cw;
				else if (rem) {
					t->remote += cr + cw;
					t->rm += cm;
				} else if (a == b)
					t->local += cr + cw;
			}
	for (k = 0; k <= MAX_KINDS; k++)
		if (c->obj[k][0] || c->obj[k][1])
			fprintf(out, "window %s object %s remote %" PRIu64 " remote_misses %" PRIu64 "\n",
				tag, k == MAX_KINDS ? "other" : kind_name[k], c->obj[k][0],
				c->obj[k][1]);
}

/* The per-vCPU records of one vCPU's counts @c in window @label. */
static void emit_vcpu(const char *label, int v, const struct counts *c)
{
	struct totals t = { 0 };
	char tag[96];

	snprintf(tag, sizeof(tag), "%s vcpu %d", label, v);
	emit_records(tag, c, &t);
}

void emit(const char *label, const struct counts *c)
{
	struct totals t = { 0 };
	uint64_t io = 0;
	int k;

	emit_records(label, c, &t);
	for (k = 1; k >= 0; k--) {
		if (!c->io[k][0] && !c->io[k][1])
			continue;
		fprintf(out, "window %s io mode %s reads %" PRIu64 " writes %" PRIu64 "\n",
			label, k ? "kernel" : "user", c->io[k][0], c->io[k][1]);
		io += c->io[k][0] + c->io[k][1];
	}
	fprintf(out, "window %s summary reads %" PRIu64 " writes %" PRIu64 " local %" PRIu64
		" remote %" PRIu64 " unmapped %" PRIu64 " io %" PRIu64 " llc_misses %" PRIu64
		" remote_misses %" PRIu64 "\n", label, t.r, t.w, t.local, t.remote, t.unmapped,
		io, t.m, t.rm);
	fflush(out);
}

/*
 * Close the open window (ctl_lock held): its counts go out and into total.
 * The window's counts are the sum of the vCPUs' differences between one
 * snapshot and their start, so that the vcpu records add up to the rest.
 * The sum is static (no allocation that could fail and lose the window).
 */
void close_window(const char *label)
{
	struct counts *now = &win_sum;
	char buf[16];
	int v;

	__atomic_store_n(&win_open, 0, __ATOMIC_SEQ_CST);
	memset(now, 0, sizeof(*now));
	snap_counts(vcpu_snap);
	if (!label) {
		snprintf(buf, sizeof(buf), "%u", win_no);
		label = buf;
	}
	for (v = 0; v < nvcpus; v++) {
		add_counts(&vcpu_snap[v], &vcpu_base[v], true);
		add_counts(now, &vcpu_snap[v], false);
	}
	add_counts(&total, now, false);
	emit(label, now);
	for (v = 0; v < nvcpus; v++)
		emit_vcpu(label, v, &vcpu_snap[v]);
	fflush(out);
}

void vcpu_mark(unsigned int vcpu, void *udata)
{
	unsigned int cmd = (uintptr_t)udata;

	pthread_mutex_lock(&ctl_lock);
	switch (cmd) {
	case CMD_START:
		if (win_open)
			break;
		win_no++;
		if (objects_path)
			load_objects();
		snap_counts(vcpu_base);
		fprintf(out, "# window %u start vcpu %u\n", win_no, vcpu);
		__atomic_store_n(&win_open, 1, __ATOMIC_SEQ_CST);
		break;
	case CMD_STOP:
		if (!win_open)
			break;
		fprintf(out, "# window %u stop vcpu %u\n", win_no, vcpu);
		close_window(NULL);
		break;
	case CMD_RESET:
		memset(&total, 0, sizeof(total));
		fprintf(out, "# reset vcpu %u\n", vcpu);
		break;
	case CMD_DUMP:
		fprintf(out, "# dump vcpu %u\n", vcpu);
		emit("total", &total);
		break;
	}
	fflush(out);
	pthread_mutex_unlock(&ctl_lock);
}
