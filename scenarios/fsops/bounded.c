// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bounded space of fsops workloads: every sequence of up to three core ops over a tiny
 * namespace, each followed by a persistence op — the shape of CrashMonkey's ACE. A workload is
 * named by its length and its rank in one fixed order ("seq2-00412"), the same on every
 * machine: the order is that of the tables below, and only sequences every op of which can be
 * performed are workloads.
 *
 * A workload starts from a setup: directories d0 and d1, files d0/f0 and d1/f0 of 8 KiB each,
 * d0/f0's attribute user.fsops1, a syncfs. Its core ops act on the four names d0/f0, d0/f1, d1/f0, d1/f1 and on the directory
 * d2. Its ops are fsops ops (fsops.h), with ids 1..n of its own, so the workload and its
 * checker are fsops' own, run in the workload's directory.
 *
 * A filesystem without an op family (--families) or without hard links (--no-links) runs the
 * workloads that need none of what it lacks, under the ranks and names they have on every
 * filesystem; without xattrs its setup sets no attribute.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/fsops/fsops.h"

#define NFILES 4
static const int files[NFILES] = {8, 9, 16, 17}; /* d0/f0, d0/f1, d1/f0, d1/f1 */

/* A core op on one file: its type and range (an append's offset is the size then). */
static const struct {
	enum fsops_type type;
	uint64_t off, len;
} file_ops[] = {
	{FSOPS_CREATE, 0, 0},
	{FSOPS_WRITE, 0, 4096},		 /* aligned, over the start */
	{FSOPS_WRITE, 5000, 3000},	 /* unaligned, inside or past the end */
	{FSOPS_APPEND, 0, 3000},	 /* unaligned */
	{FSOPS_TRUNCATE, 2500, 0},	 /* down (or up, from empty) */
	{FSOPS_TRUNCATE, 20000, 0},	 /* up */
	{FSOPS_DIO_WRITE, 0, 4096},	 /* over the first block */
	{FSOPS_DIO_WRITE, 8192, 4096},	 /* at the end of a setup file */
	{FSOPS_FALLOC, 8192, 8192},	 /* extends a setup file */
	{FSOPS_FALLOC_KEEP, 8192, 8192}, /* past a setup file's end */
	{FSOPS_PUNCH, 1000, 5000},	 /* unaligned, inside */
	{FSOPS_ZERO, 2000, 12000},	 /* inside and past the end */
	{FSOPS_ZERO_KEEP, 6000, 3000},
	{FSOPS_MMAP_WRITE, 100, 3000},
	{FSOPS_DSYNC_WRITE, 7000, 2000},
	{FSOPS_SYNC_WRITE, 0, 1000},
	{FSOPS_SETXATTR, 0, 0},
	{FSOPS_REMOVEXATTR, 1, 0},
	{FSOPS_UNLINK, 0, 0},
};
#define NFILE_OPS (sizeof(file_ops) / sizeof(file_ops[0]))

/* Core ops on two files, in every order of two of the four names. */
static const enum fsops_type pair_ops[] = {FSOPS_LINK, FSOPS_RENAME, FSOPS_RENAME_NOREPLACE,
					   FSOPS_EXCHANGE};
#define NPAIR_OPS (sizeof(pair_ops) / sizeof(pair_ops[0]))
#define NPAIRS	  (NFILES * (NFILES - 1))
#define NDIR_OPS  2 /* mkdir d2, rmdir d2 */
#define NCORE	  (NFILES * NFILE_OPS + NPAIR_OPS * NPAIRS + NDIR_OPS)

/* The persistence op after a core op, of its target (the name it leaves the inode under). */
enum persist { P_NONE, P_FSYNC_FILE, P_FSYNC_DIR, P_FDATASYNC, P_SYNC, NPERSIST };

#define SETUP_OPS 8

struct step {
	unsigned core;
	enum persist persist;
};

/* Core op @k, with id @id, as a template (fsops_adapt() fits it to the tree). */
static struct fsops_op core_op(unsigned k, uint64_t id, int *target)
{
	struct fsops_op op = {.id = id, .a = -1, .b = -1};

