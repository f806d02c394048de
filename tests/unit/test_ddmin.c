// SPDX-License-Identifier: GPL-2.0-or-later
/* Delta debugging: 1-minimal results for known failure predicates, and op-id lists. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/base/ddmin.h"
#include "scenarios/blackout-ids.h"

/* A failure that needs every id of a set to be present. */
struct needs {
	const uint64_t *ids;
	size_t n;
	unsigned calls;
};

static bool has(const uint64_t *v, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

static int needs_all(const uint64_t *ids, size_t n, void *ctx)
{
	struct needs *w = ctx;

	w->calls++;
	for (size_t i = 1; i < n; i++)
		CU_ASSERT(ids[i - 1] < ids[i]); /* candidates stay ascending */
	for (size_t i = 0; i < w->n; i++)
		if (!has(ids, n, w->ids[i]))
			return 0;
	return 1;
}

static uint64_t *range(size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = i + 1;
	return v;
}

static void test_finds_the_pair(void)
{
	static const uint64_t want[] = {3, 4};
	struct needs w = {want, 2, 0};
	uint64_t *all = range(200), *min = NULL;
	size_t n = 0;
	unsigned tests = 0;

	CU_ASSERT_FATAL(bo_ddmin(all, 200, needs_all, &w, 0, &min, &n, &tests) == 0);
	CU_ASSERT(n == 2 && min[0] == 3 && min[1] == 4);
	CU_ASSERT(tests == w.calls);
	/* Logarithmic in the size, not linear. */
	CU_ASSERT(tests < 60);
	free(min);
	free(all);
}

static void test_scattered(void)
{
	static const uint64_t want[] = {1, 77, 150, 199};
	struct needs w = {want, 4, 0};
	uint64_t *all = range(200), *min = NULL;
	size_t n = 0;

	CU_ASSERT_FATAL(bo_ddmin(all, 200, needs_all, &w, 0, &min, &n, NULL) == 0);
	CU_ASSERT_FATAL(n == 4);
	CU_ASSERT(!memcmp(min, want, sizeof(want)));
	free(min);
	free(all);
}

/* Fails when at least two ids above 100 are there: many minimal answers, each of size 2. */
static int two_high(const uint64_t *ids, size_t n, void *ctx)
{
	size_t k = 0;

	(void) ctx;
	for (size_t i = 0; i < n; i++)
		k += ids[i] > 100;
	return k >= 2;
}

static void test_one_minimal(void)
{
	uint64_t *all = range(150), *min = NULL;
	size_t n = 0;

	CU_ASSERT_FATAL(bo_ddmin(all, 150, two_high, NULL, 0, &min, &n, NULL) == 0);
	CU_ASSERT(n == 2 && min[0] > 100 && min[1] > 100);
	free(min);
	free(all);
}

static int broken(const uint64_t *ids, size_t n, void *ctx)
{
	(void) ids;
	(void) n;
	(void) ctx;
	return -EIO;
}

static void test_limits_and_errors(void)
{
	static const uint64_t want[] = {10, 20};
	struct needs w = {want, 2, 0};
	uint64_t *all = range(64), *min = NULL;
	size_t n = 0;
	unsigned tests = 0;

	/* A test that cannot run stops the search with its error. */
	CU_ASSERT(bo_ddmin(all, 64, broken, NULL, 0, &min, &n, NULL) == -EIO);
	/* At the limit: the smallest failing set so far, which still fails. */
	CU_ASSERT_FATAL(bo_ddmin(all, 64, needs_all, &w, 3, &min, &n, &tests) == 0);
	CU_ASSERT(tests == 3);
	CU_ASSERT(n < 64 && has(min, n, 10) && has(min, n, 20));
	free(min);
	/* A single op is already minimal: nothing is tested. */
	w.calls = 0;
	CU_ASSERT_FATAL(bo_ddmin(want, 1, needs_all, &w, 0, &min, &n, NULL) == 0);
	CU_ASSERT(n == 1 && w.calls == 0);
	free(min);
	free(all);
}

static void test_ids(void)
{
	static const uint64_t v[] = {1, 2, 3, 7, 9, 10};
	uint64_t *p = NULL;
	size_t n = 0;
	char *s = bo_ids_format(v, 6);

	CU_ASSERT_STRING_EQUAL(s, "1-3,7,9-10");
	CU_ASSERT_FATAL(bo_ids_parse(s, 10, &p, &n) == 0);
	CU_ASSERT(n == 6 && !memcmp(p, v, sizeof(v)));
	free(p);
	free(s);
	s = bo_ids_format(v, 0);
	CU_ASSERT_STRING_EQUAL(s, "");
	free(s);
	CU_ASSERT_FATAL(bo_ids_parse("9,3,3,4-5", 9, &p, &n) == 0);
	CU_ASSERT(n == 4 && p[0] == 3 && p[3] == 9);
	free(p);
	CU_ASSERT(bo_ids_parse("", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("0", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("10", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("3,", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("5-3", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("3-", 9, &p, &n) == -EINVAL);
	CU_ASSERT(bo_ids_parse("a", 9, &p, &n) == -EINVAL);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"ddmin finds the failing pair among 200 ops", test_finds_the_pair},
		{"ddmin keeps scattered necessary ops", test_scattered},
		{"ddmin ends 1-minimal", test_one_minimal},
		{"ddmin limits and errors", test_limits_and_errors},
		{"op id lists", test_ids},
		{NULL, NULL},
	};

	return bo_test_run("ddmin", tests);
}
