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

#include "harness/diagnose/ddmin.h"

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

char *bo_ids_format(const uint64_t *ids, size_t n)
{
	size_t cap = 64, len = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	s[0] = '\0';
	for (size_t i = 0; i < n;) {
		size_t j = i;
		char buf[48];
		int k;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (j == i)
			k = snprintf(buf, sizeof(buf), "%s%llu", len ? "," : "",
				     (unsigned long long) ids[i]);
		else
			k = snprintf(buf, sizeof(buf), "%s%llu-%llu", len ? "," : "",
				     (unsigned long long) ids[i], (unsigned long long) ids[j]);
		if (len + (size_t) k + 1 > cap) {
			char *ns;

			cap = 2 * (len + (size_t) k + 1);
			ns = realloc(s, cap);
			if (!ns) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		memcpy(s + len, buf, (size_t) k + 1);
		len += (size_t) k;
		i = j + 1;
	}
	return s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

int bo_ids_next(const char **s, uint64_t max, uint64_t *lo, uint64_t *hi)
{
	const char *p = *s;
	char *end;

	if (!*p)
		return 0;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	*lo = *hi = strtoull(p, &end, 10);
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return -EINVAL;
		*hi = strtoull(end + 1, &end, 10);
	}
	if (errno || *lo == 0 || *hi < *lo || *hi > max || (*end && *end != ','))
		return -EINVAL;
	if (*end && !end[1]) /* a trailing comma */
		return -EINVAL;
	*s = *end ? end + 1 : end;
	return 1;
}

int bo_ids_parse(const char *s, uint64_t max, uint64_t **ret, size_t *ret_n)
{
	uint64_t *v = NULL, lo, hi;
	size_t n = 0, cap = 0, w = 0;
	int k;

	if (!*s)
		return -EINVAL;
	while ((k = bo_ids_next(&s, max, &lo, &hi)) > 0) {
		if (hi - lo >= 10000000 || hi == UINT64_MAX) /* id++ must not wrap */
			goto bad;
		for (uint64_t id = lo; id <= hi; id++) {
			if (n == cap) {
				size_t c2 = cap ? 2 * cap : 64;
				uint64_t *nv = reallocarray(v, c2, sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				cap = c2;
			}
			v[n++] = id;
		}
	}
	if (k < 0)
		goto bad;
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < n; i++)
		if (!w || v[w - 1] != v[i])
			v[w++] = v[i];
	*ret = v;
	*ret_n = w;
	return 0;
bad:
	free(v);
	return -EINVAL;
}
