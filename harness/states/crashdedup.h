/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashdedup.h — find the generated crash states that coincide with one checked before.
 *
 * Two states of one epoch are built on the same base (the disk at the epoch's start) and differ
 * only in the blocks the epoch's kept entries leave behind. When every block ends up with the
 * same contents and the same application operations were issued and acknowledged before both
 * cuts, they are the same state: checking the second tells nothing new. That happens when a
 * dropped write is fully overwritten later in the epoch by a kept one, when a torn write's lost
 * blocks are overwritten, or when two subsets write the same data (a block rewritten with what
 * it held).
 *
 * The decision depends only on the log and the order of the states, never on which shard checks
 * them, so every shard finds the same representatives. Block contents are compared by a 128-bit
 * hash of their data; a discarded block reads as zeros, as replay leaves it.
 */
#ifndef BO_CRASHDEDUP_H
#define BO_CRASHDEDUP_H

#include <stddef.h>
#include <stdint.h>

#include "harness/states/crashgen.h"
#include "harness/log/log.h"

struct bo_crashdedup;

/* A de-duplicator over @log, which must outlive it. */
_must_check_ int bo_crashdedup_new(const struct bo_log *log, struct bo_crashdedup **ret,
				   struct bo_err *err);

/*
 * Look state @s (id @id) up among the states seen before it. Returns 1 and the index of the
 * first state that coincides with it in *@ret_rep when there is one (an alias), 0 and its own
 * new index when it is new (a representative), -errno on failure (reading the log, memory).
 * States must come in generator order: a new epoch forgets the states of the one before.
 */
_must_check_ int bo_crashdedup_add(struct bo_crashdedup *d, const struct bo_crash_state *s,
				   const char *id, size_t *ret_rep, struct bo_err *err);

/* The id of representative @rep, and a value the caller attaches to it (e.g. its class). */
const char *bo_crashdedup_id(const struct bo_crashdedup *d, size_t rep);
void bo_crashdedup_set_tag(struct bo_crashdedup *d, size_t rep, int tag);
_must_check_ int bo_crashdedup_tag(const struct bo_crashdedup *d, size_t rep);

void bo_crashdedup_free(struct bo_crashdedup *d);

#endif
