// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Delta debugging over op ids. The candidates of one round are the n chunks of the current
 * set and their complements; a failing chunk restarts at granularity 2, a failing complement
 * keeps the granularity minus one, and when neither fails the granularity doubles, until it
 * reaches the size of the set: then every single removal was tried and the set is 1-minimal.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/base/ddmin.h"

/* The ids of @cur in chunk @i of @g (when @complement, all but that chunk) into @out. */
static size_t pick(const uint64_t *cur, size_t n, size_t g, size_t i, bool complement,
		   uint64_t *out)
{
	size_t lo = n * i / g, hi = n * (i + 1) / g, k = 0;

	for (size_t j = 0; j < n; j++)
		if ((j >= lo && j < hi) != complement)
			out[k++] = cur[j];
	return k;
}

int bo_ddmin(const uint64_t *ids, size_t n, bo_ddmin_test_fn test, void *ctx, unsigned max_tests,
	     uint64_t **ret, size_t *ret_n, unsigned *ret_tests)
{
	uint64_t *cur = malloc((n ? n : 1) * sizeof(*cur));
	uint64_t *cand = malloc((n ? n : 1) * sizeof(*cand));
	unsigned tests = 0;
	size_t g = 2;
	int r = 0;

	if (!cur || !cand) {
		free(cur);
		free(cand);
		return -ENOMEM;
	}
	memcpy(cur, ids, n * sizeof(*cur));
	while (n >= 2 && r >= 0) {
		bool reduced = false;

		if (g > n)
			g = n;
		/* Chunks first (a big step), then complements (a small one). */
		for (int pass = 0; pass < 2 && !reduced && r >= 0; pass++) {
			for (size_t i = 0; i < g && r >= 0; i++) {
				size_t k = pick(cur, n, g, i, pass == 1, cand);

				if (k == 0 || k == n)
					continue;
				if (max_tests && tests >= max_tests)
					goto done;
				tests++;
				r = test(cand, k, ctx);
				if (r == 1) {
					memcpy(cur, cand, k * sizeof(*cur));
					n = k;
					g = pass == 0 ? 2 : (g > 2 ? g - 1 : 2);
					reduced = true;
					r = 0;
					break;
				}
			}
		}
		if (r < 0)
			break;
		if (!reduced) {
			if (g >= n)
				break;
			g = 2 * g < n ? 2 * g : n;
		}
	}
done:
	free(cand);
	if (ret_tests)
		*ret_tests = tests;
	if (r < 0) {
		free(cur);
		return r;
	}
	*ret = cur;
	*ret_n = n;
	return 0;
}
