/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inspect.h — what a log holds: entry counts per flag, bytes, marks, epochs between flushes
 * and the sector range touched. Computed from the index alone (no data is read).
 */
#ifndef BO_INSPECT_H
#define BO_INSPECT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/log/log.h"

/* Writes between two FLUSH entries; the closing FLUSH entry belongs to the epoch. */
struct bo_epoch {
	uint64_t first, last; /* entry numbers, inclusive */
	uint64_t writes;      /* entries carrying data */
	uint64_t bytes;
	bool flushed; /* closed by a FLUSH entry (false only for the log's tail) */
};

struct bo_log_stats {
	uint64_t entries;
	uint64_t writes, flush, fua, discard, mark, metadata;
	uint64_t bytes_written, bytes_discarded;
	bool touched;			 /* any write or discard */
	uint64_t sector_min, sector_end; /* blocks [min, end) touched */
	struct bo_epoch *epochs;
	uint64_t n_epochs;
};

/* Compute @stats of @log. Free with bo_log_stats_clear(). */
_must_check_ int bo_log_stats_compute(const struct bo_log *log, struct bo_log_stats *stats,
				      struct bo_err *err);
void bo_log_stats_clear(struct bo_log_stats *stats);

/*
 * Describe @log as a JSON object: the stats, the marks, the epochs and, when @first <= @last,
 * the entries first..last one by one. Returns NULL on allocation failure.
 */
struct json_object *bo_log_stats_json(const struct bo_log *log, const struct bo_log_stats *stats,
				      uint64_t first, uint64_t last);

/* One entry as a JSON object. */
struct json_object *bo_log_entry_json(const struct bo_log *log, uint64_t n);

#endif