	if (k < NFILES * NFILE_OPS) {
		op.type = file_ops[k % NFILE_OPS].type;
		op.a = files[k / NFILE_OPS];
		op.off = file_ops[k % NFILE_OPS].off;
		op.len = file_ops[k % NFILE_OPS].len;
		op.size_after = op.type == FSOPS_TRUNCATE ? op.off : 0; /* else fsops_adapt()'s */
		*target = op.a;
		return op;
	}
	k -= NFILES * NFILE_OPS;
	if (k < NPAIR_OPS * NPAIRS) {
		unsigned pair = k % NPAIRS, from = pair / (NFILES - 1), to = pair % (NFILES - 1);

		op.type = pair_ops[k / NPAIRS];
		op.a = files[from];
		op.b = files[to < from ? to : to + 1];
		*target = op.b;
		return op;
	}
	op.type = k - NPAIR_OPS * NPAIRS == 0 ? FSOPS_MKDIR : FSOPS_RMDIR;
	op.a = 2;
	*target = -1;
	return op;
}

/* Fit @op to @m and apply it; false if it cannot be performed there. */
static bool add(struct fsops_model *m, struct fsops_op *op, int *err)
{
	struct fsops_op fit;

	if (op->type == FSOPS_CREATE)
		op->ino = op->id;
	if (op->type == FSOPS_APPEND && op->a >= 0 && m->slot_ino[op->a]) {
		const struct fsops_inode *in = fsops_model_inode(m, m->slot_ino[op->a]);

		op->off = in->size;
		op->type = FSOPS_WRITE;
	}
	if (!fsops_adapt(m, op, &fit))
		return false;
	*op = fit;
	*err = fsops_model_apply(m, op);
	return *err == 0;
}

/*
 * The ops of the workload of @steps (@k of them) into @ops (room for SETUP_OPS + 2 * k) and
 * *@n: false if one cannot be performed. -ENOMEM into *@err.
 */
static bool build(const struct step *steps, unsigned k, bool xattrs, struct fsops_op *ops,
		  uint64_t *n, int *err)
{
	static const struct fsops_op setup[SETUP_OPS] = {
		{.type = FSOPS_MKDIR, .a = 0, .b = -1},
		{.type = FSOPS_MKDIR, .a = 1, .b = -1},
		{.type = FSOPS_CREATE, .a = 8, .b = -1},
		{.type = FSOPS_WRITE, .a = 8, .b = -1, .off = 0, .len = 8192},
		{.type = FSOPS_CREATE, .a = 16, .b = -1},
		{.type = FSOPS_WRITE, .a = 16, .b = -1, .off = 0, .len = 8192},
		{.type = FSOPS_SETXATTR, .a = 8, .b = -1, .off = 1},
		{.type = FSOPS_SYNC, .a = -1, .b = -1},
	};
	struct fsops_params p = {0};
	struct fsops_model m;
	bool ok = true;

	*n = 0;
	*err = 0;
	fsops_model_init(&m, &p);
	for (unsigned i = 0; i < SETUP_OPS && ok; i++) {
		if (setup[i].type == FSOPS_SETXATTR && !xattrs)
			continue;
		ops[*n] = setup[i];
		ops[*n].id = *n + 1;
		ok = add(&m, &ops[*n], err);
		*n += ok;
	}
	for (unsigned i = 0; i < k && ok; i++) {
		int target;

		ops[*n] = core_op(steps[i].core, *n + 1, &target);
		ok = add(&m, &ops[*n], err);
		*n += ok;
		if (!ok || steps[i].persist == P_NONE)
			continue;
		if (target < 0 &&
		    (steps[i].persist == P_FSYNC_FILE || steps[i].persist == P_FDATASYNC)) {
			ok = false;
			continue;
		}
		ops[*n] = (struct fsops_op){.id = *n + 1, .a = target, .b = -1};
		switch (steps[i].persist) {
		case P_FSYNC_FILE:
			ops[*n].type = FSOPS_FSYNC_FILE;
			break;
		case P_FDATASYNC:
			ops[*n].type = FSOPS_FDATASYNC;
			break;
		case P_FSYNC_DIR:
			ops[*n].type = FSOPS_FSYNC_DIR;
			ops[*n].a = target < 0 ? -1 : fsops_slot_dir(target);
			break;
		default:
			ops[*n].type = FSOPS_SYNC;
			ops[*n].a = -1;
			break;
		}
		ok = add(&m, &ops[*n], err);
		*n += ok;
	}
	fsops_model_release(&m);
	return ok && *err == 0;
}

