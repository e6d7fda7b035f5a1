// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter's cache model (llc=): one LRU set-associative cache per
 * node, shared by the node's vCPUs, looked up by the accessing vCPU's node.
 */
#include <stdlib.h>
#include <string.h>

#include "meter.h"

struct llc {
	pthread_mutex_t lock;
	uint64_t *tag;		/* [set][way], way 0 most recent; line + 1, 0 empty */
};

bool llc_on;
unsigned int llc_ways, llc_line_shift;
uint64_t llc_sets;
static struct llc llc[MAX_NODES];

/* Look the line of @pa up in @node's cache; true on a miss. */
bool llc_access(int node, uint64_t pa)
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

/* Set the caches up, empty: -1 when out of memory. */
int llc_init(uint64_t sets, unsigned int ways, unsigned int line_shift)
{
	int i;

	llc_sets = sets;
	llc_ways = ways;
	llc_line_shift = line_shift;
	for (i = 0; i < MAX_NODES; i++) {
		pthread_mutex_init(&llc[i].lock, NULL);
		llc[i].tag = calloc(llc_sets * llc_ways, sizeof(uint64_t));
		if (!llc[i].tag)
			return -1;
	}
	llc_on = true;
	return 0;
}
