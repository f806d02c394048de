// SPDX-License-Identifier: GPL-2.0-or-later
/* The ops up to an acknowledged op, and what it promised: upto.h. */
#include "scenarios/fsops/upto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Make room in @c for one more op: 0, or -1 out of memory (what was kept stays). */
static int grow(struct fsops_upto *c)
{
	uint64_t cap = c->cap ? 2 * c->cap : 256;
	struct fsops_op *v;
	uint64_t *ids;
	char(*d)[24];

	if (c->n < c->cap)
		return 0;
	if (!(v = realloc(c->v, cap * sizeof(*v))))
		return -1;
	c->v = v;
	if (!(ids = realloc(c->data_id, cap * sizeof(*ids))))
		return -1;
	c->data_id = ids;
	if (!(d = realloc(c->dir, cap * sizeof(*d))))
		return -1;
	c->dir = d;
	c->cap = cap;
	return 0;
}

static int collect(struct fsops_upto *c, const struct fsops_op *ops, uint64_t n, uint64_t base,
		   const char *dir)
{
	for (uint64_t i = 0; i < n && base + ops[i].id <= c->upto; i++) {
		if (grow(c) < 0)
			return -1;
		c->v[c->n] = ops[i];
		c->v[c->n].id += base;
		c->data_id[c->n] = ops[i].id;
		snprintf(c->dir[c->n], sizeof(c->dir[0]), "%s", dir);
		c->found = c->v[c->n].id == c->upto;
		c->n++;
	}
	return 0;
}

static int collect_laid(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
			uint64_t n, uint64_t base, const char *dir, bool setup)
{
	struct fsops_upto *c = ctx;

	if (c->found || base + ops[0].id > c->upto)
		return 0;
	/* On a fresh filesystem per workload, the workloads before that of op upto ran on
	 * filesystems of their own: op upto's has the setup and its own ops alone. */
	if (c->fresh && !setup && base + ops[n - 1].id < c->upto)
		return 0;
	return collect(c, ops, n, base, dir);
}

int fsops_upto_collect(const struct fsops_params *p, uint64_t upto, struct fsops_upto *c)
{
	int rc;

	c->upto = upto;
	c->fresh = p->fresh;
	if (p->bounded) {
		rc = fsops_bounded_lay(p, collect_laid, c);
	} else {
		struct fsops_op *ops;
		uint64_t n;

		rc = fsops_sequence(p, &ops, &n);
		if (rc == 0)
			rc = collect(c, ops, n, 0, "");
		if (rc == 0)
			free(ops);
	}
	if (rc < 0) {
		fputs("blackout-fsops: out of memory\n", stderr);
		return 1;
	}
	if (!c->found || !fsops_is_sync(c->v[c->n - 1].type)) {
		fprintf(stderr, "blackout-fsops: op %llu is no acknowledged op of this sequence\n",
			(unsigned long long) upto);
		return 2;
	}
	return 0;
}

void fsops_upto_free(struct fsops_upto *c)
{
	free(c->v);
	free(c->data_id);
	free(c->dir);
	*c = (struct fsops_upto){0};
}

const char *fsops_upto_source(const struct fsops_params *p)
{
	if (!p->bounded)
		return "(a seeded sequence)";
	return p->fresh ? "--bounded --fresh (of them, the setup and the last one's workload, on "
			  "a fresh filesystem)"
			: "--bounded";
}

/* @p as a C string literal's body: the paths are fsops' (letters, digits, '/', '.'). */
const char *fsops_upto_path(const char *dir, const char *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", dir, *dir ? "/" : "", p);
	return buf;
}

/* What op @op (a persistence op) promised, into @buf, in words. */
const char *fsops_upto_promise(const struct fsops_op *op, const char *a, bool linux_names,
			       char *buf, size_t len)
{
	switch (op->type) {
	case FSOPS_FSYNC:
		snprintf(buf, len, "fsync %s: its data, size and name", a);
		break;
	case FSOPS_FDATASYNC:
		snprintf(buf, len, "fdatasync %s: its data and size", a);
		break;
	case FSOPS_FSYNC_FILE:
		snprintf(buf, len, "fsync of file %s: its data and size%s", a,
			 linux_names ? ", and its name" : "");
		break;
	case FSOPS_FSYNC_DIR:
		snprintf(buf, len, "fsync of directory %s: the names in it", a);
		break;
	case FSOPS_SYNC:
		snprintf(buf, len, "syncfs: everything before it");
		break;
	case FSOPS_DSYNC_WRITE:
		snprintf(buf, len, "RWF_DSYNC write of %s: the bytes written", a);
		break;
	case FSOPS_SYNC_WRITE:
		snprintf(buf, len, "O_SYNC write of %s: the bytes written", a);
		break;
	case FSOPS_MMAP_WRITE:
		snprintf(buf, len, "msync of a store to %s: the bytes stored", a);
		break;
	default:
		snprintf(buf, len, "op %s", fsops_type_name(op->type));
		break;
	}
	return buf;
}
