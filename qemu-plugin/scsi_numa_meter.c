// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter: QEMU (7.2, plugin API version 1) TCG plugin counting a guest's
 * memory accesses by (node of the accessing vCPU, node of the memory),
 * kernel/user mode and read/write, with an optional per-node LLC model
 * counting (remote) misses.  x86-64 guests, system emulation, -accel tcg.
 *
 *   qemu-system-x86_64 -accel tcg ... \
 *     -plugin build/qemu-plugin/libscsi_numa_meter.so,nodemb=512;512,cpus=0-1:0;2-3:1,out=/path
 *
 * Arguments (each one QEMU -plugin key=value; a list inside a value is
 * separated by ';' (quote it in a shell) or by ',,' which QEMU turns into
 * ','; numbers are decimal or 0x-hex):
 *   out=PATH              where the counts go (default: stderr).
 *   cpus=V[-W]:N;...      vCPU indexes V..W are on node N.  Unlisted vCPUs
 *                         are node "none".
 *   nodemb=M0;M1;...      node n has Mn MiB, nodes in -numa order: computes
 *                         the address map below (layout=memdev, default:
 *                         nodes with memdev=, in the same order as their
 *                         -object memory-backend-* options and before any
 *                         other RAM object; layout=legacy: -numa node,mem=).
 *   nodes=N:START-END;... explicit map: addresses START..END (inclusive)
 *                         are node N.  Repeatable, adds to nodemb=.
 *   nodemap=FILE          the same from a file: lines "mem N START END" and
 *                         "cpu N V[-W]", '#' comments.
 *   llc=KIB:WAYS[:LINE]   one LRU set-associative cache per node (LINE
 *                         default 64), shared by the node's vCPUs.
 *   window=open           count from the start (default: only inside
 *                         guest-marked windows).
 *   hist=on               histogram of the addresses seen in windows, 16 MiB
 *                         buckets (to check a node map).
 *   objects=FILE          attribute the kernel-mode remote accesses (and
 *                         remote misses) of each window to object kinds:
 *                         FILE is re-read at every window start, lines
 *                         "<kind> <address> <size>" (guest virtual address,
 *                         hex; size decimal, 0 lines ignored), written by the
 *                         guest from the placement inspector (addresses=1)
 *                         just before it opens the window.  A missing FILE
 *                         means no attribution for that window.
 *
 * ADDRESSES.  The address of an access is what QEMU 7.2's
 * qemu_plugin_hwaddr_phys_addr() returns, and for RAM that is NOT the
 * guest-physical address: it is block->offset + offset-in-block +
 * block->mr->addr, i.e. the RAMBlock's ram_addr_t plus the memory region's
 * offset in its container.  Hence (S_n = sum of the sizes of nodes < n):
 *   memdev nodes (-object memory-backend-ram,id=mN -numa node,memdev=mN,
 *     objects in node order): node n = [2*S_n, 2*S_n + size_n)
 *   legacy nodes (-numa node,mem=): node n = [S_n, S_n + size_n)
 * In both the PCI hole and the 4 GiB remap do not appear (they are
 * guest-physical notions).  nodemb= computes this; hist=on shows what a
 * guest really touches.  Addresses in no range are mem_node "none" (ROMs,
 * other RAM blocks); MMIO accesses are counted apart ("io").
 *
 * KERNEL/USER.  The 7.2 API cannot query the privilege level.  The mode of
 * an access is that of the instruction making it, decided when translating:
 * an instruction address in the canonical upper half (bit 63 set) is kernel
 * mode (Linux x86-64 runs kernel code there only, user code never).  So the
 * kernel's copy_{to,from}_user accesses to user memory are kernel accesses.
 * QEMU 7.2 quirk: the accesses of interrupt/exception delivery (IDT/GDT/TSS
 * reads, the pushes of the frame onto the kernel stack: ~6 reads + 5 writes
 * per event) reach the plugin as accesses of the interrupted instruction,
 * hence as "user" when user code was interrupted.  The page walks of the
 * MMU are not reported at all.
 *
 * WINDOWS.  Counting is off at start (unless window=open).  The guest opens
 * and closes windows by executing the marker instruction of
 * scsi_numa_meter_mark.h (movabs $SCSI_NUMA_METER_MAGIC|C, %rax, C = 1 start, 2 stop,
 * 3 reset totals, 4 dump totals), recognised at translation and acted upon
 * when executed, before the instruction.  For the marking thread this is
 * exact in program order.  A window counts the accesses of ALL vCPUs
 * (the guest's), so with MTTCG an access another vCPU makes at the very
 * instant of a start/stop may fall on either side.  Nested starts and
 * unmatched stops are ignored.
 *
 * LLC.  Simulated inside windows only (not during boot: cost); the cache
 * state is kept between windows.  Per-node lock (MTTCG-safe, no need of
 * thread=single).  An access is looked up by the line of its first byte
 * in the cache of the ACCESSING vCPU's node; a miss is counted as
 * llc_misses of its (cpu_node, mem_node, mode); remote_misses are the misses
 * with cpu_node != mem_node.  MMIO and unmapped accesses do not touch the
 * cache; vCPUs of node "none" have no cache.
 *
 * OBJECTS.  An access is attributed by its guest virtual address (the
 * inspector reports the addresses the kernel uses: direct map or vmalloc),
 * only when it is a kernel-mode access with cpu_node != mem_node, so that
 * the kinds plus "other" add up to the window's kernel remote accesses.
 * Kind names are kept across reloads (at most MAX_KINDS); a replaced table
 * is freed at exit only (a vCPU may still be searching it).
 *
 * OUTPUT (plain text, one record per line, '#' lines are comments):
 *   window <n> cpu_node <a> mem_node <b> mode kernel|user reads <r> writes <w> llc_misses <m> remote_misses <x>
 *       one line per non-zero (a, b, mode) at each stop; a/b are node
 *       numbers or "none"; llc_misses/remote_misses 0 without llc=.
 *   window <n> io mode kernel|user reads <r> writes <w>
 *   window <n> object <kind>|other remote <x> remote_misses <m>
 *       (objects= only) kernel-mode remote accesses to objects of <kind>,
 *       "other": to none of the listed objects.
 *   window <n> summary reads <r> writes <w> local <l> remote <x> unmapped <u> io <i> llc_misses <m> remote_misses <rm>
 *       local/remote: accesses with cpu_node ==/!= mem_node (both known).
 *   window <n> vcpu <v> cpu_node <a> mem_node <b> mode kernel|user reads <r> writes <w> llc_misses <m> remote_misses <x>
 *   window <n> vcpu <v> object <kind>|other remote <x> remote_misses <m>
 *       the cpu_node and object lines again, per vCPU (numbered windows
 *       and "open" only): they add up to the window's lines, exactly (one
 *       snapshot of the counters at the close).
 *   The same with "window total" (sum of the windows since the last reset;
 *   no vcpu lines) on "dump" and at exit ("window open" when the guest left
 *   a window open at exit: counted up to the exit), then:
 *   hist <start> <end> <count>      (hist=on, hex addresses)
 *   end windows <count>
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

