/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model_int.h — what the fsops model's files share: the one 64-bit mix of the generator
 * (model.c) and of the data and attribute values (data.c), the generator's draws, and the
 * ranges of copies and shifts (ranges.c). Inline: the generator and the decoder call them per
 * word and per draw. Internal to the fsops program.
 */
#ifndef BO_FSOPS_MODEL_INT_H
#define BO_FSOPS_MODEL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/fsops/fsops.h"

/* splitmix64's finaliser: a good 64-bit mix. */
static inline uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* The generator's next draw: splitmix64. */
static inline uint64_t rnd(struct fsops_model *m)
{
	m->rng += 0x9e3779b97f4a7c15ULL;
	return mix(m->rng);
}

/* Uniform in [lo, hi]. */
static inline uint64_t rnd_range(struct fsops_model *m, uint64_t lo, uint64_t hi)
{
	return lo + rnd(m) % (hi - lo + 1);
}

/*
 * Whether copy @op (its type, range and source set) fits a destination of @dst bytes and a
 * source of @src, and the size it leaves into op->size_after. The range is the source's, at the
 * same offsets in the destination (a copied word still names the offset it was written at):
 * inside the source (copy_file_range stops at its end, a clone of a range past it fails), and
 * beginning no further than the destination's end. A clone's is whole blocks; FICLONE's is all
 * of the source, onto a destination no longer (one longer would keep a tail past the
 * source's unaligned end, which generic_remap_check_len() refuses).
 */
bool fsops_copy_fits(struct fsops_op *op, uint64_t dst, uint64_t src);

/* Draw copy @op's range, for a destination of @dst bytes and a source of @src; false if the
 * files admit none. */
bool fsops_draw_copy(struct fsops_model *m, struct fsops_op *op, uint64_t dst, uint64_t src);

/*
 * Whether shift @op (its range set) fits a file of @size bytes, and the size it leaves into
 * op->size_after: whole blocks; a collapse ends before the end of the file, an insert begins
 * before it (both fail otherwise: EINVAL), and leaves the file under FSOPS_MAX_SIZE.
 */
bool fsops_shift_fits(struct fsops_op *op, uint64_t size);

/* Draw shift @op's range in a file of @size bytes; false if the file admits none. */
bool fsops_draw_shift(struct fsops_model *m, struct fsops_op *op, uint64_t size);

#endif
