// SPDX-License-Identifier: GPL-2.0
/*
 * kat [N [CPU [REMOTE [LOCAL]]]]: the snimeter known-answer test, run in
 * the guest (static; no libnuma).  Pinned to CPU (default 0, on node LOCAL
 * = 0), it makes three windows, each with exactly N 8-byte user-mode
 * accesses and nothing else in the marking thread:
 *   window 1: N loads  from a buffer bound to node REMOTE (default 1)
 *   window 2: N loads  from a buffer bound to node LOCAL
 *   window 3: N stores to   the REMOTE buffer
 * The buffers are N*8 bytes, page-aligned, faulted in and swept once
 * outside the windows (warm-up); the program checks with get_mempolicy()
 * that every page is on the node asked for and prints what it found.
 * Exit status 0 when the placement is right, 1 otherwise.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "snimeter-mark.h"

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

	snimeter_mark(SNIMETER_START);
	for (i = 0; i < n; i++)
		s += p[i];
	snimeter_mark(SNIMETER_STOP);
	return s;
}

static __attribute__((noinline)) void sweep_store(volatile uint64_t *p, long n)
{
	long i;

	snimeter_mark(SNIMETER_START);
	for (i = 0; i < n; i++)
		p[i] = i;
	snimeter_mark(SNIMETER_STOP);
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
	printf("kat: done, on cpu %d\n", sched_getcpu());
	return 0;
}
