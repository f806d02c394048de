// SPDX-License-Identifier: GPL-2.0-or-later
/* Strings to numbers (bo_strmap): a key is found with its value, once, through growth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bo_test.h"
#include "harness/base/strmap.h"

static void test_put_get(void)
{
	struct bo_strmap m = {0};
	size_t v = 0;

	CU_ASSERT(!bo_strmap_get(&m, "a", &v)); /* empty: nothing, no table yet */
	CU_ASSERT(bo_strmap_put(&m, "a", 7, NULL) == 1);
	CU_ASSERT(bo_strmap_put(&m, "b", 8, NULL) == 1);
	/* A key mapped already keeps its value, and says which. */
	CU_ASSERT(bo_strmap_put(&m, "a", 9, &v) == 0 && v == 7);
	CU_ASSERT(bo_strmap_get(&m, "a", &v) && v == 7);
	CU_ASSERT(bo_strmap_get(&m, "b", &v) && v == 8);
	CU_ASSERT(!bo_strmap_get(&m, "c", NULL));
	CU_ASSERT(!bo_strmap_get(&m, "", NULL));
	CU_ASSERT(m.n == 2);
	bo_strmap_clear(&m);
	CU_ASSERT(m.n == 0 && !bo_strmap_get(&m, "a", NULL));
}

/* Many keys sharing long prefixes (a finding's signature): each found with its own value
 * after the table grew many times, none twice. */
static void test_many(void)
{
	enum { N = 100000 };
	struct bo_strmap m = {0};
	char(*keys)[48] = calloc(N, sizeof(*keys));
	size_t v;
	bool all = true;

	CU_ASSERT_FATAL(keys != NULL);
	for (size_t i = 0; i < N; i++) {
		snprintf(keys[i], sizeof(keys[i]), "ext4|- / -|6.1|lost-ack|write|s%zu", i);
		all &= bo_strmap_put(&m, keys[i], i, NULL) == 1;
	}
	CU_ASSERT(all && m.n == N);
	for (size_t i = 0; i < N; i++)
		all &= bo_strmap_get(&m, keys[i], &v) && v == i &&
		       bo_strmap_put(&m, keys[i], 0, NULL) == 0;
	CU_ASSERT(all && m.n == N);
	CU_ASSERT(!bo_strmap_get(&m, "ext4|- / -|6.1|lost-ack|write|s100000", NULL));
	bo_strmap_clear(&m);
	free(keys);
}

int main(void)
{
	static const struct bo_test tests[] = {
		{"put and get", test_put_get},
		{"many keys", test_many},
		{},
	};

	return bo_test_run("strmap", tests);
}
