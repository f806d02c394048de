/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * track.h — the fsops checker's tracks (track.c): what a file may hold of an inode, kept true
 * as the replay goes, and whether a name holds the inode as a sync op promised. What the
 * checker's judging calls; the state they work on is checker.h's. Internal to the fsops
 * program.
 */
#ifndef BO_FSOPS_TRACK_H
#define BO_FSOPS_TRACK_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/fsops/checker.h"
#include "scenarios/fsops/fsops.h"

/*
 * Inode @in is new (its create op was replayed): start a track for every name it will have
 * that holds a readable file, and count for each byte of its odd words the later issued
 * writes that explain it. The inode's content is followed as far as a track looks.
 */
int tracks_start(struct checker *c, const struct fsops_inode *in);

/*
 * Whether inode @ino holds what write @w (of another inode) put there by copies issued after
 * it, before @before: an issued copy into @ino from @w's inode, or from an inode that held it
 * so before that copy. @depth bounds the chains followed: past it, a chain is taken to carry
 * the write (the reading that invents no failure).
 */
bool track_copies_carry(const struct checker *c, uint64_t ino, const struct fsops_op *w,
			uint64_t before, int depth);

/*
 * Whether byte @b at @pos of a file could be one write of inode @ino put there, issued before
 * @before, with @shifts where collapses and inserts may have moved it by whole blocks.
 */
bool track_byte_written(const struct checker *c, uint64_t ino, uint64_t pos, uint8_t b,
			uint64_t before, bool shifts);

/*
 * Whether file @o may be inode @ino's for the writes of other inodes it holds: each such
 * write's whole words came by issued copies into @ino, issued after the write, from its inode
 * (or by a chain of them, each issued after the one before, through other inodes).
 */
bool track_foreign_ok(const struct checker *c, uint64_t ino, const struct obs_file *o);

/* Drop the tracks of @f, whose inode lost its last name. */
void tracks_free(struct future *f);

/*
 * Data op, truncate or fallocate @op on inode @in is being replayed (call before the model
 * applies it): keep the tracks of @in true. Only the words it changes (and, for a truncate,
 * those between the old and the new smallest later cut) are judged again, and an issued write
 * no longer explains what it wrote, nor an issued punch or zero the zeros it made. Returns 0
 * or -ENOMEM.
 */
int tracks_replay(struct checker *c, const struct fsops_op *op, const struct fsops_inode *in);

/*
 * Whether name @s can hold inode @in as it was at the op being judged, changed by any subset
 * of the later issued ops on it: each byte holds its value then, or what a later write put
 * there, or zero where a later truncate cut; the size lies between the smallest and the
 * largest it had. O(1): the tracks count the bytes nothing explains as the replay goes.
 */
bool track_acceptable(const struct checker *c, const struct fsops_inode *in, int s);

/*
 * As track_acceptable(), for a promise about bytes [@from, @to) only (a range sync: RWF_DSYNC,
 * O_SYNC, msync): those words are explained, and the size reaches the range's end (or the
 * smallest size a later op leaves) and is no larger than the largest. O(the range's words)
 * when the file holds a word nothing explains, else O(1).
 */
bool track_range_ok(const struct checker *c, const struct fsops_inode *in, int s, uint64_t from,
		    uint64_t to);

#endif
