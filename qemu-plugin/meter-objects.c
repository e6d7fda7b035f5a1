// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter's object table (objects=): loaded at each window's
 * start, searched by the vCPUs for the kind of object an address is in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "meter.h"

const char *objects_path;
struct objtab *objtab;			/* replaced under ctl_lock, read by vCPUs */
static struct objtab *tables;		/* every table loaded, chained by prev */
char kind_name[MAX_KINDS][32];
int nkinds;
uint64_t objects_loads, objects_misses;

/* Kind index of the object holding guest virtual address @va, or MAX_KINDS. */
int obj_kind(const struct objtab *t, uint64_t va)
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
void load_objects(void)
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

/* Free every table (at exit: the vCPUs have stopped, no search is running). */
void free_objects(void)
{
	objtab = NULL;
	while (tables) {
		struct objtab *t = tables;

		tables = t->prev;
		free(t);
	}
}
