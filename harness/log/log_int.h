// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log_int.h — the log's index as log.c builds it from the headers and log_index.c from a
 * saved index. Internal to the log reader.
 */
#ifndef BO_LOG_INT_H
#define BO_LOG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "harness/log/layout.h"
#include "harness/log/log.h"

struct bo_log {
	char *path;
	int fd;
	uint32_t sectorsize;
	uint64_t size;		/* bytes in the file or device */
	uint64_t super_entries; /* nr_entries as the super states it */
	uint64_t end;		/* offset just past the last indexed entry */
	char *salvage_note;	/* where and why a salvage stopped early; NULL: at the log's end */

	struct bo_log_entry *entries;
	uint64_t n_entries, cap_entries;

	struct bo_log_mark *marks;
	size_t n_marks, cap_marks;
	size_t *by_name; /* mark indices sorted by name, for lookups */

	struct bo_layout layout; /* from its layout mark; n == 0: one device */
};

/* Allocate a log for @path and read its super block: from a copy of the open @fd, or with @fd
 * < 0 from @path, opened by the rule of harness/base/input.h. */
int log_open_super(int fd, const char *path, struct bo_log **ret, struct bo_err *err);

/* Append entry @e; -ENOMEM. */
int log_add_entry(struct bo_log *log, const struct bo_log_entry *e);

/* Append mark @name (@len bytes) of entry @entry; -ENOMEM. */
int log_add_mark(struct bo_log *log, uint64_t entry, const char *name, size_t len);

/* Once the marks are indexed: sort them by name for lookups, and read the layout mark. */
int log_index_marks(struct bo_log *log, struct bo_err *err);

#endif
