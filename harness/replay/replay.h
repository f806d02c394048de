/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.h — apply the entries of a log to a target (a regular file or a block device).
 *
 * A replay remembers how many entries the target holds, so it rolls forward: replay to cut A,
 * check, then continue from A to B without starting over. Writes go to sector * sectorsize
 * with pwrite. A DISCARD is written as zeroes (BLKZEROOUT on a device, a punched hole on a
 * file), because a discard is not guaranteed to read back as zeroes and the replayed image
 * must be the same on every machine.
 */
#ifndef BO_REPLAY_H
#define BO_REPLAY_H

#include <stdint.h>

#include "harness/log/log.h"

struct bo_replay;

enum bo_replay_flags {
	/* Create the target file if it does not exist. */
	BO_REPLAY_CREATE = 1u << 0,
	/* Copy data through a user-space buffer even where copy_file_range() would work. */
	BO_REPLAY_BUFFERED = 1u << 1,
	/*
	 * Map the whole log and write the target straight from the mapping: one copy of each
	 * byte instead of a read into a buffer and a write out of it. For a log on a local
	 * filesystem (the host's), not on 9p; where the log cannot be mapped, the replay reads
	 * it as without the flag.
	 */
	BO_REPLAY_MAP_LOG = 1u << 2,
	/*
	 * The target is a block device of blackout's that its own devices are built on (the
	 * devices of a state carved out of its snapshot, harness/log/layout.h), idle while it is
	 * written: opened without O_EXCL, which their hold on it would refuse.
	 */
	BO_REPLAY_HELD = 1u << 3,
};

/*
 * Start replaying @log onto @target. The target is assumed to hold the state "start"
 * (nothing applied) until bo_replay_set_position() says otherwise. A regular file target
 * smaller than @min_size bytes is extended to it (0: leave the size alone).
 */
_must_check_ int bo_replay_new(const struct bo_log *log, const char *target, unsigned flags,
			       uint64_t min_size, struct bo_replay **ret, struct bo_err *err);

/*
 * The same onto the target open at @fd (read-write), @target naming it in messages: for a
 * caller that opened it itself (replay --onto: never through a symlink). The checks are made
 * on the descriptor; @fd is the replay's from here on, closed by bo_replay_free() or on
 * failure.
 */
_must_check_ int bo_replay_new_fd(const struct bo_log *log, int fd, const char *target,
				  unsigned flags, uint64_t min_size, struct bo_replay **ret,
				  struct bo_err *err);

/* Free a replay and close its target; NULL is fine. Does not sync: see bo_replay_sync(). */
void bo_replay_free(struct bo_replay *r);

/* Declare that the target already holds the first @applied entries. */
_must_check_ int bo_replay_set_position(struct bo_replay *r, uint64_t applied, struct bo_err *err);

/* Entries the target holds. */
uint64_t bo_replay_position(const struct bo_replay *r);

/*
 * Roll forward until the target holds the first @applied entries. Going backwards is an error
 * (-ERANGE): a replay can only add writes. On a block device the writes are made durable
 * (fdatasync) before returning, so a device stacked on it sees them.
 */
_must_check_ int bo_replay_to(struct bo_replay *r, uint64_t applied, struct bo_err *err);

/*
 * Apply entry @n alone, whatever the position, writing only its blocks
 * [@first, @first + @count) relative to the entry's start (@count UINT64_MAX: to its end).
 * The position is not changed. Used to build reordered and torn crash states.
 */
_must_check_ int bo_replay_apply(struct bo_replay *r, uint64_t n, uint64_t first, uint64_t count,
				 struct bo_err *err);

/*
 * Apply the first @bytes of entry @n alone (a multiple of 512; past its end: all of it): its
 * whole blocks, then the head of the next one over what the target holds there. A write torn
 * inside a block, as a disk with 512-byte atomic writes under 4 KiB blocks leaves it.
 */
_must_check_ int bo_replay_apply_head(struct bo_replay *r, uint64_t n, uint64_t bytes,
				      struct bo_err *err);

/*
 * Start reading, in a background thread, the log data the replay will need next on its way
 * to @applied entries (up to 8 MiB of it), and return at once. A later bo_replay_to() takes
 * the data from there instead of reading it then: the read overlaps whatever the caller does
 * meanwhile (mounting and checking a crash state). Nothing happens when a read-ahead is
 * running or already holds that data; a read that fails is done again, and reported, by
 * bo_replay_to(). The log must not change while a replay is open (it never does: it is
 * indexed once).
 */
void bo_replay_prefetch(struct bo_replay *r, uint64_t applied);
/* Make the target durable (fdatasync). */
_must_check_ int bo_replay_sync(struct bo_replay *r, struct bo_err *err);

/* Bytes of data written to the target so far. */
uint64_t bo_replay_bytes(const struct bo_replay *r);

#endif
