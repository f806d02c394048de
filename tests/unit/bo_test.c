// SPDX-License-Identifier: GPL-2.0-or-later
#include "bo_test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char scratch[PATH_MAX - 64];

static void remove_scratch(void)
{
	char cmd[PATH_MAX + 16];

	if (!scratch[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not remove %s\n", scratch);
}

const char *bo_test_dir(void)
{
	if (!scratch[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(scratch, sizeof(scratch), "%s/bo-test-XXXXXX", tmp ? tmp : "/tmp");
		if (!mkdtemp(scratch)) {
			perror("mkdtemp");
			exit(1);
		}
		atexit(remove_scratch);
	}
	return scratch;
}

const char *bo_test_path(const char *name)
{
	static char bufs[8][PATH_MAX];
	static unsigned next;
	char *b = bufs[next++ % 8];

	if ((size_t) snprintf(b, PATH_MAX, "%s/%s", bo_test_dir(), name) >= PATH_MAX)
		abort();
	return b;
}

void bo_test_put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	CU_ASSERT_FATAL(snprintf(path, sizeof(path), "%s/%s", dir, name) < (int) sizeof(path));
	f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	CU_ASSERT(fclose(f) == 0);
}

int bo_test_run(const char *suite_name, const struct bo_test *tests)
{
	CU_pSuite suite;
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	suite = CU_add_suite(suite_name, NULL, NULL);
	if (!suite)
		return 1;
	for (const struct bo_test *t = tests; t->name; t++)
		if (!CU_add_test(suite, t->name, t->fn))
			return 1;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	/* A suite that ran nothing must not pass. */
	if (CU_get_number_of_tests_run() == 0)
		failed = 1;
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
