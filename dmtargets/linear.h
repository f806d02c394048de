/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * linear.h — the dm-linear target (drivers/md/dm-linear.c).
 *
 *   table   0 <sectors> linear <dev> <offset>
 *
 * linear reports no status (STATUSTYPE_INFO is empty), so there is nothing to parse.
 */
#ifndef BO_LINEAR_H
#define BO_LINEAR_H

#include <stdint.h>

#include "harness/base/util.h"

/* Build "0 @sectors linear @dev @offset" into *@ret (free()); @sectors must be > 0. */
_must_check_ int bo_linear_table(uint64_t sectors, const char *dev, uint64_t offset, char **ret,
				 struct bo_err *err);

#endif
