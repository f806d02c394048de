/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * persona.h — device personas: what a disk under the stack keeps of its promises, as rules of
 * the crash-state model (docs/crash-states.md, "Device personas"). An honest disk persists what
 * a FLUSH covers and what a FUA write carries and writes a block atomically; the others ignore
 * FLUSH, ignore FUA, lose the last FLUSH before a crash, or tear writes at other units.
 * crashgen.h draws the states of a log under one of them.
 */
#ifndef BO_PERSONA_H
#define BO_PERSONA_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"
#include "harness/log/log.h"

enum bo_persona {
	BO_PERSONA_HONEST,	  /* FLUSH and FUA kept, writes torn at the log's block */
	BO_PERSONA_IGNORES_FLUSH, /* a FLUSH persists nothing: writes reorder across it */
	BO_PERSONA_IGNORES_FUA,	  /* a FUA write stays in the cache until the next FLUSH */
	BO_PERSONA_ATOMIC_4K,	  /* writes tear only at 4 KiB boundaries of the device */
	BO_PERSONA_ATOMIC_512,	  /* writes tear at any 512-byte sector, inside a block too */
	BO_PERSONA_LOST_FLUSH,	  /* the last FLUSH before the cut did not persist its epoch */
	BO_PERSONA_COUNT,
};

#define BO_PERSONA_NAMES "honest, ignores-flush, ignores-fua, atomic-4k, atomic-512, lost-flush"

/* "honest", "ignores-flush", ...; NULL past the end. */
const char *bo_persona_name(enum bo_persona p);

/* The persona named @name; -EINVAL when there is none. */
_must_check_ int bo_persona_parse(const char *name, enum bo_persona *ret);

/*
 * What a persona asks for. Unless the user chose the states (@chosen: --reorder or --torn):
 * one dropped write per state for the FLUSH and FUA personas, torn writes for the atomic ones.
 * And a budget of 16 dropped sets per cut when there is none, for the FLUSH and FUA personas,
 * whose epochs can span a whole log. Nothing for honest.
 */
void bo_persona_defaults(enum bo_persona p, bool chosen, unsigned *reorder_k, bool *torn,
			 uint64_t *budget);

/* How many FLUSHes of its device make an entry durable: 1, 2 under lost-flush, 0 (none ever
 * does) under ignores-flush. */
unsigned bo_persona_flush_depth(enum bo_persona p);

/*
 * True when entry @e may be lost by a crash before the next flush: it carries blocks (a write
 * or a discard, not a mark) and is neither FUA (durable on completion) nor FLUSH-flagged (it
 * ends the epoch). Under ignores-fua a FUA write is droppable too, a FLUSH-flagged one as
 * well (its flush still covers what came before it).
 */
bool bo_persona_droppable(enum bo_persona p, const struct bo_log_entry *e);

/*
 * The tear points of entry @e on a log of @ss-byte blocks: how many there are, and the @i-th in
 * *@ret_keep (blocks, or bytes when *@ret_bytes), ascending. Honest: after any of its blocks
 * but the last; atomic-4k: at the 4 KiB boundaries of the device inside it; atomic-512 on
 * blocks above 512 bytes: after any of its 512-byte sectors but the last.
 */
uint64_t bo_persona_tear_point(enum bo_persona p, uint64_t ss, const struct bo_log_entry *e,
			       uint64_t i, uint64_t *ret_keep, bool *ret_bytes);

#endif
