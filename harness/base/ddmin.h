/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ddmin.h — delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
 * Failure-Inducing Input", TSE 2002): shrink a list of ids to a 1-minimal one for which a
 * test still fails: op ids (blackout shrink), log entries (a crash state's witness).
 */
#ifndef BO_DDMIN_H
#define BO_DDMIN_H

#include <stddef.h>
#include <stdint.h>

#include "harness/base/macro.h"

/*
 * The test of a candidate: 1 when @ids (ascending, @n of them) still fail, 0 when not, -errno
 * when it could not be run (which stops the search).
 */
typedef int (*bo_ddmin_test_fn)(const uint64_t *ids, size_t n, void *ctx);

/*
 * Shrink @ids (ascending, @n of them; the caller knows they fail) to a subset that fails
 * and from which no single op can be removed without passing (1-minimal), testing at most
 * @max_tests candidates (0: no limit; at the limit the smallest failing set so far is
 * returned). The result goes to a new array *@ret of *@ret_n ids; *@ret_tests counts the
 * tests run (may be NULL). Returns 0, -ENOMEM, or the test's error.
 */
_must_check_ int bo_ddmin(const uint64_t *ids, size_t n, bo_ddmin_test_fn test, void *ctx,
			  unsigned max_tests, uint64_t **ret, size_t *ret_n, unsigned *ret_tests);

#endif
