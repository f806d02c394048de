// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops model's ranges of the ops that take bytes from another file or move a file's
 * bytes: copies and clones, collapses and inserts. What the generator draws (model.c) and what
 * an op subset re-checks, for the calls' own rules: a range they refuse is never drawn.
 */
#include "scenarios/fsops/fsops.h"
#include "scenarios/fsops/model_int.h"

bool fsops_copy_fits(struct fsops_op *op, uint64_t dst, uint64_t src)
{
	if (op->type == FSOPS_CLONE) {
		op->size_after = src;
		return op->off == 0 && op->len == src && src > 0 && dst <= src;
	}
	op->size_after = op->off + op->len > dst ? op->off + op->len : dst;
	return op->len > 0 && op->off + op->len <= src && op->off <= dst &&
	       (op->type == FSOPS_COPY ||
		(op->off % FSOPS_BLOCK == 0 && op->len % FSOPS_BLOCK == 0));
}

bool fsops_shift_fits(struct fsops_op *op, uint64_t size)
{
	bool collapse = op->type == FSOPS_COLLAPSE;

	op->size_after = collapse ? size - fsops_min64(op->len, size) : size + op->len;
	return op->len > 0 && op->off % FSOPS_BLOCK == 0 && op->len % FSOPS_BLOCK == 0 &&
	       (collapse ? op->off + op->len < size
			 : op->off < size && size + op->len <= FSOPS_MAX_SIZE);
}

bool fsops_draw_shift(struct fsops_model *m, struct fsops_op *op, uint64_t size)
{
	/* The blocks a collapse may end at, or an insert begin at. */
	uint64_t last = size ? (size - 1) / FSOPS_BLOCK : 0;
	uint64_t room = (FSOPS_MAX_SIZE - size) / FSOPS_BLOCK;

	if (size == 0 || (op->type == FSOPS_COLLAPSE ? last == 0 : room == 0))
		return false;
	if (op->type == FSOPS_COLLAPSE) {
		op->off = FSOPS_BLOCK * rnd_range(m, 0, last - 1);
		op->len =
			FSOPS_BLOCK * rnd_range(m, 1, fsops_min64(last - op->off / FSOPS_BLOCK, 4));
	} else {
		op->off = FSOPS_BLOCK * rnd_range(m, 0, last);
		op->len = FSOPS_BLOCK * rnd_range(m, 1, fsops_min64(room, 4));
	}
	return fsops_shift_fits(op, size);
}

bool fsops_draw_copy(struct fsops_model *m, struct fsops_op *op, uint64_t dst, uint64_t src)
{
	uint64_t blk = FSOPS_BLOCK, at;

	if (op->type == FSOPS_CLONE) {
		op->len = src;
	} else if (op->type == FSOPS_CLONE_RANGE) {
		if (src < blk)
			return false;
		at = rnd_range(m, 0, fsops_min64(src / blk - 1, dst / blk));
		op->off = at * blk;
		op->len = blk * rnd_range(m, 1, fsops_min64(src / blk - at, 4));
	} else {
		if (src == 0)
			return false;
		op->off = rnd_range(m, 0, fsops_min64(src - 1, dst));
		op->len = rnd_range(m, 1, fsops_min64(src - op->off, FSOPS_MAX_WRITE));
	}
	return fsops_copy_fits(op, dst, src);
}