#include "scsi_numa_meter_mark.h"	/* the marker: one definition, both sides */

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_NODES	16		/* index MAX_NODES: "none" */
#define NN		(MAX_NODES + 1)
#define MAX_RANGES	64
#define MAX_KINDS	31		/* index MAX_KINDS: "other" */
#define HIST_SHIFT	24
#define HIST_BUCKETS	4096

#define MAGIC		SCSI_NUMA_METER_MAGIC
#define MAGIC_MASK	0xffffffffffff0000ULL
enum { CMD_START = SCSI_NUMA_METER_START, CMD_STOP = SCSI_NUMA_METER_STOP,
       CMD_RESET = SCSI_NUMA_METER_RESET, CMD_DUMP = SCSI_NUMA_METER_DUMP };

/* Counts of one vCPU (written by its thread only) or a sum of them. */
struct counts {
	uint64_t acc[NN][NN][2][2];	/* [cpu node][mem node][kernel][write] */
	uint64_t miss[NN][NN][2];	/* [cpu node][mem node][kernel] */
	uint64_t io[2][2];		/* [kernel][write] */
	uint64_t obj[MAX_KINDS + 1][2];	/* [kind][0: remote, 1: remote miss] */
} __attribute__((aligned(64)));

struct objr {
	uint64_t start, end;	/* [start, end) */
	int kind;
};

