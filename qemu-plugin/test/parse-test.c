// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of scsi_numa_meter's list arguments (nodes=, cpus=, nodemb=):
 * items split at ';' and ',', the address map and vCPU nodes they give,
 * and a bad item refused.  Built like objects-test.c, with AddressSanitizer:
 * the lists split_list() allocates must be freed on every path (a leak
 * fails the test at exit).
 */
#include <stdlib.h>
#include <string.h>

#include "../meter.h"

static int fails;

static void check(const char *what, long long got, long long want)
{
	if (got != want)
		fails++;
	printf("%s %-52s got %lld expected %lld\n", got == want ? "ok  " : "FAIL", what, got, want);
}

static void reset(void)
{
	int i;

	nranges = 0;
	for (i = 0; i < 1024; i++)
		cpu_node_of[i] = MAX_NODES;
}

int main(void)
{
	char **v;

	setvbuf(stdout, NULL, _IOLBF, 0);	/* a leak report _exit()s */
	v = split_list("a;b,,c;");
	check("split: a;b,,c; is 3 items", v && v[0] && v[1] && v[2] && !v[3], 1);
	check("split: third item is c", v && v[2] && !strcmp(v[2], "c"), 1);
	free(v);
	v = split_list(";;");
	check("split: ;; is no item", v && !v[0], 1);
	free(v);

	reset();
	check("nodemb=512;512 (memdev)", parse_nodemb("512;512", false), 0);
	check("memdev: 2 ranges", nranges, 2);
	check("memdev: node 1 starts at 2 * 512 MiB", (long long)ranges[1].start, 1LL << 30);
	check("memdev: node 1 ends at 1.5 GiB - 1", (long long)ranges[1].end, (3LL << 29) - 1);
	reset();
	check("nodemb=512,0,256 (legacy; QEMU turns ,, into ,)", parse_nodemb("512,0,256", true), 0);
	check("legacy: node 0 of 0 MiB has no range", nranges, 2);
	check("legacy: node 2 starts at 512 MiB", (long long)ranges[1].start, 1LL << 29);
	check("legacy: node 2's number", ranges[1].node, 2);
	check("nodemb=512;x refused", parse_nodemb("512;x", false), -1);

	reset();
	check("nodes=0:0x0-0xfff;1:0x1000-0x1fff",
	      parse_nodes("0:0x0-0xfff;1:0x1000-0x1fff"), 0);
	check("nodes: 0x1000 is node 1", addr_node(0x1000), 1);
	check("nodes: 0x2000 is none", addr_node(0x2000), MAX_NODES);
	check("nodes=0:0x10-0x1 refused (start > end)", parse_nodes("0:0x10-0x1"), -1);
	check("nodes=16:0-1 refused (node)", parse_nodes("16:0-1"), -1);

	reset();
	check("cpus=0-1:0;2-3:1", parse_cpus("0-1:0;2-3:1"), 0);
	check("cpus: vCPU 1 on node 0", cpu_node_of[1], 0);
	check("cpus: vCPU 3 on node 1", cpu_node_of[3], 1);
	check("cpus: vCPU 4 on none", cpu_node_of[4], MAX_NODES);
	check("cpus=0-1 refused (no node)", parse_cpus("0-1;2:1"), -1);
	check("cpus=3-2:0 refused (3 > 2)", parse_cpus("3-2:0"), -1);

	printf("parse-test: %s\n", fails ? "FAILED" : "passed");
	return fails ? 1 : 0;
}
