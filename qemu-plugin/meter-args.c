// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_numa_meter's arguments (the list: scsi_numa_meter.c's comment):
 * the address map, the vCPUs' nodes, the cache, the window, the objects.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "meter.h"

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
char **split_list(const char *val)
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

int parse_nodes(const char *val)
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

int parse_cpus(const char *val)
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

int parse_nodemb(const char *val, bool legacy)
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

	if (parse_u64(val, &e, &kib) || *e != ':' || parse_u64(e + 1, &e, &ways) ||
	    (*e == ':' && parse_u64(e + 1, &e, &line)) || *e)
		return perr("llc=", val);
	if (!ways || ways > 64 || line < 8 || (line & (line - 1)) ||
	    (kib << 10) % (ways * line))
		return perr("llc= (ways 1..64, line a power of 2, size a multiple of ways*line)", val);
	if (!((kib << 10) / (ways * line)))
		return perr("llc=", val);
	if (llc_init((kib << 10) / (ways * line), ways, __builtin_ctzll(line)))
		return perr("llc= (out of memory)", val);
	return 0;
}

/* Every argument of the plugin; *@outpath: out=, or NULL.  -1 on a bad one. */
int meter_args(int argc, char **argv, const char **outpath)
{
	const char *nodemb = NULL;
	bool legacy = false;
	int i;

	*outpath = NULL;
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
			*outpath = val;
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
	return 0;
}
