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
#include <stdlib.h>
#include <string.h>

#include "meter.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct range ranges[MAX_RANGES];
int nranges;
int cpu_node_of[1024];
int nvcpus;
struct counts *vcpu_counts;
FILE *out;
int win_open;				/* read locklessly by every vCPU */
bool hist_on;
static uint64_t hist[HIST_BUCKETS];

int addr_node(uint64_t pa)
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
	free_objects();
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *outpath;
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
	if (meter_args(argc, argv, &outpath))
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
