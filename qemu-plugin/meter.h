// SPDX-License-Identifier: GPL-2.0
/*
 * meter.h: what the parts of scsi_numa_meter share (scsi_numa_meter.c: the
 * address map, the access callback and the plugin's entry points;
 * meter-window.c: windows and their records; meter-objects.c: the object
 * table; meter-llc.c: the cache model; meter-args.c: the arguments).  The
 * plugin is built with -fvisibility=hidden: none of these names can bind
 * to QEMU's own symbols.
 */
#ifndef SCSI_NUMA_METER_H
#define SCSI_NUMA_METER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <qemu-plugin.h>

#include "scsi_numa_meter_mark.h"	/* the marker: one definition, both sides */

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

/* scsi_numa_meter.c */
extern struct range ranges[MAX_RANGES];
extern int nranges;
extern int cpu_node_of[1024];
extern int nvcpus;
extern struct counts *vcpu_counts;
extern FILE *out;
extern int win_open;			/* read locklessly by every vCPU */
extern bool hist_on;
int addr_node(uint64_t pa);

/* meter-window.c */
extern unsigned int win_no;
extern pthread_mutex_t ctl_lock;
extern struct counts total;		/* under ctl_lock */
extern struct counts *vcpu_base, *vcpu_snap;	/* under ctl_lock */
const char *node_name(int n, char *buf);
void emit(const char *label, const struct counts *c);
void close_window(const char *label);
void vcpu_mark(unsigned int vcpu, void *udata);

/* meter-objects.c */
extern const char *objects_path;
extern struct objtab *objtab;		/* replaced under ctl_lock, read by vCPUs */
extern char kind_name[MAX_KINDS][32];
extern int nkinds;
extern uint64_t objects_loads, objects_misses;
int obj_kind(const struct objtab *t, uint64_t va);
void load_objects(void);
void free_objects(void);

/* meter-llc.c */
extern bool llc_on;
extern unsigned int llc_ways, llc_line_shift;
extern uint64_t llc_sets;
bool llc_access(int node, uint64_t pa);
int llc_init(uint64_t sets, unsigned int ways, unsigned int line_shift);

/* meter-args.c */
char **split_list(const char *val);
int parse_nodes(const char *val);
int parse_cpus(const char *val);
int parse_nodemb(const char *val, bool legacy);
int meter_args(int argc, char **argv, const char **outpath);

#define INC(p)	__atomic_store_n(&(p), __atomic_load_n(&(p), __ATOMIC_RELAXED) + 1, \
			       __ATOMIC_RELAXED)

#endif
