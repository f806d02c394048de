/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blackout-ids.h — header-only: the op-id list syntax of scenarios and of `blackout shrink`,
 * "1-3,7,9-10" (ids from 1 up, ranges inclusive), shared by the harness and the workloads
 * (blackout-fsops --keep takes the lists shrink writes). Only libc is needed.
 */
#ifndef BLACKOUT_IDS_H
#define BLACKOUT_IDS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Format ascending @ids as "1-3,7,9-10" into a new string, or NULL without memory. */
static inline char *bo_ids_format(const uint64_t *ids, size_t n)
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

/*
 * One range of an op-id list "1-3,7" (ids from 1 to @max): into *@lo and *@hi, advancing *@s
 * past it and its comma. 1 a range, 0 the end of the list, -EINVAL a malformed one (an empty
 * list, a trailing comma, 0, a range backwards or past @max).
 */
static inline int bo_ids_next(const char **s, uint64_t max, uint64_t *lo, uint64_t *hi)
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

static inline int bo_ids_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* Parse "1-3,7" (ids from 1 to @max) into a new ascending array without repeats. 0, -EINVAL,
 * -ENOMEM. */
static inline int bo_ids_parse(const char *s, uint64_t max, uint64_t **ret, size_t *ret_n)
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
	qsort(v, n, sizeof(*v), bo_ids_cmp);
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

#endif
