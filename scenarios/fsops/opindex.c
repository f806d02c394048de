// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's index of the ops by the object they act on: each inode's future (the
 * names it is ever given, its issued changes, renames and attribute ops, and what the changes
 * from each one on leave), each file name's and directory's ops and the last of them issued.
 * The judging of the sync ops (promise.c) and the tracks (track.c) read it as the replay goes.
 */
#include <errno.h>
#include <stdlib.h>

#include "scenarios/fsops/check_int.h"

static int oplist_add(struct oplist *l, const struct fsops_op *op)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		const struct fsops_op **v = reallocarray(l->v, cap, sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = op;
	return 0;
}

/* The largest issued op id of @l, or 0. */
static uint64_t last_issued(const struct checker *c, const struct oplist *l)
{
	for (size_t i = l->n; i-- > 0;)
		if (c->issued[l->v[i]->id])
			return l->v[i]->id;
	return 0;
}

/* For every position j of @f's issued changes: what changes[j..] leave (sizes, smallest cut). */
static int future_index(struct future *f)
{
	size_t n = f->changes.n;

	f->min_size = malloc((n + 1) * sizeof(uint64_t));
	f->max_size = malloc((n + 1) * sizeof(uint64_t));
	f->min_cut = malloc((n + 1) * sizeof(uint64_t));
	if (!f->min_size || !f->max_size || !f->min_cut)
		return -ENOMEM;
	f->min_size[n] = f->min_cut[n] = UINT64_MAX;
	f->max_size[n] = 0;
	for (size_t j = n; j-- > 0;) {
		const struct fsops_op *m = f->changes.v[j];

		f->min_size[j] =
			m->size_after < f->min_size[j + 1] ? m->size_after : f->min_size[j + 1];
		f->max_size[j] =
			m->size_after > f->max_size[j + 1] ? m->size_after : f->max_size[j + 1];
		f->min_cut[j] = m->type == FSOPS_TRUNCATE && m->off < f->min_cut[j + 1]
					? m->off
					: f->min_cut[j + 1];
	}
	return 0;
}

int index_ops(struct checker *c)
{
	int r = 0;

	for (uint64_t i = 0; i < c->nops; i++)
		c->nfut += c->ops[i].type == FSOPS_CREATE || c->ops[i].type == FSOPS_SYMLINK;
	c->fut = calloc(c->nfut, sizeof(*c->fut));
	c->fut_at = calloc(c->n + 1, sizeof(*c->fut_at));
	if ((!c->fut && c->nfut) || !c->fut_at)
		return -ENOMEM;
	for (uint64_t i = 0, j = 0; i < c->nops; i++)
		if (c->ops[i].type == FSOPS_CREATE || c->ops[i].type == FSOPS_SYMLINK)
			c->fut_at[c->ops[i].ino] = (uint32_t) j++;
	for (uint64_t i = 0; i < c->nops && r == 0; i++) {
		const struct fsops_op *op = &c->ops[i];
		bool issued = c->issued[op->id];

		switch (op->type) {
		case FSOPS_CREATE:
		case FSOPS_SYMLINK:
			future_of(c, op->ino)->slots |= 1ull << op->a;
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_UNLINK:
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			break;
		case FSOPS_EXCHANGE:
			future_of(c, op->victim)->slots |= 1ull << op->a;
			/* fall through */
		case FSOPS_RENAME:
		case FSOPS_RENAME_NOREPLACE:
			if (issued && op->victim)
				r |= oplist_add(&future_of(c, op->victim)->names, op);
			r |= oplist_add(&c->by_slot[op->a], op);
			/* fall through */
		case FSOPS_LINK:
			future_of(c, op->ino)->slots |= 1ull << op->b;
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->names, op);
			r |= oplist_add(&c->by_slot[op->b], op);
			break;
		case FSOPS_MKDIR:
		case FSOPS_RMDIR:
			r |= oplist_add(&c->by_dir[op->a], op);
			break;
		case FSOPS_SETXATTR:
		case FSOPS_REMOVEXATTR:
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->xattrs, op);
			break;
		default:
			if (!fsops_is_change(op->type))
				break;
			if (fsops_is_shift(op->type))
				future_of(c, op->ino)->shifted = true;
			if (issued && fsops_is_copy(op->type))
				future_of(c, op->victim)->source = true;
			if (op->size_after > future_of(c, op->ino)->max_ever)
				future_of(c, op->ino)->max_ever = op->size_after;
			if (issued)
				r |= oplist_add(&future_of(c, op->ino)->changes, op);
			break;
		}
	}
	for (size_t i = 0; i < c->nfut && r == 0; i++)
		r = future_index(&c->fut[i]);
	for (int s = 0; s < FSOPS_NSLOTS; s++)
		c->slot_last[s] = last_issued(c, &c->by_slot[s]);
	for (int d = 0; d < FSOPS_NDIRS; d++)
		c->dir_last[d] = last_issued(c, &c->by_dir[d]);
	return r ? -ENOMEM : 0;
}
