/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * logtail.h — follow a dm-log-writes log while the kernel is still writing it.
 *
 * During a recording, the log device's backing file grows entry by entry, but its super block
 * is only rewritten after FUA and MARK entries. A tail reader walks headers from where it
 * stopped last time and stops at the first block that is not (yet) a valid header: the kernel
 * writes headers in order into a file that was all zeroes. It is how the control channel
 * learns the entry number of a mark it asked for.
 */
#ifndef BO_LOGTAIL_H
#define BO_LOGTAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

struct bo_logtail;

/* Follow the log file at @path, whose blocks are @sectorsize bytes. */
_must_check_ int bo_logtail_open(const char *path, uint32_t sectorsize, struct bo_logtail **ret,
				 struct bo_err *err);
void bo_logtail_free(struct bo_logtail *t);

/* Blocks @count blocks from @sector on (in the log's block size) written or discarded. */
struct bo_logtail_range {
	uint64_t sector, count;
};

/*
 * From now on (@on), note the blocks of every write and discard entry read, forgetting those
 * noted before; or stop (!@on). How a fresh filesystem learns what its workload changed.
 */
void bo_logtail_track(struct bo_logtail *t, bool on);

/* The blocks noted since tracking began, in log order (adjacent ones joined). */
const struct bo_logtail_range *bo_logtail_written(const struct bo_logtail *t, size_t *ret_n);

/* Entries seen so far. */
uint64_t bo_logtail_count(const struct bo_logtail *t);

/*
 * Read the headers written since the last call. For each mark, call @fn (if not NULL) with
 * its entry number and name; a negative return from @fn stops the scan and is returned.
 */
_must_check_ int bo_logtail_scan(struct bo_logtail *t,
				 int (*fn)(void *ctx, uint64_t entry, const char *name), void *ctx,
				 struct bo_err *err);

/*
 * Scan until the mark named @name appears and return its entry number; -ETIMEDOUT after
 * @timeout_ms. Marks are unique within a run; only marks after the current position count.
 */
_must_check_ int bo_logtail_wait_mark(struct bo_logtail *t, const char *name, unsigned timeout_ms,
				      uint64_t *ret_entry, struct bo_err *err);

#endif
