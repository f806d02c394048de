/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * logwrites.h — the dm-log-writes target (drivers/md/dm-log-writes.c, version 1.1.0): table,
 * mark message and status.
 *
 *   table    0 <sectors> log-writes <dev> <logdev>
 *   message  mark <name>
 *   status   <logged_entries> <highest_sector>[ logging_disabled]
 *
 * logging_disabled appears once the target stopped logging for good (log device full, a log
 * write error, an allocation failure): every write after that is missing from the log, so a
 * run that sees it must fail instead of checking crash states built from an incomplete log.
 */
#ifndef BO_LOGWRITES_H
#define BO_LOGWRITES_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/base/util.h"

/* What log_writes_status() reports (STATUSTYPE_INFO). */
struct bo_lw_status {
	/* Entries written to the log so far (lc->logged_entries). */
	uint64_t logged_entries;
	/* The last 512-byte sector of the log device in use (lc->next_sector - 1). */
	uint64_t highest_sector;
	/* The target stopped logging: the log is incomplete. */
	bool logging_disabled;
};

/*
 * Build "0 @sectors log-writes @dev @logdev" into a new string *@ret (free()). Device paths
 * must be non-empty and free of whitespace; @sectors must be > 0.
 */
_must_check_ int bo_lw_table(uint64_t sectors, const char *dev, const char *logdev, char **ret,
			     struct bo_err *err);

/*
 * Check that @mark can be a mark name on a log whose data device has logical block size
 * @sectorsize: 1..@sectorsize - 33 bytes (log_mark() silently cuts longer names), printable,
 * no whitespace (the message is split on it) and no backslash (dm_split_args() treats it as an
 * escape). -EINVAL with @err saying which rule @mark breaks.
 */
_must_check_ int bo_lw_mark_check(const char *mark, unsigned sectorsize, struct bo_err *err);

/* Insert mark @mark into the log of log-writes device @name (checked first, as above). */
_must_check_ int bo_lw_mark(const char *name, const char *mark, unsigned sectorsize,
			    struct bo_err *err);

/* Parse a log-writes status string. -EPROTO with @err quoting @params when it is malformed. */
_must_check_ int bo_lw_status_parse(const char *params, struct bo_lw_status *ret,
				    struct bo_err *err);

/*
 * Read and parse the status of log-writes device @name. Returns -EPROTO if @name is not a
 * single log-writes target.
 */
_must_check_ int bo_lw_status(const char *name, struct bo_lw_status *ret, struct bo_err *err);

/*
 * Fail (-EIO) when @st says logging was disabled, with a message naming @name: the log is
 * incomplete and no crash state built from it may be counted.
 */
_must_check_ int bo_lw_status_check(const char *name, const struct bo_lw_status *st,
				    struct bo_err *err);

#endif