struct walk {
	unsigned length;
	unsigned families; /* the op families the filesystem has */
	bool no_links;
	struct fsops_ranks sel;
	uint64_t rank;
	fsops_bounded_fn *fn;
	void *ctx;
	struct step steps[FSOPS_BOUNDED_MAX];
	struct fsops_op ops[SETUP_OPS + 2 * FSOPS_BOUNDED_MAX];
	char code[FSOPS_BOUNDED_CODE_MAX];
};

/* The steps of a workload as its code, "57.1-103.0": core op and persistence op, each step. */
static void code(const struct step *steps, unsigned k, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < k && at < len; i++)
		at += (size_t) snprintf(buf + at, len - at, "%s%u.%u", i ? "-" : "", steps[i].core,
					(unsigned) steps[i].persist);
}

/* Whether the filesystem of @w can perform every core op of its @k steps. */
static bool performable(const struct walk *w, unsigned k)
{
	for (unsigned i = 0; i < k; i++) {
		int target;
		struct fsops_op op = core_op(w->steps[i].core, 0, &target);

		if ((fsops_type_family(op.type) & ~w->families) ||
		    (op.type == FSOPS_LINK && w->no_links))
			return false;
	}
	return true;
}

/* @fn of @w on its workload of the current steps (ops *@n, built with every family's setup),
 * if its filesystem can perform it; 0 if not. */
static int visit(struct walk *w, uint64_t *n)
{
	int r = 0;

	if (!performable(w, w->length))
		return 0;
	if (!(w->families & FSOPS_FAMILY_XATTR) &&
	    !build(w->steps, w->length, false, w->ops, n, &r))
		return r < 0 ? r : -EINVAL; /* never: the setup's attribute is its own op */
	code(w->steps, w->length, w->code, sizeof(w->code));
	return w->fn(w->ctx, w->rank, w->code, w->ops, *n);
}

/* Every workload extending the first @k steps of @w, in order; stops at a non-zero return. */
static int walk(struct walk *w, unsigned k)
{
	if (k >= FSOPS_BOUNDED_MAX)
		return 0; /* never: k < length <= FSOPS_BOUNDED_MAX */
	for (unsigned c = 0; c < NCORE; c++)
		for (unsigned p = k + 1 == w->length; p < NPERSIST; p++) {
			uint64_t n;
			int r;

			/* The last core op is followed by a persistence op: none is not a choice. */
			w->steps[k] = (struct step){c, (enum persist) p};
			if (!build(w->steps, k + 1, true, w->ops, &n, &r)) {
				if (r < 0)
					return r;
				continue;
			}
			if (k + 1 < w->length) {
				r = walk(w, k + 1);
			} else {
				r = w->rank >= w->sel.first && w->rank % w->sel.every == w->sel.at
					    ? visit(w, &n)
					    : 0;
				w->rank++;
				if (w->rank > w->sel.last)
					return 1;
			}
			if (r)
				return r;
		}
	return 0;
}

int fsops_bounded_each(const struct fsops_params *p, fsops_bounded_fn *fn, void *ctx)
{
	struct walk *w;
	int r;

	if (p->bounded < 1 || p->bounded > FSOPS_BOUNDED_MAX || p->ranks.every < 1 ||
	    p->ranks.at >= p->ranks.every)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->length = p->bounded;
	w->families = p->families;
	w->no_links = p->no_links;
	w->sel = p->ranks;
	w->fn = fn;
	w->ctx = ctx;
	r = walk(w, 0);
	free(w);
	return r < 0 ? r : 0;
}