struct objtab {
	struct objtab *prev;	/* freed at exit */
	int n;
	struct objr r[];
};

struct range {
	uint64_t start, end;	/* inclusive */
	int node;
};

struct llc {
	pthread_mutex_t lock;
	uint64_t *tag;		/* [set][way], way 0 most recent; line + 1, 0 empty */
};

static struct range ranges[MAX_RANGES];
static int nranges;
static int cpu_node_of[1024];
static int nvcpus;
static struct counts *vcpu_counts;
static FILE *out;

static int win_open;			/* read locklessly by every vCPU */
static unsigned int win_no;
static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct counts total;		/* under ctl_lock */
static struct counts win_sum;		/* under ctl_lock: close_window()'s sum */
/* Under ctl_lock: each vCPU's counters at the window's start, and a
 * snapshot of them at its close. */
static struct counts *vcpu_base, *vcpu_snap;

static bool llc_on;
static unsigned int llc_ways, llc_line_shift;
static uint64_t llc_sets;
static struct llc llc[MAX_NODES];

static const char *objects_path;
static struct objtab *objtab;		/* replaced under ctl_lock, read by vCPUs */
static struct objtab *tables;		/* every table loaded, chained by prev */
static char kind_name[MAX_KINDS][32];
static int nkinds;
static uint64_t objects_loads, objects_misses;

static bool hist_on;
static uint64_t hist[HIST_BUCKETS];

#define INC(p)	__atomic_store_n(&(p), __atomic_load_n(&(p), __ATOMIC_RELAXED) + 1, \
			       __ATOMIC_RELAXED)

static int addr_node(uint64_t pa)
{
	static __thread int last;
	int i;

	if (last < nranges && pa >= ranges[last].start && pa <= ranges[last].end)
		return ranges[last].node;
	for (i = 0; i < nranges; i++)
		if (pa >= ranges[i].start && pa <= ranges[i].end) {
			last = i;
			return ranges[i].node;
		}
	return MAX_NODES;
}

/* Kind index of the object holding guest virtual address @va, or MAX_KINDS. */
static int obj_kind(const struct objtab *t, uint64_t va)
{
	int lo = 0, hi = t->n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (va < t->r[mid].start)
			hi = mid - 1;
		else if (va >= t->r[mid].end)
			lo = mid + 1;
		else
			return t->r[mid].kind;
	}
	return MAX_KINDS;
}

