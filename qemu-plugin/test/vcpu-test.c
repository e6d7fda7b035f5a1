// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of scsi_numa_meter's per-vCPU window records: counts made by a vCPU
 * other than the marking one, before, inside and after a window, must show
 * in that vCPU's "vcpu" records exactly as made inside the window, and the
 * vcpu records must add up to the window's cpu_node records.  The counters
 * are incremented directly (vcpu_mem() needs QEMU); the windows go through
 * vcpu_mark() as the marker does.  Built like objects-test.c.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../meter.h"

static int fails;

static void check(const char *what, long long got, long long want)
{
	if (got != want)
		fails++;
	printf("%s %-52s got %lld expected %lld\n", got == want ? "ok  " : "FAIL", what, got, want);
}

/* Field @f of the record "window W vcpu V cpu_node A mem_node B mode M ..."
 * (V < 0: the "window W cpu_node A ..." record) in @text; 0 when absent. */
static long long field(const char *text, int w, int v, int a, int b, const char *m,
		       const char *f)
{
	char head[128], key[40];
	const char *p, *q;
	long long val = 0;

	if (v < 0)
		snprintf(head, sizeof(head), "window %d cpu_node %d mem_node %d mode %s ", w, a, b, m);
	else
		snprintf(head, sizeof(head), "window %d vcpu %d cpu_node %d mem_node %d mode %s ",
			 w, v, a, b, m);
	snprintf(key, sizeof(key), " %s ", f);
	for (p = text; (p = strstr(p, head)); p++) {
		if (p != text && p[-1] != '\n')
			continue;
		q = strstr(p, key);
		if (q && q < strchr(p, '\n'))
			val += atoll(q + strlen(key));
	}
	return val;
}

int main(void)
{
	char path[] = "/tmp/scsi_numa_meter-vcpu-XXXXXX";
	int fd = mkstemp(path), i;
	static char text[1 << 16];
	ssize_t len;

	if (fd < 0 || !(out = fdopen(fd, "w+")))
		return 2;
	/* two nodes x two vCPUs, as topo/two-node */
	nvcpus = 4;
	for (i = 0; i < 4; i++)
		cpu_node_of[i] = i / 2;
	vcpu_counts = aligned_alloc(64, nvcpus * sizeof(*vcpu_counts));
	vcpu_base = calloc(nvcpus, sizeof(*vcpu_base));
	vcpu_snap = calloc(nvcpus, sizeof(*vcpu_snap));
	memset(vcpu_counts, 0, nvcpus * sizeof(*vcpu_counts));

	/* before window 1: not counted in it */
	vcpu_counts[2].acc[1][0][1][0] = 1000;
	vcpu_counts[0].acc[0][1][1][0] = 500;
	vcpu_mark(0, (void *)(uintptr_t)CMD_START);
	/* inside: vCPU 0 (the marker, "submitter") 7 remote kernel reads and
	 * 3 remote misses; vCPU 2 (node 1, not the submitter) 11 remote
	 * kernel reads of node 0, 5 writes, 4 misses; vCPU 3 13 local reads */
	vcpu_counts[0].acc[0][1][1][0] += 7;
	vcpu_counts[0].miss[0][1][1] += 3;
	vcpu_counts[2].acc[1][0][1][0] += 11;
	vcpu_counts[2].acc[1][0][1][1] += 5;
	vcpu_counts[2].miss[1][0][1] += 4;
	vcpu_counts[3].acc[1][1][1][0] += 13;
	/* object kind 0 ("rq") of 7 of vCPU 0's, 9 of vCPU 2's, 2 misses */
	nkinds = 1;
	strcpy(kind_name[0], "rq");
	vcpu_counts[0].obj[0][0] += 7;
	vcpu_counts[2].obj[0][0] += 9;
	vcpu_counts[2].obj[0][1] += 2;
	vcpu_counts[2].obj[MAX_KINDS][0] += 2;
	vcpu_mark(0, (void *)(uintptr_t)CMD_STOP);
	/* after: not counted */
	vcpu_counts[2].acc[1][0][1][0] += 100000;
	/* window 2: only vCPU 1 (node 0), user mode */
	vcpu_mark(1, (void *)(uintptr_t)CMD_START);
	vcpu_counts[1].acc[0][1][0][0] += 17;
	vcpu_mark(1, (void *)(uintptr_t)CMD_STOP);
	fflush(out);
	len = pread(fd, text, sizeof(text) - 1, 0);
	unlink(path);
	if (len <= 0)
		return 2;
	text[len] = 0;

	check("w1 vcpu 0 kernel 0->1 reads", field(text, 1, 0, 0, 1, "kernel", "reads"), 7);
	check("w1 vcpu 0 kernel 0->1 remote_misses",
	      field(text, 1, 0, 0, 1, "kernel", "remote_misses"), 3);
	check("w1 vcpu 2 kernel 1->0 reads (not the marker)",
	      field(text, 1, 2, 1, 0, "kernel", "reads"), 11);
	check("w1 vcpu 2 kernel 1->0 writes", field(text, 1, 2, 1, 0, "kernel", "writes"), 5);
	check("w1 vcpu 2 kernel 1->0 remote_misses",
	      field(text, 1, 2, 1, 0, "kernel", "remote_misses"), 4);
	check("w1 vcpu 3 kernel 1->1 reads", field(text, 1, 3, 1, 1, "kernel", "reads"), 13);
	check("w1 vcpu 3 kernel 1->1 remote_misses (local)",
	      field(text, 1, 3, 1, 1, "kernel", "remote_misses"), 0);
	check("w1 vcpu 1: no record", strstr(text, "window 1 vcpu 1 ") != NULL, 0);
	check("w1 node 1->0 reads = vcpu 2 + vcpu 3's",
	      field(text, 1, -1, 1, 0, "kernel", "reads"),
	      field(text, 1, 2, 1, 0, "kernel", "reads") + field(text, 1, 3, 1, 0, "kernel", "reads"));
	check("w1 node 0->1 reads = vcpu 0 + vcpu 1's",
	      field(text, 1, -1, 0, 1, "kernel", "reads"),
	      field(text, 1, 0, 0, 1, "kernel", "reads") + field(text, 1, 1, 0, 1, "kernel", "reads"));
	check("w1 vcpu 2 object rq", strstr(text, "window 1 vcpu 2 object rq remote 9 remote_misses 2\n")
	      != NULL, 1);
	check("w1 vcpu 0 object rq", strstr(text, "window 1 vcpu 0 object rq remote 7 remote_misses 0\n")
	      != NULL, 1);
	check("w1 vcpu 2 object other", strstr(text, "window 1 vcpu 2 object other remote 2 remote_misses 0\n")
	      != NULL, 1);
	check("w1 object rq (window) = 7 + 9", strstr(text, "window 1 object rq remote 16 remote_misses 2\n")
	      != NULL, 1);
	check("w2 vcpu 1 user 0->1 reads", field(text, 2, 1, 0, 1, "user", "reads"), 17);
	check("w2 vcpu 2: no record", strstr(text, "window 2 vcpu 2 ") != NULL, 0);
	vcpu_mark(1, (void *)(uintptr_t)CMD_DUMP);
	fflush(out);
	check("total 1->0 kernel reads (w1 + w2)", (long long)total.acc[1][0][1][0], 11);
	printf("vcpu-test: %s\n", fails ? "FAILED" : "passed");
	return fails ? 1 : 0;
}
