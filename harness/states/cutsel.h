/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cutsel.h — choose the cut points of a log to check, by policy:
 *
 *   flush      after every FLUSH entry
 *   flush/N    after N of the FLUSH entries, evenly spread (all of them if fewer)
 *   fua        after every FUA entry
 *   mark       after every MARK entry
 *   ack        after every MARK entry of an acknowledgement ("ack:ID"): the persistence points
 *   every:N    after every N-th entry
 *   all        after every entry
 *   entry:A-B  after each entry from A to B
 *   end        none but the end of the log (the run as it ended)
 *
 * Policies combine with commas ("flush,mark"). Cuts before the first entry of interest (the
 * "mkfs" mark of a recorded run: before it there is no filesystem to check) are left out, and
 * the end of the log is always a cut: the state the workload left must be consistent too.
 * A cut is the number of entries applied; the list is sorted and without repeats.
 */
#ifndef BO_CUTSEL_H
#define BO_CUTSEL_H

#include <stddef.h>
#include <stdint.h>

#include "harness/log/log.h"

struct bo_cuts {
	uint64_t *v; /* entries applied, ascending */
	size_t n;
};

/* Check the syntax of @policy without a log; for scenario validation. */
_must_check_ int bo_cutsel_validate(const char *policy, struct bo_err *err);

/*
 * Select the cuts of @log under @policy, from @first applied entries on (0: all of them).
 * Returns -EINVAL for a bad policy; an empty selection is not an error here (the caller's
 * vacuous-pass guard decides).
 */
_must_check_ int bo_cutsel_select(const struct bo_log *log, const char *policy, uint64_t first,
				  struct bo_cuts *ret, struct bo_err *err);

/*
 * Judge @policy against @log before any cut is selected: an entry:A-B term must name entries
 * the log has (A, and B unless the range is open, below its entry count), for one past its
 * end was meant for another log. -ERANGE with @err saying the log's entries; -EINVAL for a
 * bad policy.
 */
_must_check_ int bo_cutsel_judge(const struct bo_log *log, const char *policy, struct bo_err *err);

void bo_cuts_clear(struct bo_cuts *cuts);

#endif