/* Look the line of @pa up in @node's cache; true on a miss. */
static bool llc_access(int node, uint64_t pa)
{
	struct llc *c = &llc[node];
	uint64_t line = pa >> llc_line_shift, *set;
	unsigned int i;

	set = c->tag + (line % llc_sets) * llc_ways;
	line++;
	pthread_mutex_lock(&c->lock);
	for (i = 0; i < llc_ways; i++)
		if (set[i] == line)
			break;
	if (i == llc_ways)
		i = llc_ways - 1;	/* evict the least recent */
	else if (i == 0) {
		pthread_mutex_unlock(&c->lock);
		return false;
	}
	bool miss = set[i] != line;
	memmove(set + 1, set, i * sizeof(*set));
	set[0] = line;
	pthread_mutex_unlock(&c->lock);
	return miss;
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		     uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;
	struct counts *c;
	int kernel = (uintptr_t)udata, w, cn, mn;
	bool remote, miss = false;
	uint64_t pa;

	if (!__atomic_load_n(&win_open, __ATOMIC_RELAXED) || vcpu >= (unsigned int)nvcpus)
		return;
	c = &vcpu_counts[vcpu];
	w = qemu_plugin_mem_is_store(info);
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw)) {
		INC(c->io[kernel][w]);
		return;
	}
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	cn = cpu_node_of[vcpu];
	mn = addr_node(pa);
	INC(c->acc[cn][mn][kernel][w]);
	remote = cn != mn && cn != MAX_NODES && mn != MAX_NODES;
	if (hist_on) {
		uint64_t b = pa >> HIST_SHIFT;

		__atomic_fetch_add(&hist[b < HIST_BUCKETS ? b : HIST_BUCKETS - 1], 1,
				   __ATOMIC_RELAXED);
	}
	if (llc_on && cn != MAX_NODES && mn != MAX_NODES && llc_access(cn, pa)) {
		INC(c->miss[cn][mn][kernel]);
		miss = true;
	}
	if (remote && kernel) {
		const struct objtab *t = __atomic_load_n(&objtab, __ATOMIC_ACQUIRE);

		if (t) {
			int k = obj_kind(t, vaddr);

			INC(c->obj[k][0]);
			if (miss)
				INC(c->obj[k][1]);
		}
	}
}

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

static const char *node_name(int n, char *buf)
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

static void emit(const char *label, const struct counts *c)
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
static void close_window(const char *label)
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

static int cmp_objr(const void *a, const void *b)
{
	const struct objr *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int kind_index(const char *name)
{
	int i;

	for (i = 0; i < nkinds; i++)
		if (!strcmp(kind_name[i], name))
			return i;
	if (nkinds == MAX_KINDS || strlen(name) >= sizeof(kind_name[0]))
		return MAX_KINDS;
	strcpy(kind_name[nkinds], name);
	return nkinds++;
}

/*
 * (Re)load objects_path (ctl_lock held, window closed).  Overlapping
 * ranges keep the first by address (the table must stay sorted and
 * disjoint for the search); a missing file removes the table.
 */
static void load_objects(void)
{
	FILE *f = fopen(objects_path, "r");
	struct objtab *t;
	char line[256], kind[64];
	uint64_t a, size;
	int cap = 1024, n = 0, i, j;

	if (!f) {
		fprintf(out, "# objects: cannot read %s: %s\n", objects_path, strerror(errno));
		objects_misses++;
		__atomic_store_n(&objtab, NULL, __ATOMIC_RELEASE);
		return;
	}
	t = malloc(sizeof(*t) + cap * sizeof(t->r[0]));
	while (t && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %" SCNx64 " %" SCNu64, kind, &a, &size) != 3 || !size ||
		    a + size < a)
			continue;
		if (n == cap) {
			struct objtab *g;

			cap *= 2;
			g = realloc(t, sizeof(*t) + cap * sizeof(t->r[0]));
			if (!g) {
				free(t);
				t = NULL;
				break;
			}
			t = g;
		}
		t->r[n++] = (struct objr){ a, a + size, kind_index(kind) };
	}
	fclose(f);
	if (!t) {
		fprintf(out, "# objects: out of memory\n");
		return;
	}
	qsort(t->r, n, sizeof(t->r[0]), cmp_objr);
	for (i = 0, j = 0; i < n; i++)
		if (!j || t->r[i].start >= t->r[j - 1].end)
			t->r[j++] = t->r[i];
	t->n = j;
	t->prev = tables;
	tables = t;
	objects_loads++;
	fprintf(out, "# objects: %d ranges (%d overlapping dropped), %d kinds\n", j, n - j, nkinds);
	__atomic_store_n(&objtab, t, __ATOMIC_RELEASE);
}

