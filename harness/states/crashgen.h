/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crashgen.h — enumerate the crash states of a log beyond its prefixes (docs/crash-states.md).
 *
 * dm-log-writes logs writes in completion order, and plain writes only once a later flush
 * reaches the device; FUA writes are logged as they complete (drivers/md/dm-log-writes.c,
 * Documentation/admin-guide/device-mapper/log-writes.rst). At a FLUSH entry everything before
 * it is durable. Between two flushes (an epoch) a device with a volatile write cache may
 * persist any subset of the epoch's plain writes and discards, and a multi-block write may be
 * torn at block granularity. A crash state is therefore a prefix cut, a set of dropped
 * entries of the cut's epoch, or one torn entry of it. In a log of several devices
 * (harness/log/layout.h) each device has epochs of its own: a FLUSH closes the epoch of the
 * device it went to (of every device when it went to none), and an entry stays droppable
 * until a FLUSH of its own device.
 *
 * A device persona (docs/crash-states.md, "Device personas") changes the rules for a disk that
 * does not keep the promises above: one that ignores FLUSH (an entry stays droppable across
 * it), ignores FUA (a FUA write is cached like a plain one), loses the last FLUSH before the
 * cut (an entry stays droppable until the second FLUSH of its device), or writes atomically in
 * units other than the log's block (4 KiB, 512 bytes: torn at those boundaries): persona.h.
 *
 * The generator streams: it keeps the current epoch's droppable entries and, when sampling,
 * at most `budget` subset ranks; never all the states of a log.
 */
#ifndef BO_CRASHGEN_H
#define BO_CRASHGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/states/cutsel.h"
#include "harness/states/persona.h"
#include "harness/log/log.h"

/* Most entries one crash state drops; bounds reorder:K. */
#define BO_CRASH_MAX_DROP 8
/* Room for any canonical id: "c" + 20 digits + "-d" + 8 * (20 digits + ",") + NUL. */
#define BO_CRASH_ID_MAX 256

struct bo_crash_state {
	uint64_t cut;	      /* entries applied in the prefix sense, as in cutsel.h */
	uint64_t epoch_start; /* first entry of the cut's epoch: all before it is durable */
	uint64_t dropped[BO_CRASH_MAX_DROP]; /* entries of [epoch_start, cut) left out, ascending */
	unsigned n_dropped;
	bool torn;	     /* torn_entry reached the disk only in part; nothing is dropped */
	uint64_t torn_entry; /* an entry of [epoch_start, cut) with nr_sectors >= 2 */
	uint64_t torn_keep;  /* its first blocks that reached the disk, 1..nr_sectors-1 */
	bool torn_bytes;     /* torn_keep counts bytes, a multiple of 512 (atomic-512 on a log of
			      * larger blocks: torn inside a block) */
};

struct bo_crashgen_opts {
	unsigned reorder_k; /* drop subsets of 0..K entries per cut, K <= BO_CRASH_MAX_DROP */
	bool torn;	    /* one torn state per droppable multi-block entry per cut */
	uint64_t seed;	    /* drives sampling and torn sizes */
	uint64_t budget;    /* most non-empty dropped sets per cut, sampled above it; 0: no limit */
	enum bo_persona persona;
	uint64_t floor; /* ignores-flush: the entries before it stay durable (the first cut, after
			 * blackout's own mkfs) */
};

struct bo_crashgen;

/*
 * True when entry @e may be lost by a crash before the next flush: it carries blocks (a write
 * or a discard, not a mark) and is neither FUA (durable on completion) nor FLUSH-flagged (it
 * ends the epoch). Under ignores-fua a FUA write is droppable too, a FLUSH-flagged one as
 * well (its flush still covers what came before it). @o NULL: honest.
 */
bool bo_crash_droppable(const struct bo_crashgen_opts *o, const struct bo_log_entry *e);

/*
 * The first entry of the epoch of the cut after @cut applied entries: the entry after the last
 * FLUSH-flagged entry before the cut, or 0; on several devices, the first entry still
 * droppable when that comes earlier. Everything before it is durable: a caller rebuilds any
 * state of the cut from the prefix state of this many entries. Under lost-flush the epoch
 * reaches back to the second last FLUSH, under ignores-flush to @o->floor. @o NULL: honest.
 */
uint64_t bo_crash_epoch_start(const struct bo_log *log, const struct bo_crashgen_opts *o,
			      uint64_t cut);

/* The bytes of torn entry @s->torn_entry that reach the disk in state @s. */
uint64_t bo_crash_torn_bytes(const struct bo_log *log, const struct bo_crash_state *s);

/*
 * Format the canonical id of @s into @buf: "c1234" (cut after entry 1234), "c1234-d5,9"
 * (entries 5 and 9 dropped), "c1234-t7:3" (entry 7 torn, 3 blocks kept), "c1234-t7:1536B"
 * (1536 bytes kept: atomic-512 on larger blocks); "c-start" for the cut before any entry.
 * @len of BO_CRASH_ID_MAX always suffices.
 */
void bo_crash_state_id(const struct bo_crash_state *s, char *buf, size_t len);

/*
 * Parse the canonical id @id and check it against @log under the persona of @o (NULL:
 * honest): the cut within the log, dropped entries ascending without repeats and droppable in
 * the cut's epoch, a torn entry droppable and a keep at one of its tear points. Returns -EINVAL (-ERANGE for a cut past
 * the log) with @err naming the id and the problem. *@ret is written only on success.
 */
_must_check_ int bo_crash_state_parse(const struct bo_log *log, const struct bo_crashgen_opts *o,
				      const char *id, struct bo_crash_state *ret,
				      struct bo_err *err);

/*
 * Create a generator of the crash states of @log at the cuts @cuts (ascending, each at most
 * the log's entry count) under @o. @log and @cuts must outlive it. Counts the states with one
 * pass over the log's index; -EOVERFLOW when a cut's subsets cannot be counted (give a budget
 * or a smaller K), -EINVAL for bad options or cuts. *@ret is written only on success.
 */
_must_check_ int bo_crashgen_new(const struct bo_log *log, const struct bo_cuts *cuts,
				 const struct bo_crashgen_opts *o, struct bo_crashgen **ret,
				 struct bo_err *err);

/*
 * Write the next state into *@ret. Returns 1 for a state, 0 when done, -ENOMEM. Per cut: the
 * prefix state, then dropped sets by size and lexicographically by entry numbers, then torn
 * states in entry order.
 */
_must_check_ int bo_crashgen_next(struct bo_crashgen *g, struct bo_crash_state *ret);

/* The number of states the generator produces in all, computed without enumerating them. */
uint64_t bo_crashgen_count(const struct bo_crashgen *g);

/* Release a generator; NULL is fine. */
void bo_crashgen_free(struct bo_crashgen *g);

#endif
