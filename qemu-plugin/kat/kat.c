// SPDX-License-Identifier: GPL-2.0
/*
 * kat [N [CPU [REMOTE [LOCAL [OTHER]]]]]: the scsi_numa_meter known-answer test,
 * run in the guest (static; no libnuma).  Pinned to CPU (default 0, on node
 * LOCAL = 0), it makes four windows, each with exactly N 8-byte user-mode
 * accesses and nothing else in the marking thread:
 *   window 1: N loads  from a buffer bound to node REMOTE (default 1)
 *   window 2: N loads  from a buffer bound to node LOCAL
 *   window 3: N stores to   the REMOTE buffer
 *   window 4: N loads  from the REMOTE buffer, and a second thread pinned
 *             to CPU OTHER (default 2, on node REMOTE) makes N/2 loads from
 *             the LOCAL buffer: the marking thread opens the window, sweeps,
 *             wakes the other thread and sleeps in the kernel (futex) until
 *             it has swept, then closes the window.  So the window holds N
 *             remote loads of CPU and N/2 remote loads of CPU OTHER, which
 *             the per-vCPU records must keep apart.
 * The buffers are N*8 bytes, page-aligned, faulted in and swept once
 * outside the windows (warm-up); the program checks with get_mempolicy()
 * that every page is on the node asked for and prints what it found.
 * Exit status 0 when the placement is right, 1 otherwise.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "scsi_numa_meter_mark.h"

#define MPOL_BIND	2
#define MPOL_MF_STRICT	(1 << 0)
#define MPOL_MF_MOVE	(1 << 1)
#define MPOL_F_NODE	(1 << 0)
#define MPOL_F_ADDR	(1 << 1)

static volatile uint64_t sink;

/* Only the loop's loads between the marks: i, s and p stay in registers. */
static __attribute__((noinline)) uint64_t sweep_load(const volatile uint64_t *p, long n)
{
	uint64_t s = 0;
	long i;

	scsi_numa_meter_mark(SCSI_NUMA_METER_START);
	for (i = 0; i < n; i++)
		s += p[i];
	scsi_numa_meter_mark(SCSI_NUMA_METER_STOP);
	return s;
}

static __attribute__((noinline)) void sweep_store(volatile uint64_t *p, long n)
{
	long i;

	scsi_numa_meter_mark(SCSI_NUMA_METER_START);
	for (i = 0; i < n; i++)
		p[i] = i;
	scsi_numa_meter_mark(SCSI_NUMA_METER_STOP);
}

/* Window 4's second thread: ready = 1 when it waits on its CPU, go = 1
 * lets it sweep, done = 1 when it has. */
struct other {
	int cpu;
	const volatile uint64_t *p;
	long n;
	uint32_t ready, go, done;
	uint64_t sum;
};

static void futex_wait(uint32_t *w)
{
	while (!__atomic_load_n(w, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, w, FUTEX_WAIT, 0, NULL, NULL, 0);
}

static void futex_wake(uint32_t *w)
{
	__atomic_store_n(w, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, w, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void *other_thread(void *arg)
{
	struct other *o = arg;
	cpu_set_t set;
	uint64_t s = 0;
	long i, n;
	const volatile uint64_t *p;

	CPU_ZERO(&set);
	CPU_SET(o->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("kat: sched_setaffinity (other thread)");
		exit(1);
	}
	if (sched_getcpu() != o->cpu) {
		fprintf(stderr, "kat: other thread on cpu %d, not %d\n", sched_getcpu(), o->cpu);
		exit(1);
	}
	futex_wake(&o->ready);
	futex_wait(&o->go);
	p = o->p;	/* in registers: only the buffer's loads in the loop */
	n = o->n;
	for (i = 0; i < n; i++)
		s += p[i];
	o->sum = s;
	futex_wake(&o->done);
	return NULL;
}

/* Window 4: @n loads of @p here, o->n loads by the other thread. */
static __attribute__((noinline)) uint64_t sweep_two(const volatile uint64_t *p, long n,
						    struct other *o)
{
	uint64_t s = 0;
	long i;

	scsi_numa_meter_mark(SCSI_NUMA_METER_START);
	for (i = 0; i < n; i++)
		s += p[i];
	futex_wake(&o->go);
	futex_wait(&o->done);
	scsi_numa_meter_mark(SCSI_NUMA_METER_STOP);
	return s;
}

static void warm(const volatile uint64_t *p, long n)
{
	uint64_t s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += p[i];
	sink = s;
}

static uint64_t *node_buffer(size_t len, int node)
{
	unsigned long mask = 1UL << node;
	long psz = sysconf(_SC_PAGESIZE);
	size_t off, good = 0, pages = len / psz;
	uint64_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("kat: mmap");
		exit(1);
	}
	if (syscall(SYS_mbind, p, len, MPOL_BIND, &mask, sizeof(mask) * 8,
		    MPOL_MF_STRICT | MPOL_MF_MOVE)) {
		perror("kat: mbind");
		exit(1);
	}
	for (off = 0; off < len; off += psz)	/* fault in */
		((volatile char *)p)[off] = 1;
	for (off = 0; off < len; off += psz) {
		int n = -1;

		if (syscall(SYS_get_mempolicy, &n, NULL, 0, (char *)p + off,
			    MPOL_F_NODE | MPOL_F_ADDR) == 0 && n == node)
			good++;
	}
	printf("kat: buffer %p, %zu bytes: %zu/%zu pages on node %d\n", p, len, good,
	       pages, node);
	if (good != pages)
		exit(1);
	return p;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int cpu = argc > 2 ? atoi(argv[2]) : 0;
	int remote = argc > 3 ? atoi(argv[3]) : 1;
	int local = argc > 4 ? atoi(argv[4]) : 0;
	int ocpu = argc > 5 ? atoi(argv[5]) : 2;
	struct other o = { .cpu = ocpu, .n = n / 2 };
	pthread_t th;
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (n * 8 + psz - 1) / psz * psz;
	uint64_t *rbuf, *lbuf;
	cpu_set_t set;

	setvbuf(stdout, NULL, _IOLBF, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("kat: sched_setaffinity");
		return 1;
	}
	rbuf = node_buffer(len, remote);
	lbuf = node_buffer(len, local);
	warm(rbuf, n);		/* warm-up, no window */
	warm(lbuf, n);

	printf("kat: cpu %d (on cpu %d): window 1: %ld loads, node %d buffer\n",
	       cpu, sched_getcpu(), n, remote);
	sink = sweep_load(rbuf, n);
	printf("kat: window 2: %ld loads, node %d buffer\n", n, local);
	sink = sweep_load(lbuf, n);
	printf("kat: window 3: %ld stores, node %d buffer\n", n, remote);
	sweep_store(rbuf, n);
	o.p = lbuf;
	if (pthread_create(&th, NULL, other_thread, &o)) {
		fprintf(stderr, "kat: pthread_create failed\n");
		return 1;
	}
	futex_wait(&o.ready);
	printf("kat: window 4: %ld loads, node %d buffer; cpu %d: %ld loads, node %d buffer\n",
	       n, remote, ocpu, o.n, local);
	sink = sweep_two(rbuf, n, &o);
	pthread_join(th, NULL);
	sink += o.sum;
	printf("kat: done, on cpu %d\n", sched_getcpu());
	return 0;
}
