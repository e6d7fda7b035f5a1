// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of scsi_numa_meter's object table (objects=): loading, sorting,
 * overlap and bad-line handling, and the address lookup at range edges.
 * Linked with the plugin's parts, so its functions are tested as they
 * are; the QEMU API it references is never called (linked with
 * qemu-stubs.c, whose functions abort).  Exit 0 when every check passes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../meter.h"

static int fails;

static void check(const char *what, long long got, long long want)
{
	if (got != want)
		fails++;
	printf("%s %-44s got %lld expected %lld\n", got == want ? "ok  " : "FAIL", what, got, want);
}

static const char *kind_at(uint64_t va)
{
	int k = obj_kind(objtab, va);

	return k == MAX_KINDS ? "other" : kind_name[k];
}

static void check_kind(uint64_t va, const char *want)
{
	char what[64];

	snprintf(what, sizeof(what), "kind at %#" PRIx64 " is %s", va, want);
	check(what, !strcmp(kind_at(va), want), 1);
}

int main(int argc, char **argv)
{
	char path[] = "/tmp/scsi_numa_meter-objects-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	if (fd < 0 || !(f = fdopen(fd, "w")))
		return 2;
	out = stdout;
	/* unsorted; "c" overlaps "b" (dropped); size 0 and junk ignored */
	fprintf(f, "a ffff888000001000 256\n"
		   "b ffff888000000000 4096\n"
		   "c ffff888000000800 16\n"
		   "z ffff888000002000 0\n"
		   "junk line\n"
		   "a ffff888000003000 64\n");
	fclose(f);
	objects_path = path;
	load_objects();
	check("table loaded", objtab != NULL, 1);
	if (!objtab)
		return 1;
	check("ranges kept (4 listed, 1 overlapping)", objtab->n, 3);
	check("kinds named (a, b, c; z skipped)", nkinds, 3);
	check_kind(0xffff888000000000ULL, "b");
	check_kind(0xffff888000000fffULL, "b");
	check_kind(0xffff888000000800ULL, "b");
	check_kind(0xffff888000001000ULL, "a");
	check_kind(0xffff8880000010ffULL, "a");
	check_kind(0xffff888000001100ULL, "other");
	check_kind(0xffff888000002000ULL, "other");
	check_kind(0xffff888000003020ULL, "a");
	check_kind(0xffff888000003040ULL, "other");
	check_kind(0xffff887fffffffffULL, "other");
	check_kind(0x00007fff00001000ULL, "other");

	/* a reload keeps kind numbers: "b" stays index 1 */
	f = fopen(path, "w");
	fprintf(f, "b ffff888000010000 8\nd ffff888000020000 8\n");
	fclose(f);
	load_objects();
	check("reload: ranges", objtab->n, 2);
	check("reload: b keeps its index", obj_kind(objtab, 0xffff888000010004ULL), 1);
	check("reload: d is a new kind", obj_kind(objtab, 0xffff888000020000ULL), 3);
	check_kind(0xffff888000000000ULL, "other");

	/* a missing file: no table, counted */
	unlink(path);
	load_objects();
	check("missing file: no table", objtab == NULL, 1);
	check("missing file counted", (long long)objects_misses, 1);
	check("loads counted", (long long)objects_loads, 2);
	printf("objects-test: %s\n", fails ? "FAILED" : "passed");
	return fails ? 1 : 0;
}