static void vcpu_mark(unsigned int vcpu, void *udata)
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

/* The marker: movabs $MAGIC|cmd, %reg (REX.W B8+r imm64), 10 bytes. */
static unsigned int marker_cmd(struct qemu_plugin_insn *insn)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	uint64_t imm;

	if (qemu_plugin_insn_size(insn) != 10 || (p[0] & 0xf8) != 0x48 ||
	    (p[1] & 0xf8) != 0xb8)
		return 0;
	memcpy(&imm, p + 2, 8);
	if ((imm & MAGIC_MASK) != MAGIC || (imm & 0xffff) < CMD_START ||
	    (imm & 0xffff) > CMD_DUMP)
		return 0;
	return imm & 0xffff;
}

static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uintptr_t kernel = (int64_t)qemu_plugin_insn_vaddr(insn) < 0;
		unsigned int cmd = marker_cmd(insn);

		if (cmd)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_mark,
				QEMU_PLUGIN_CB_NO_REGS, (void *)(uintptr_t)cmd);
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, (void *)kernel);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	int i;

	pthread_mutex_lock(&ctl_lock);
	if (win_open) {
		fprintf(out, "# window %u still open at exit\n", win_no);
		close_window("open");
	}
	emit("total", &total);
	if (hist_on)
		for (i = 0; i < HIST_BUCKETS; i++)
			if (hist[i])
				fprintf(out, "hist 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64 "\n",
					(uint64_t)i << HIST_SHIFT,
					((uint64_t)(i + 1) << HIST_SHIFT) - 1, hist[i]);
	if (objects_path)
		fprintf(out, "# objects: %" PRIu64 " loads, %" PRIu64 " windows without a file\n",
			objects_loads, objects_misses);
	fprintf(out, "end windows %u\n", win_no);
	fflush(out);
	pthread_mutex_unlock(&ctl_lock);
	/* The vCPUs have stopped: no search is running. */
	objtab = NULL;
	while (tables) {
		struct objtab *t = tables;

		tables = t->prev;
		free(t);
	}
}

/* Parsing. */

static int perr(const char *what, const char *s)
{
	fprintf(stderr, "scsi_numa_meter: bad %s: '%s'\n", what, s);
	return -1;
}

static int parse_u64(const char *s, char **end, uint64_t *v)
{
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno || *end == s ? -1 : 0;
}

static int add_range(int node, uint64_t start, uint64_t end)
{
	if (node < 0 || node >= MAX_NODES || start > end || nranges == MAX_RANGES)
		return -1;
	ranges[nranges++] = (struct range){ start, end, node };
	return 0;
}

static int add_cpus(const char *vs, int node)
{
	uint64_t a, b;
	char *e;

	if (node < 0 || node >= MAX_NODES || parse_u64(vs, &e, &a))
		return -1;
	b = a;
	if (*e == '-' && parse_u64(e + 1, &e, &b))
		return -1;
	if ((*e && *e != ':' && *e != ' ') || a > b || b >= 1024)
		return -1;
	for (; a <= b; a++)
		cpu_node_of[a] = node;
	return 0;
}

/*
 * Split @val at ';' and ',' (what ',,' becomes): a NULL-terminated vector
 * of items, in one allocation with their text (one free()), or NULL when
 * out of memory.
 */
static char **split_list(const char *val)
{
	size_t len = strlen(val), nv = len / 2 + 2;	/* items <= (len + 1) / 2 */
	char **v = malloc(nv * sizeof(*v) + len + 1), *s, *p, *save;
	size_t n = 0;

	if (!v)
		return NULL;
	s = memcpy(v + nv, val, len + 1);
	for (p = strtok_r(s, ";,", &save); p; p = strtok_r(NULL, ";,", &save))
		v[n++] = p;
	v[n] = NULL;
	return v;
}

