/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * strmap.h — strings to numbers, found in constant time: what a comparison of many entries by
 * their text (the findings of a baseline, the failures of a nightly) looks its keys up in,
 * instead of a walk of every entry for each (80,000 findings: 3.2 billion string compares).
 *
 * The keys are borrowed: each stays the caller's, unchanged, for as long as the map is used.
 */
#ifndef BO_STRMAP_H
#define BO_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/base/macro.h"

struct bo_strmap {
	const char **keys; /* open addressing, linear probing; NULL: a free slot */
	size_t *values;
	size_t n, cap; /* cap: a power of two, or 0 */
};

/*
 * Map @key to @value unless it is mapped already: 1 when added, 0 when @key was there (its
 * value unchanged, in *@ret_value when not NULL), -ENOMEM.
 */
_must_check_ int bo_strmap_put(struct bo_strmap *m, const char *key, size_t value,
			       size_t *ret_value);

/* Whether @key is mapped; its value in *@ret_value (may be NULL). */
bool bo_strmap_get(const struct bo_strmap *m, const char *key, size_t *ret_value);

/* Release the map (not the keys); it is then empty. */
void bo_strmap_clear(struct bo_strmap *m);

#endif
