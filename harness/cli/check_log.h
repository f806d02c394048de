/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_log.h — the log a `blackout check` puts in its results directory: placed (linked or
 * copied), identified by its sha256, and indexed once on the host for the guests.
 */
#ifndef BO_CHECK_LOG_H
#define BO_CHECK_LOG_H

#include <stdbool.h>

#include "harness/base/util.h"
#include "harness/base/sha256.h"

/*
 * Put the log @src at @dst in the results, with its sha256 in @hex. A read-only log is hard
 * linked and its sha256 taken from the cache when it was hashed before; any other log is
 * copied, hashed on the way.
 */
_must_check_ int bo_check_place_log(const char *src, const char *dst, char hex[BO_SHA256_HEX],
				    struct bo_err *err);

/* Index results directory @dir's write.log into BO_LOG_INDEX_NAME; false when it does not
 * index (the guest then meets the same error and records it). */
bool bo_check_save_log_index(const char *dir);

/* Remove BO_LOG_INDEX_NAME from results directory @dir, once nothing reads it. */
void bo_check_remove_log_index(const char *dir);

#endif