static int parse_nodes(const char *val)
{
	char **items = split_list(val), **it;
	uint64_t node, start, end;
	int rc = 0;
	char *e;

	if (!items)
		return perr("nodes= (out of memory)", val);
	for (it = items; !rc && *it; it++)
		if (parse_u64(*it, &e, &node) || *e != ':' ||
		    parse_u64(e + 1, &e, &start) || *e != '-' ||
		    parse_u64(e + 1, &e, &end) || *e || add_range(node, start, end))
			rc = perr("nodes= item", *it);
	free(items);
	return rc;
}

static int parse_cpus(const char *val)
{
	char **items = split_list(val), **it;
	uint64_t node;
	int rc = 0;
	char *c, *e;

	if (!items)
		return perr("cpus= (out of memory)", val);
	for (it = items; !rc && *it; it++) {
		c = strchr(*it, ':');
		if (!c || parse_u64(c + 1, &e, &node) || *e || add_cpus(*it, node))
			rc = perr("cpus= item", *it);
	}
	free(items);
	return rc;
}

static int parse_nodemb(const char *val, bool legacy)
{
	char **items = split_list(val), **it;
	uint64_t s = 0, mb;
	int n = 0, rc = 0;
	char *e;

	if (!items)
		return perr("nodemb= (out of memory)", val);
	for (it = items; !rc && *it; it++, n++) {
		if (parse_u64(*it, &e, &mb) || *e) {
			rc = perr("nodemb= item", *it);
			break;
		}
		mb <<= 20;
		if (mb && add_range(n, legacy ? s : 2 * s, (legacy ? s : 2 * s) + mb - 1))
			rc = perr("nodemb= item", *it);
		s += mb;
	}
	free(items);
	return rc;
}

static int parse_nodemap(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256], kind[8], a[64], b[64], c[64];
	int n;

	if (!f)
		return perr("nodemap= file", path);
	while (fgets(line, sizeof(line), f)) {
		char *h = strchr(line, '#'), *e;
		uint64_t node, s, t;

		if (h)
			*h = 0;
		n = sscanf(line, "%7s %63s %63s %63s", kind, a, b, c);
		if (n <= 0)
			continue;
		if (n == 4 && !strcmp(kind, "mem") && !parse_u64(a, &e, &node) && !*e &&
		    !parse_u64(b, &e, &s) && !*e && !parse_u64(c, &e, &t) && !*e &&
		    !add_range(node, s, t))
			continue;
		if (n == 3 && !strcmp(kind, "cpu") && !parse_u64(a, &e, &node) && !*e &&
		    !add_cpus(b, node))
			continue;
		fclose(f);
		return perr("nodemap= line", line);
	}
	fclose(f);
	return 0;
}

