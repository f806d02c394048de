// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fsops checker's copies: what issued copies may have carried from one inode into
 * another, for the tracks (track.c) and a directory fsync's entries (promise.c): whose
 * writes a file may hold, and whose bytes a word under a later copy may be.
 */
#include "scenarios/fsops/checker.h"
#include "scenarios/fsops/track.h"

bool track_copies_carry(const struct checker *c, uint64_t ino, const struct fsops_op *w,
			uint64_t before, int depth)
{
	const struct oplist *l = &future_of(c, ino)->changes;

	for (size_t j = 0; j < l->n && l->v[j]->id < before; j++) {
		const struct fsops_op *m = l->v[j];

		if (!fsops_is_copy(m->type) || m->id < w->id)
			continue;
		if (m->victim == w->ino || depth == 0 ||
		    track_copies_carry(c, m->victim, w, m->id, depth - 1))
			return true;
	}
	return false;
}

bool track_byte_written(const struct checker *c, uint64_t ino, uint64_t pos, uint8_t b,
			uint64_t before, bool shifts)
{
	const struct oplist *l = &future_of(c, ino)->changes;
	const int64_t blk = FSOPS_BLOCK, lim = shifts ? FSOPS_MAX_SIZE / FSOPS_BLOCK : 0;

	for (size_t j = 0; j < l->n && l->v[j]->id < before; j++) {
		const struct fsops_op *m = l->v[j];

		for (int64_t k = -lim; k <= lim && fsops_is_data(m->type); k++) {
			int64_t at = (int64_t) pos + k * blk;
			uint8_t d;

			if (at < (int64_t) m->off || at >= (int64_t) (m->off + m->len))
				continue;
			fsops_fill(c->p->seed, m->id, (uint64_t) at, &d, 1);
			if (d == b)
				return true;
		}
	}
	return false;
}

bool track_foreign_ok(const struct checker *c, uint64_t ino, const struct obs_file *o)
{
	if (!o->owner || o->owner == ino)
		return true;
	for (uint32_t i = 0; i < o->nruns; i++) {
		uint32_t v = o->runs[i].value;
		const struct fsops_op *w = v && !(v & WORD_ODD) ? c->by_id[word_id(v)] : NULL;

		if (w && w->ino != ino && !track_copies_carry(c, ino, w, UINT64_MAX, 4))
			return false;
	}
	return true;
}
