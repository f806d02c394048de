/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log_writer.h — write logs in the dm-log-writes format (see log.h). Tests, benchmarks and
 * tools that synthesise logs use it; the reader is its round-trip check.
 */
#ifndef BO_LOG_WRITER_H
#define BO_LOG_WRITER_H

#include <stdint.h>

#include "harness/base/util.h"

struct bo_log_writer;

/* Create (truncate) @path and start a log whose blocks are @sectorsize bytes. */
_must_check_ int bo_log_writer_new(const char *path, uint32_t sectorsize,
				   struct bo_log_writer **ret, struct bo_err *err);

/*
 * Append an entry. @data holds nr_sectors * sectorsize bytes unless @flags has DISCARD, or
 * nr_sectors is 0 (a pure flush). Returns the entry's number or -errno.
 */
int64_t bo_log_writer_add(struct bo_log_writer *w, uint64_t sector, uint64_t nr_sectors,
			  uint32_t flags, const void *data, struct bo_err *err);

/* Append a mark named @name (at most sectorsize - 33 bytes). Returns its entry number. */
int64_t bo_log_writer_mark(struct bo_log_writer *w, const char *name, struct bo_err *err);

/* Entries written so far. */
uint64_t bo_log_writer_count(const struct bo_log_writer *w);

/*
 * Make the super block state @n entries instead of the true count, as the kernel does
 * between two super updates; for tests of salvage.
 */
void bo_log_writer_set_super_entries(struct bo_log_writer *w, uint64_t n);

/* Write the super block, close the file and free @w (also on failure). */
_must_check_ int bo_log_writer_close(struct bo_log_writer *w, struct bo_err *err);

/* Free @w without finishing the log; NULL is fine. */
void bo_log_writer_free(struct bo_log_writer *w);

#endif
