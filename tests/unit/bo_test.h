/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared helpers of the CUnit suites: a scratch directory and a runner. */
#ifndef BO_TEST_H
#define BO_TEST_H

#include <CUnit/Basic.h>

struct bo_test {
	const char *name;
	void (*fn)(void);
};

/* Run one suite of @tests, print CUnit's summary, return the process exit status. */
int bo_test_run(const char *suite, const struct bo_test *tests);

/* A fresh scratch directory for this process, removed at exit. */
const char *bo_test_dir(void);

/* Path @name inside the scratch directory (static buffer rotation of 8). */
const char *bo_test_path(const char *name);

/* Write @text to @dir/@name (replacing it); a failure fails the test. */
void bo_test_put(const char *dir, const char *name, const char *text);

#endif
