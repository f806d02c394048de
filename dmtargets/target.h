/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * target.h — helpers shared by the table builders of dmtargets/ (private to dmtargets/).
 */
#ifndef BO_DM_TARGET_H
#define BO_DM_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/base/util.h"

/*
 * Check that @dev (described as @what in messages, e.g. "log device") can stand in a table:
 * non-empty and free of whitespace, since the kernel splits table lines on whitespace.
 */
_must_check_ int bo_target_check_dev(const char *target, const char *what, const char *dev,
				     struct bo_err *err);

/* asprintf() into *@ret, reporting failure as -ENOMEM in @err on behalf of @target. */
_must_check_ int bo_target_format(char **ret, struct bo_err *err, const char *target,
				  const char *fmt, ...) _printf_(4, 5);

/*
 * Copy the next whitespace-separated word at *@p into @buf (@len bytes) and advance *@p past
 * it. False, with *@p unchanged, when there is no word or it does not fit.
 */
bool bo_target_next_word(const char **p, char *buf, size_t len);

/* Parse the next word at *@p as an unsigned number into @ret, advancing *@p; like above. */
bool bo_target_next_u64(const char **p, uint64_t *ret);

/* Whether only whitespace is left at @p. */
bool bo_target_at_end(const char *p);

#endif