static int count_one(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
		     uint64_t n)
{
	(*(uint64_t *) ctx)++;
	return 0;
}

int fsops_bounded_count(const struct fsops_params *p, uint64_t *ret)
{
	struct fsops_params all = *p;

	all.ranks = (struct fsops_ranks){.last = UINT64_MAX, .every = 1};
	*ret = 0;
	return fsops_bounded_each(&all, count_one, ret);
}

void fsops_bounded_name(unsigned length, uint64_t rank, char *buf, size_t len)
{
	snprintf(buf, len, "seq%u-%05llu", length, (unsigned long long) rank);
}

uint64_t fsops_bounded_setup(const struct fsops_params *p)
{
	return p->families & FSOPS_FAMILY_XATTR ? SETUP_OPS : SETUP_OPS - 1;
}

int fsops_bounded_setup_ops(const struct fsops_params *p, struct fsops_op *ops, uint64_t *n)
{
	int err = 0;

	if (build(NULL, 0, (p->families & FSOPS_FAMILY_XATTR) != 0, ops, n, &err))
		return 0;
	return err < 0 ? err : -EINVAL; /* never: the setup is always performed */
}

struct lay {
	const struct fsops_params *p;
	fsops_bounded_laid_fn *fn;
	void *ctx;
	uint64_t base, setup; /* the ids laid out before; the setup's ops */
	bool laid_setup;
};

static int lay_one(void *ctx, uint64_t rank, const char *code, const struct fsops_op *ops,
		   uint64_t n)
{
	struct lay *l = ctx;
	char dir[24];
	int r;

	if (!l->p->fresh) {
		snprintf(dir, sizeof(dir), "w%llu", (unsigned long long) rank);
		r = l->fn(l->ctx, rank, code, ops, n, l->base, dir, false);
		l->base += n;
		return r;
	}
	if (!l->laid_setup) {
		l->laid_setup = true;
		r = l->fn(l->ctx, rank, code, ops, l->setup, 0, "w", true);
		if (r)
			return r;
	}
	/* Its ops after the setup keep their own ids, setup + 1..: the base counts the ops
	 * laid out after the setup before this workload. */
	r = l->fn(l->ctx, rank, code, ops + l->setup, n - l->setup, l->base, "w", false);
	l->base += n - l->setup;
	return r;
}

int fsops_bounded_lay(const struct fsops_params *p, fsops_bounded_laid_fn *fn, void *ctx)
{
	struct lay l = {.p = p, .fn = fn, .ctx = ctx, .setup = fsops_bounded_setup(p)};

	return fsops_bounded_each(p, lay_one, &l);
}

/* A decimal number of at most 4 digits at *@at, into *@ret; past it. false if none. */
static bool number(const char **at, unsigned *ret)
{
	unsigned v = 0, d = 0;

	for (; **at >= '0' && **at <= '9' && d < 5; (*at)++, d++)
		v = 10 * v + (unsigned) (**at - '0');
	*ret = v;
	return d > 0 && d < 5;
}

int fsops_bounded_decode(const struct fsops_params *p, const char *text, struct fsops_op *ops,
			 uint64_t *n)
{
	struct walk w = {.length = p->bounded, .families = p->families, .no_links = p->no_links};
	const char *at = text;
	unsigned k = 0;
	int err = 0;

	while (*at) {
		unsigned c, per;

		if (k == FSOPS_BOUNDED_MAX || !number(&at, &c) || *at++ != '.' ||
		    !number(&at, &per) || c >= NCORE || per >= NPERSIST ||
		    (*at && (*at++ != '-' || !*at)))
			return -EINVAL;
		w.steps[k++] = (struct step){c, (enum persist) per};
	}
	/* A whole workload of the space this run draws from. */
	if (k != p->bounded || w.steps[k - 1].persist == P_NONE || !performable(&w, k))
		return -EINVAL;
	if (!build(w.steps, k, (p->families & FSOPS_FAMILY_XATTR) != 0, ops, n, &err))
		return err < 0 ? err : -EINVAL;
	return 0;
}