static int parse_llc(const char *val)
{
	uint64_t kib, ways, line = 64;
	char *e;
	int i;

	if (parse_u64(val, &e, &kib) || *e != ':' || parse_u64(e + 1, &e, &ways) ||
	    (*e == ':' && parse_u64(e + 1, &e, &line)) || *e)
		return perr("llc=", val);
	if (!ways || ways > 64 || line < 8 || (line & (line - 1)) ||
	    (kib << 10) % (ways * line))
		return perr("llc= (ways 1..64, line a power of 2, size a multiple of ways*line)", val);
	llc_ways = ways;
	llc_line_shift = __builtin_ctzll(line);
	llc_sets = (kib << 10) / (ways * line);
	if (!llc_sets)
		return perr("llc=", val);
	for (i = 0; i < MAX_NODES; i++) {
		pthread_mutex_init(&llc[i].lock, NULL);
		llc[i].tag = calloc(llc_sets * llc_ways, sizeof(uint64_t));
		if (!llc[i].tag)
			return perr("llc= (out of memory)", val);
	}
	llc_on = true;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *outpath = NULL, *nodemb = NULL;
	bool legacy = false;
	int i;

	if (!info->system_emulation) {
		fprintf(stderr, "scsi_numa_meter: system emulation only\n");
		return -1;
	}
	if (strcmp(info->target_name, "x86_64"))
		fprintf(stderr, "scsi_numa_meter: warning: target %s: kernel/user mode and the marker assume x86_64\n",
			info->target_name);
	for (i = 0; i < 1024; i++)
		cpu_node_of[i] = MAX_NODES;
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *key = argv[i], *val;
		size_t kl;
		bool on;

		if (!eq)
			return perr("argument (key=value)", argv[i]);
		kl = eq - key;
		val = eq + 1;
#define KEY(k) (kl == strlen(k) && !strncmp(key, k, kl))
		if (KEY("out"))
			outpath = val;
		else if (KEY("nodes")) {
			if (parse_nodes(val))
				return -1;
		} else if (KEY("nodemb"))
			nodemb = val;
		else if (KEY("layout")) {
			if (strcmp(val, "memdev") && strcmp(val, "legacy"))
				return perr("layout= (memdev|legacy)", val);
			legacy = !strcmp(val, "legacy");
		} else if (KEY("nodemap")) {
			if (parse_nodemap(val))
				return -1;
		} else if (KEY("cpus")) {
			if (parse_cpus(val))
				return -1;
		} else if (KEY("llc")) {
			if (parse_llc(val))
				return -1;
		} else if (KEY("window")) {
			if (strcmp(val, "open") && strcmp(val, "closed"))
				return perr("window= (open|closed)", val);
			win_open = !strcmp(val, "open");
		} else if (KEY("objects")) {
			objects_path = val;
		} else if (KEY("hist")) {
			if (!qemu_plugin_bool_parse("hist", val, &on))
				return perr("hist=", val);
			hist_on = on;
		} else
			return perr("argument", argv[i]);
#undef KEY
	}
	if (nodemb && parse_nodemb(nodemb, legacy))
		return -1;
	out = stderr;
	if (outpath && !(out = fopen(outpath, "w"))) {
		fprintf(stderr, "scsi_numa_meter: cannot write %s: %s\n", outpath, strerror(errno));
		return -1;
	}
	nvcpus = info->system.max_vcpus;
	if (nvcpus > 1024)
		nvcpus = 1024;
	vcpu_counts = aligned_alloc(64, nvcpus * sizeof(*vcpu_counts));
	vcpu_base = calloc(nvcpus, sizeof(*vcpu_base));
	vcpu_snap = calloc(nvcpus, sizeof(*vcpu_snap));
	if (!vcpu_counts || !vcpu_base || !vcpu_snap) {
		fprintf(stderr, "scsi_numa_meter: out of memory (counters of %d vCPUs)\n", nvcpus);
		return -1;
	}
	memset(vcpu_counts, 0, nvcpus * sizeof(*vcpu_counts));

	fprintf(out, "# scsi_numa_meter: vcpus %d, address map (QEMU 7.2 plugin addresses):", nvcpus);
	for (i = 0; i < nranges; i++)
		fprintf(out, " %d:0x%" PRIx64 "-0x%" PRIx64, ranges[i].node, ranges[i].start,
			ranges[i].end);
	fprintf(out, "\n# scsi_numa_meter: cpu nodes:");
	for (i = 0; i < nvcpus; i++) {
		char b[16];

		fprintf(out, " %d:%s", i, node_name(cpu_node_of[i], b));
	}
	fprintf(out, "\n# scsi_numa_meter: llc %s", llc_on ? "" : "off");
	if (llc_on)
		fprintf(out, "%" PRIu64 " KiB %u ways %u B lines (%" PRIu64 " sets) per node",
			(llc_sets * llc_ways << llc_line_shift) >> 10, llc_ways,
			1u << llc_line_shift, llc_sets);
	fprintf(out, "\n# scsi_numa_meter: window %s at start\n", win_open ? "open" : "closed");
	if (win_open)
		win_no = 1;
	fflush(out);

	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
