/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cut.h — name a point in a log. A cut is where the power went: the entries before it reached
 * the disk, the ones after it did not. Cuts are given as
 *
 *   start        before entry 0 (nothing applied)
 *   entry:N      after entry N
 *   mark:NAME    after the mark entry NAME (an error if NAME is not in the log exactly once)
 *   flush:K      after the K-th FLUSH entry (1-based)
 *   fua:K        after the K-th FUA entry (1-based)
 *   end          after the last entry
 *
 * and resolve to the number of entries applied, 0..count.
 */
#ifndef BO_CUT_H
#define BO_CUT_H

#include <stdint.h>

#include "harness/log/log.h"

/*
 * Resolve @spec against @log into the number of entries the cut applies. Fails with a
 * message in @err for a malformed spec (EINVAL; EOVERFLOW for a number past 2^64-1), a
 * missing or repeated mark, or a count past the end (ERANGE).
 */
_must_check_ int bo_cut_resolve(const struct bo_log *log, const char *spec, uint64_t *ret_applied,
				struct bo_err *err);

#endif
